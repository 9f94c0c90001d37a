import type { Deps } from '../composition.js';
import type { Audit } from '../domain/audit.js';
import { parseContract } from '../domain/contract.js';
import { parseDomainInput } from '../domain/domains.js';
import { NotFoundError } from '../domain/errors.js';
import { siteKey } from '../domain/target.js';
import { applyScan, emptyHistory, type IssueHistory, summariseTimeToFix } from '../domain/time-to-fix.js';
import { timeToFixQuerySchema, type TimeToFixSummaryView } from '../domain/time-to-fix.contract.js';
import type { Caller } from './account.js';

/**
 * Time-to-fix (issue 21 item 4; the rules are in lambdas/domain/time-to-fix.ts): each monitoring
 * rescan folds the owner's scans of the domain into its stored issue history, and
 * `GET /api/me/time-to-fix` sums the caller's histories up for the dashboard.
 */

/** Scans folded in at one rescan at most: the owner's own scans (quick scans too) since the history's last one. */
const MAX_SCANS_FOLDED = 20;
/** Tries when another delivery of the same domain's rescan wrote first. */
const SAVE_ATTEMPTS = 3;

type HistoryDeps = Pick<Deps, 'issueHistory' | 'audits' | 'log'>;

/**
 * Brings the domain's issue history up to `current` (a completed monitoring rescan): the owner's
 * completed scans of the domain since the history's last scan (a new history starts from the last
 * scan before this one), oldest first, then this one. Safe to repeat: a history that already holds
 * `current` is answered as it is.
 */
export async function recordIssueHistory(deps: HistoryDeps, userId: string, current: Audit & { completedAt: string }): Promise<IssueHistory | undefined> {
  const domain = siteKey(current.host);
  for (let attempt = 0; attempt < SAVE_ATTEMPTS; attempt += 1) {
    const stored = await deps.issueHistory.get(userId, domain);
    if (stored?.lastScanAt && stored.lastScanAt >= current.completedAt) return stored;
    const earlier = await deps.audits.completedScansOfSite(domain, { ownerId: userId, completedBefore: current.completedAt, limit: stored ? MAX_SCANS_FOLDED : 1 });
    const since = earlier.filter((scan) => scan.auditId !== current.id && (!stored?.lastScanAt || scan.completedAt > stored.lastScanAt)).reverse();
    const audits = (await Promise.all(since.map((scan) => deps.audits.getAudit(scan.auditId)))).filter((audit): audit is Audit => audit?.status === 'completed');
    const next = [...audits, current].reduce(applyScan, stored ?? emptyHistory(domain));
    if (await deps.issueHistory.save(userId, next, stored ? stored.lastScanAt : null)) return next;
  }
  deps.log.warn('Time-to-fix: the issue history kept changing under this rescan; the next rescan folds it in', { auditId: current.id });
  return undefined;
}

/**
 * `GET /api/me/time-to-fix[?domain=…]`: the caller's open issues (age, due date, overdue), the share
 * fixed on time and the mean time to fix per month, over the histories of the caller's own domains
 * (the owner's partition holds them; a domain no longer in the caller's domains is left out).
 */
export async function timeToFixOf(deps: Pick<Deps, 'issueHistory' | 'domains' | 'clock'>, caller: Caller, query: unknown): Promise<TimeToFixSummaryView> {
  const { domain: asked } = parseContract(timeToFixQuerySchema, query ?? {});
  const [domains, histories] = await Promise.all([deps.domains.list(caller.userId), deps.issueHistory.list(caller.userId)]);
  const mine = new Set(domains.map((d) => d.domain));
  let shown = histories.filter((history) => mine.has(history.domain));
  if (asked !== undefined) {
    const domain = parseDomainInput(asked);
    if (!mine.has(domain)) throw new NotFoundError('domain_not_found', 'This domain is not in your domains.');
    shown = shown.filter((history) => history.domain === domain);
  }
  return summariseTimeToFix(shown, deps.clock.now());
}
