import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client';
import { routePath, type SharedAuditResponse } from '../../../lib/contracts';
import type { QueryConfig } from '../../../lib/react-query';

/**
 * SPEC §3 "Shared audit response": success, audit, expiresAt, message (the API's contract,
 * `SharedAuditResponse`, read loosely: a failure carries only `success: false` and a message).
 * `canEmail`: the link was made by the report's signed-in owner, so it may email the report.
 */
export type SharedAudit = Partial<Omit<SharedAuditResponse, 'success'>> & { success: boolean };

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
