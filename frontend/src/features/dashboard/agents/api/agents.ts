import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiDelete, apiGet, apiGetBlob, apiPost } from '../../../../lib/api-client';
import {
  installerExtension,
  routePath,
  savedInstallerFileName,
  type AgentDebugView,
  type AgentEnrollmentView,
  type AgentInstallerView,
  type AgentListView,
  type AgentSummaryView,
} from '../../../../lib/contracts';
import { saveFile } from '../../../../lib/save-file';

export const agentKeys = {
  all: ['agents'] as const,
  list: () => [...agentKeys.all, 'list'] as const,
  summary: () => [...agentKeys.all, 'summary'] as const,
  debug: () => [...agentKeys.all, 'debug'] as const,
  enrollment: () => [...agentKeys.all, 'enrollment'] as const,
};

interface PollOptions {
  /** Refetch every this many milliseconds (the install walkthrough waits for the first report). */
  refetchInterval?: number | false | (() => number | false);
}

/** `GET /api/me/agents`: every agent of the account. */
export const agentsQueryOptions = () =>
  queryOptions({
    queryKey: agentKeys.list(),
    queryFn: ({ signal }) => apiGet<AgentListView>(routePath('list-my-agents'), { signal }).then((r) => r.agents),
  });

export const useMyAgents = ({ refetchInterval = false }: PollOptions = {}) => useQuery({ ...agentsQueryOptions(), refetchInterval });

/** `GET /api/me/agents/summary`: the four counts and the agents behind them. */
export const agentsSummaryQueryOptions = () =>
  queryOptions({
    queryKey: agentKeys.summary(),
    queryFn: ({ signal }) => apiGet<AgentSummaryView>(routePath('get-my-agents-summary'), { signal }),
  });

export const useAgentsSummary = () => useQuery(agentsSummaryQueryOptions());

/** `GET /api/me/agents/debug`: reports received, the last one, recent submissions and install messages. */
export const agentsDebugQueryOptions = () =>
  queryOptions({
    queryKey: agentKeys.debug(),
    queryFn: ({ signal }) => apiGet<AgentDebugView>(routePath('get-my-agents-debug'), { signal }),
  });

export const useAgentsDebug = ({ refetchInterval = false }: PollOptions = {}) => useQuery({ ...agentsDebugQueryOptions(), refetchInterval });

/** `GET /api/me/agents/enrollment`: the secret, the verified domains and the installers. */
export const agentEnrollmentQueryOptions = () =>
  queryOptions({
    queryKey: agentKeys.enrollment(),
    queryFn: ({ signal }) => apiGet<AgentEnrollmentView>(routePath('get-agent-enrollment'), { signal }),
  });

export const useAgentEnrollment = () => useQuery(agentEnrollmentQueryOptions());

/** `POST /api/me/agents/secret`: a new enrollment secret; installers downloaded before stop enrolling. */
export function useRotateAgentSecret() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiPost<AgentEnrollmentView>(routePath('rotate-agent-secret'), {}),
    onSuccess: (enrollment) => queryClient.setQueryData(agentKeys.enrollment(), enrollment),
  });
}

/**
 * `DELETE /api/me/agents/{agentId}`: removes an agent. Its token stops; a machine whose token is lost
 * (the enrollment secret alone does not re-register an enrolled machine) then enrols anew.
 */
export function useRemoveAgent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (agentId: string) => apiDelete(routePath('remove-agent', { agentId })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: agentKeys.all }),
  });
}

/** Downloads a domain's installer with the user's token and saves it as `{domain-with-hyphens}-osquery-installer.bat|sh`. */
export async function downloadInstaller(installer: AgentInstallerView, domain: string): Promise<string> {
  const blob = await apiGetBlob(`${installer.path}?domain=${encodeURIComponent(domain)}`);
  const fileName = savedInstallerFileName(domain, installerExtension(installer.platform));
  saveFile(blob, fileName);
  return fileName;
}
