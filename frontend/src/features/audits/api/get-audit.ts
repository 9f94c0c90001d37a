import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api-client';
import type { Audit, AuditResultView, AuditStatus } from '../../../lib/contracts';
// Zod-free: the landing page's lead form follows the scan with this same query.
import { routePath } from '../../../lib/route-path';
import type { QueryConfig } from '../../../lib/react-query';

/** The quickest the page asks again: a scan's first seconds, and the wait for a purchase to be stored. */
export const AUDIT_POLL_INTERVAL_MS = 1_000;

/**
 * How long the page waits before asking again, by the audit's state and how many answers it has had
 * (issue 30 item 2: the API's load model in lib/api/throttles.ts counts on it). A running scan: every
 * second for its first 5 answers (the first checks finish quickly), every 2 s for the next 5, then
 * every 5 s. A queued one has nothing new to show until a worker takes it: 2 s for its first 3 answers,
 * then every 10 s. A hidden tab does not ask at all (React Query's default).
 */
export const AUDIT_POLL_BACKOFF = {
  running: [
    { upTo: 5, delayMs: AUDIT_POLL_INTERVAL_MS },
    { upTo: 10, delayMs: 2_000 },
  ],
  runningCapMs: 5_000,
  queued: [{ upTo: 3, delayMs: 2_000 }],
  queuedCapMs: 10_000,
} as const;

/** The wait before the next read of an audit in `status`, after `answers` answers; false when it has settled. */
export function auditPollDelay(status: AuditStatus | undefined, answers: number): number | false {
  if (status === 'in_progress') return AUDIT_POLL_BACKOFF.running.find((step) => answers <= step.upTo)?.delayMs ?? AUDIT_POLL_BACKOFF.runningCapMs;
  if (status === 'queued') return AUDIT_POLL_BACKOFF.queued.find((step) => answers <= step.upTo)?.delayMs ?? AUDIT_POLL_BACKOFF.queuedCapMs;
  return false;
}
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
    // A running scan changes as its checks finish (read with a back-off); a finished one never changes again (but for a purchase).
    staleTime: (query) => (isAuditRunning(query.state.data?.audit.status) ? 0 : Infinity),
    refetchInterval: (query) => {
      const data = query.state.data;
      if (isAuditRunning(data?.audit.status)) return auditPollDelay(data?.audit.status, query.state.dataUpdateCount);
      const waitingForPurchase = awaitPremium && data !== undefined && !isPremiumReport(data.audit, data.result);
      return waitingForPurchase && query.state.dataUpdateCount < PREMIUM_POLL_LIMIT ? AUDIT_POLL_INTERVAL_MS : false;
    },
  });

export function useAudit(auditId: string, queryConfig: QueryConfig<typeof getAuditQueryOptions> & { awaitPremium?: boolean } = {}) {
  const { awaitPremium, ...config } = queryConfig;
  return useQuery({ ...getAuditQueryOptions(auditId, { awaitPremium }), ...config });
}
