import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client';
import { routePath, type Audit, type AuditResultView, type AuditStatus } from '../../../lib/contracts';
import type { QueryConfig } from '../../../lib/react-query';

/** How often the results page asks again while the scan is still running. */
export const AUDIT_POLL_INTERVAL_MS = 1_000;

/** `GET /api/audits/{id}`: the audit with its checks as saved, and the report built from it. */
export interface AuditReport {
  audit: Audit;
  /** The spec's record plus the full report; absent only from an API older than the report. */
  result?: AuditResultView;
}

export function isAuditRunning(status: AuditStatus | undefined): boolean {
  return status === 'queued' || status === 'in_progress';
}

export const getAudit = (auditId: string, signal?: AbortSignal): Promise<AuditReport> =>
  apiGet<AuditReport>(routePath('get-audit', { auditId }), { signal });

export const getAuditQueryOptions = (auditId: string) =>
  queryOptions({
    queryKey: ['audits', auditId],
    queryFn: ({ signal }) => getAudit(auditId, signal),
    // A running scan changes every second; a finished one never changes again.
    staleTime: (query) => (isAuditRunning(query.state.data?.audit.status) ? 0 : Infinity),
    refetchInterval: (query) => (isAuditRunning(query.state.data?.audit.status) ? AUDIT_POLL_INTERVAL_MS : false),
  });

export function useAudit(auditId: string, queryConfig: QueryConfig<typeof getAuditQueryOptions> = {}) {
  return useQuery({ ...getAuditQueryOptions(auditId), ...queryConfig });
}
