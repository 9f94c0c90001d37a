import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client';
import type { Audit, AuditResultView, AuditStatus } from '../../../lib/contracts';
// Zod-free: the landing page's lead form follows the scan with this same query.
import { routePath } from '../../../lib/route-path';
import type { QueryConfig } from '../../../lib/react-query';

/** How often the results page asks again while the scan is still running. */
export const AUDIT_POLL_INTERVAL_MS = 1_000;
/**
 * Just back from paying (`?premium=true`), how many times the page reads the audit until its stored
 * state says premium: the payment's webhook marks it a moment after the order the payment page waited for.
 */
export const PREMIUM_POLL_LIMIT = 20;

/** `GET /api/audits/{id}`: the audit with its checks as saved, and the report built from it. */
export interface AuditReport {
  audit: Audit;
  /** The spec's record plus the full report; absent only from an API older than the report. */
  result?: AuditResultView;
}

export function isAuditRunning(status: AuditStatus | undefined): boolean {
  return status === 'queued' || status === 'in_progress';
}

/**
 * SPEC §3's premium fields, set by the server when a paid audit of this report is bought:
 * `is_premium` and `plan_type` on the report, `isPremium` on the audit record. Only the stored
 * state counts, never the page's address.
 */
export function isPremiumReport(audit: Audit, result?: AuditResultView): boolean {
  return result?.is_premium === true || Boolean(result?.plan_type) || audit.isPremium === true;
}

export const getAudit = (auditId: string, signal?: AbortSignal): Promise<AuditReport> =>
  apiGet<AuditReport>(routePath('get-audit', { auditId }), { signal });

/** `awaitPremium`: the payment's redirect (`?premium=true`) asks again until the audit is stored as premium, a bounded number of times. */
export const getAuditQueryOptions = (auditId: string, { awaitPremium = false }: { awaitPremium?: boolean } = {}) =>
  queryOptions({
    queryKey: ['audits', auditId],
    queryFn: ({ signal }) => getAudit(auditId, signal),
    // A running scan changes every second; a finished one never changes again (but for a purchase).
    staleTime: (query) => (isAuditRunning(query.state.data?.audit.status) ? 0 : Infinity),
    refetchInterval: (query) => {
      const data = query.state.data;
      if (isAuditRunning(data?.audit.status)) return AUDIT_POLL_INTERVAL_MS;
      const waitingForPurchase = awaitPremium && data !== undefined && !isPremiumReport(data.audit, data.result);
      return waitingForPurchase && query.state.dataUpdateCount < PREMIUM_POLL_LIMIT ? AUDIT_POLL_INTERVAL_MS : false;
    },
  });

export function useAudit(auditId: string, queryConfig: QueryConfig<typeof getAuditQueryOptions> & { awaitPremium?: boolean } = {}) {
  const { awaitPremium, ...config } = queryConfig;
  return useQuery({ ...getAuditQueryOptions(auditId, { awaitPremium }), ...config });
}
