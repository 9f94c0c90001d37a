import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../../lib/api-client';
import { routePath, type EssentialEightView } from '../../../../lib/contracts';

export const essentialEightKeys = {
  of: (domain: string) => ['essential-eight', domain] as const,
};

export const essentialEightQueryOptions = (domain: string) =>
  queryOptions({
    queryKey: essentialEightKeys.of(domain),
    // The server maps the domain's latest scan and agents (lambdas/domain/essential-eight.ts).
    queryFn: ({ signal }) => apiGet<EssentialEightView>(routePath('get-essential-eight', { domain }), { signal }),
  });

export function useEssentialEight(domain: string | undefined) {
  return useQuery({ ...essentialEightQueryOptions(domain ?? ''), enabled: domain !== undefined });
}
