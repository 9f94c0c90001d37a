import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client';
import type { Audit } from '../../../lib/contracts';
import { routePath } from '../../../lib/route-path';

/** How often the progress panel asks how the scan is going. */
export const PROGRESS_POLL_INTERVAL_MS = 1_000;

const isRunning = (audit: Audit | undefined) => !audit || audit.status === 'queued' || audit.status === 'in_progress';

/** The audit as the scan worker last saved it: its status and each check's status as it finishes. */
export async function getAuditProgress(auditId: string, signal?: AbortSignal): Promise<Audit> {
  const body = await apiGet<{ audit: Audit }>(routePath('get-audit', { auditId }), { signal });
  return body.audit;
}

export const getAuditProgressQueryOptions = (auditId: string) =>
  queryOptions({
    queryKey: ['lead-form', 'audit-progress', auditId],
    queryFn: ({ signal }) => getAuditProgress(auditId, signal),
    staleTime: 0,
    refetchInterval: (query) => (isRunning(query.state.data) ? PROGRESS_POLL_INTERVAL_MS : false),
    // A hiccup while polling is not the scan failing: keep asking.
    retry: 5,
  });

export function useAuditProgress(auditId: string | undefined) {
  return useQuery({ ...getAuditProgressQueryOptions(auditId ?? ''), enabled: auditId !== undefined });
}
