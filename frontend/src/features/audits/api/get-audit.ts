import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client';
import { routePath, type Audit, type AuditStatus } from '../../../lib/contracts';
import type { QueryConfig } from '../../../lib/react-query';

/** How often the results page asks again while the scan is still running. */
export const AUDIT_POLL_INTERVAL_MS = 1_000;

interface GetAuditResponse {
  audit: Audit;
}

export function isAuditRunning(status: AuditStatus | undefined): boolean {
  return status === 'queued' || status === 'in_progress';
}

export async function getAudit(auditId: string, signal?: AbortSignal): Promise<Audit> {
  const body = await apiGet<GetAuditResponse>(routePath('get-audit', { auditId }), { signal });
  return body.audit;
}

export const getAuditQueryOptions = (auditId: string) =>
  queryOptions({
    queryKey: ['audits', auditId],
    queryFn: ({ signal }) => getAudit(auditId, signal),
    // A running scan changes every second; a finished one never changes again.
    staleTime: (query) => (isAuditRunning(query.state.data?.status) ? 0 : Infinity),
    refetchInterval: (query) => (isAuditRunning(query.state.data?.status) ? AUDIT_POLL_INTERVAL_MS : false),
  });

export function useAudit(auditId: string, queryConfig: QueryConfig<typeof getAuditQueryOptions> = {}) {
  return useQuery({ ...getAuditQueryOptions(auditId), ...queryConfig });
}
