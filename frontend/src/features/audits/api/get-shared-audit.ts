import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client';
import { routePath, type AuditResultView } from '../../../lib/contracts';
import type { QueryConfig } from '../../../lib/react-query';

/** SPEC §3 "Shared audit response": success, audit, expiresAt, message. */
export interface SharedAudit {
  success: boolean;
  audit?: AuditResultView;
  expiresAt?: string;
  remainingUses?: number;
  message?: string;
}

export const getSharedAudit = (shareToken: string, signal?: AbortSignal): Promise<SharedAudit> =>
  apiGet<SharedAudit>(routePath('get-shared-audit', { shareToken }), { signal });

export const getSharedAuditQueryOptions = (shareToken: string) =>
  queryOptions({
    queryKey: ['shared-audits', shareToken],
    queryFn: ({ signal }) => getSharedAudit(shareToken, signal),
    // Each read uses up one of the link's views: read it once per visit.
    staleTime: Infinity,
    retry: false,
  });

export function useSharedAudit(shareToken: string, queryConfig: QueryConfig<typeof getSharedAuditQueryOptions> = {}) {
  return useQuery({ ...getSharedAuditQueryOptions(shareToken), ...queryConfig });
}
