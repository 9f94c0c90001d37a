import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiDelete, apiGet, apiPut } from '../../../lib/api-client';
import { routePath, type PoliciesPage, type PolicyInput, type PolicyReply, type SecurityPolicyView } from '../../../lib/contracts';
import { accountKeys } from './account';

/** Custom security policies (Monitor Plus): the caller's accepted and muted findings. */
export const policyKeys = {
  all: [...accountKeys.all, 'policies'] as const,
  list: (domain?: string) => [...policyKeys.all, domain ?? '*'] as const,
};

/** `GET /api/me/policies[?domain=]`: the policies, and whether the plan lets the caller add more. */
export const getPolicies = (domain?: string, signal?: AbortSignal): Promise<PoliciesPage> =>
  apiGet<PoliciesPage>(`${routePath('list-policies')}${domain ? `?${new URLSearchParams({ domain }).toString()}` : ''}`, { signal });

export const policiesQueryOptions = (domain?: string) =>
  queryOptions({ queryKey: policyKeys.list(domain), queryFn: ({ signal }) => getPolicies(domain, signal) });

export function usePolicies(domain?: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...policiesQueryOptions(domain), enabled });
}

export interface PolicyTarget {
  domain: string;
  findingId: string;
}

export function usePutPolicy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ domain, findingId, input }: PolicyTarget & { input: PolicyInput }): Promise<SecurityPolicyView> =>
      apiPut<PolicyReply>(routePath('put-policy', { domain, findingId }), input).then((reply) => reply.policy),
    onSettled: () => queryClient.invalidateQueries({ queryKey: policyKeys.all }),
  });
}

export function useDeletePolicy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ domain, findingId }: PolicyTarget) => apiDelete(routePath('delete-policy', { domain, findingId })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: policyKeys.all }),
  });
}
