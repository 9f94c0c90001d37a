import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiDelete, apiGet, apiPost } from '../../../lib/api-client';
import { routePath } from '../../../lib/contracts';
import { accountKeys } from './account';

/** One of the user's domains as `GET /api/me/domains` lists it. */
export interface DomainView {
  id: string;
  domain: string;
  verified: boolean;
  /** lapsed: verified once, then a re-check no longer found the proof (DECISIONS "Scan modes"). */
  status: 'verified' | 'pending' | 'lapsed';
  /** Verified domains: when the proof was last seen, and whether it is due to be looked for again (over 30 days). */
  proofCheckedAt?: string;
  proofRecheckDue?: boolean;
  /** Lapsed domains: when the re-check did not find the proof. */
  lapsedAt?: string;
  verificationToken: string;
  addedAt: string;
  verifiedAt?: string;
  verifiedBy?: 'dns' | 'file';
  /** How to prove ownership: a TXT record at the domain, or a file on the site. */
  verification: {
    dns: { type: 'TXT'; name: string; value: string };
    file: { url: string; content: string };
  };
}

export const domainsQueryOptions = () =>
  queryOptions({
    queryKey: accountKeys.domains(),
    queryFn: ({ signal }) => apiGet<{ domains: DomainView[] }>(routePath('list-domains'), { signal }).then((r) => r.domains),
  });

export function useDomains() {
  return useQuery(domainsQueryOptions());
}

function useDomainMutation<TInput, TResult>(mutationFn: (input: TInput) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () => queryClient.invalidateQueries({ queryKey: accountKeys.domains() }),
  });
}

export const useAddDomain = () =>
  useDomainMutation((domain: string) =>
    apiPost<{ domain: DomainView }>(routePath('add-domain'), { domain }).then((r) => r.domain),
  );

export const useVerifyDomain = () =>
  useDomainMutation((domain: string) => apiPost<DomainView>(routePath('verify-domain', { domain }), {}));

export const useDeleteDomain = () =>
  useDomainMutation((domain: string) => apiDelete(routePath('delete-domain', { domain })));
