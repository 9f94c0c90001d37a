import type { Finding } from './audit.js';
import type { IssueSeverity } from './audit-view.js';
import { checksRunInFull, issuesById, type IssueOverdueChange, type MonitoredScan } from './monitoring-diff.js';
import { monthLabel } from './monthly-report.contract.js';
import { siteOf } from './scan-site.js';
import { RETENTION_SECONDS } from './retention.js';
import { siteKey } from './target.js';
import type { TimeToFixIssueView, TimeToFixSummaryView } from './time-to-fix.contract.js';

/**
 * Time-to-fix (issue 21 item 4): how long the issues of a monitored domain stay open, against a
 * target per severity. Pure: the use case reads and stores a domain's issue history
 * (lambdas/use-cases/time-to-fix.ts), this module folds each completed scan into it and sums it up.
 *
 * Choices, in one place:
 * - Issues only (critical–low); `info` findings are observations (DECISIONS "Issues vs observations").
 * - Targets: critical 7, high 30, medium 60, low 120 days (Intruder's Cyber Hygiene Score), counted
 *   from when the issue was first seen. An occurrence's severity is the worst it was seen with, so a
 *   re-rating upwards shortens its due date and a downgrade never lengthens it.
 * - First seen: the completion of the first of the owner's scans that showed the issue. Last seen:
 *   the latest that did.
 * - Fixed: the completion of the first later scan whose check for that issue ran in full (finished
 *   `ok` and not limited to its passive part) and no longer has it — monitoring's own rule
 *   (`checksRunInFull` in monitoring-diff.ts). A passive or partial rescan, a skipped, failed or
 *   timed-out check, fixes nothing: the issue stays open until a scan looks again. The fix is dated
 *   when Rampart saw it gone, not guessed between the two scans. DECISIONS "Rescan target": a scan
 *   whose landing page did not load fixes nothing, and the checks that read the site's pages (http,
 *   software, wordpress, exposure, tls) fix only when the scan reached the same site as the last one
 *   folded in that did (`lastSite`): an issue found on http://x is not fixed by a scan of https://x.
 * - On time: fixed at or before the due date (first seen + target). Overdue: still open after it.
 * - Back again: an issue seen again within REOPEN_WITHIN_DAYS of its fix reopens the same
 *   occurrence — its first seen and due date stand, the fix is withdrawn (it no longer counts as
 *   fixed, on time or not) and `reopened` counts it: a fix that did not hold was no fix, and a site
 *   flapping between two servers must not reset the clock. Later than that, it is a new occurrence
 *   with its own first seen and due date; the earlier occurrence keeps its time to fix.
 * - Muted or accepted findings (custom security policies) stay in the history and its figures (the
 *   score still counts them); only their overdue alert is dropped, as their other alerts are.
 * - Kept: the history is made from audit results, so it follows their retention (12 months): fixed
 *   occurrences older than that are dropped, and the item itself expires 12 months after the last
 *   scan folded in. At most MAX_OCCURRENCES are kept (the oldest fixed go first).
 * - Aggregates: open issues by age (buckets at the targets' boundaries), the share of issues fixed
 *   on time (over the fixes kept), and the mean time to fix per calendar month (UTC) of the fix.
 */

/** Days to fix an issue of each severity, from when it was first seen (Intruder's Cyber Hygiene Score). */
export const TIME_TO_FIX_TARGET_DAYS: Readonly<Record<IssueSeverity, number>> = { critical: 7, high: 30, medium: 60, low: 120 };

/** An issue seen again within this many days of its fix reopens the same occurrence. */
export const REOPEN_WITHIN_DAYS = 30;

/** The most occurrences one domain's history keeps (a DynamoDB item holds 400 KB). */
export const MAX_OCCURRENCES = 500;

/** Open issues by age: each bucket up to `maxDays` whole days (the last has none), the targets' boundaries. */
export const AGE_BUCKETS: readonly { label: string; maxDays: number | null }[] = [
  { label: '0–7 days', maxDays: 7 },
  { label: '8–30 days', maxDays: 30 },
  { label: '31–60 days', maxDays: 60 },
  { label: '61–120 days', maxDays: 120 },
  { label: 'Over 120 days', maxDays: null },
];

/** Months listed in the mean time to fix over time, ending with the current one. */
export const TREND_MONTHS = 6;

const DAY_MS = 86_400_000;
const SEVERITY_RANK: Record<IssueSeverity, number> = { critical: 0, high: 1, medium: 2, low: 3 };

/** One stretch of time an issue was open on a domain: from first seen until fixed (or still open). */
export interface IssueOccurrence {
  findingId: string;
  title: string;
  /** The worst severity it was seen with. */
  severity: IssueSeverity;
  category: string;
  /** The check it belongs to: only a scan in which that check ran in full can see it fixed. */
  check: string;
  firstSeenAt: string;
  firstSeenAuditId: string;
  lastSeenAt: string;
  lastSeenAuditId: string;
  fixedAt?: string;
  fixedAuditId?: string;
  /** How many times it came back within REOPEN_WITHIN_DAYS of a fix. */
  reopened: number;
}

/** A domain's issue history, as stored per owner and domain. */
export interface IssueHistory {
  domain: string;
  /** The latest scan folded in: scans completed at or before it change nothing. */
  lastScanAt: string | null;
  lastAuditId: string | null;
  /**
   * The site (scan-site.ts `siteOf`) of the latest scan folded in that loaded the landing page;
   * absent when none did, or in a history stored before it was kept (the next scan's page checks then fix nothing).
   */
  lastSite?: string;
  occurrences: IssueOccurrence[];
}

/** Where each owner's domain histories are kept (lambdas/adapters/dynamodb-issue-history.adapter.ts). */
export interface IssueHistoryRepository {
  get(userId: string, domain: string): Promise<IssueHistory | undefined>;
  /** Every domain history of the user. */
  list(userId: string): Promise<IssueHistory[]>;
  /**
   * Stores the history if the stored one still has `expectedLastScanAt` (null: none stored yet):
   * false when another update came first (the caller reads again).
   */
  save(userId: string, history: IssueHistory, expectedLastScanAt: string | null): Promise<boolean>;
  remove(userId: string, domain: string): Promise<void>;
}

export const emptyHistory = (domain: string): IssueHistory => ({ domain: siteKey(domain), lastScanAt: null, lastAuditId: null, occurrences: [] });

const isOpen = (occurrence: IssueOccurrence) => occurrence.fixedAt === undefined;
const worse = (a: IssueSeverity, b: IssueSeverity) => (SEVERITY_RANK[a] <= SEVERITY_RANK[b] ? a : b);
const daysBetween = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / DAY_MS;

/**
 * Folds one completed scan into the history: issues it shows are opened (or kept open, or reopened),
 * open issues whose check it ran in full and no longer shows are fixed at its completion. A scan
 * not completed, or not newer than the last one folded in, changes nothing (a redelivered job).
 */
export function applyScan(history: IssueHistory, scan: MonitoredScan): IssueHistory {
  const at = scan.completedAt;
  if (scan.status !== 'completed' || !at || siteKey(scan.host) !== history.domain) return history;
  if (history.lastScanAt !== null && at <= history.lastScanAt) return history;
  const occurrences = history.occurrences.map((occurrence) => ({ ...occurrence }));
  const present = issuesById(scan);
  // A new history compares with nothing; one with scans folded in compares with the last site it saw (none known: no page check fixes).
  const looked = checksRunInFull(scan, history.lastScanAt === null ? {} : { sameSiteAs: history.lastSite ?? null });
  const site = siteOf(scan) ?? history.lastSite;

  for (const { finding, check } of present.values()) {
    const severity = finding.severity as IssueSeverity;
    const open = occurrences.find((o) => o.findingId === finding.id && isOpen(o));
    if (open) {
      Object.assign(open, seen(finding, check, scan.id, at), { severity: worse(open.severity, severity) });
      continue;
    }
    const lastFixed = occurrences.filter((o) => o.findingId === finding.id).sort((a, b) => (b.fixedAt ?? '').localeCompare(a.fixedAt ?? ''))[0];
    if (lastFixed?.fixedAt && daysBetween(lastFixed.fixedAt, at) <= REOPEN_WITHIN_DAYS) {
      delete lastFixed.fixedAt;
      delete lastFixed.fixedAuditId;
      Object.assign(lastFixed, seen(finding, check, scan.id, at), { severity: worse(lastFixed.severity, severity), reopened: lastFixed.reopened + 1 });
      continue;
    }
    occurrences.push({ findingId: finding.id, severity, ...seen(finding, check, scan.id, at), firstSeenAt: at, firstSeenAuditId: scan.id, reopened: 0 });
  }

  for (const occurrence of occurrences) {
    if (isOpen(occurrence) && !present.has(occurrence.findingId) && looked.has(occurrence.check)) {
      occurrence.fixedAt = at;
      occurrence.fixedAuditId = scan.id;
    }
  }
  return { domain: history.domain, lastScanAt: at, lastAuditId: scan.id, ...(site ? { lastSite: site } : {}), occurrences: pruned(occurrences, new Date(at)) };
}

function seen(finding: Finding, check: string, auditId: string, at: string) {
  return { title: finding.title, category: finding.category, check, lastSeenAt: at, lastSeenAuditId: auditId };
}

/** Fixed occurrences past the audit results' retention go; then, beyond MAX_OCCURRENCES, the oldest fixed. */
function pruned(occurrences: IssueOccurrence[], now: Date): IssueOccurrence[] {
  const keptSince = new Date(now.getTime() - RETENTION_SECONDS.auditResults * 1000).toISOString();
  const kept = occurrences.filter((o) => isOpen(o) || o.fixedAt! >= keptSince);
  if (kept.length <= MAX_OCCURRENCES) return kept;
  const dropped = new Set(
    kept
      .filter((o) => !isOpen(o))
      .sort((a, b) => a.fixedAt!.localeCompare(b.fixedAt!))
      .slice(0, kept.length - MAX_OCCURRENCES),
  );
  return kept.filter((o) => !dropped.has(o));
}

// ---- One occurrence's arithmetic ----

export const targetDays = (severity: IssueSeverity): number => TIME_TO_FIX_TARGET_DAYS[severity];

/** First seen + the severity's target. */
export function dueAt(occurrence: Pick<IssueOccurrence, 'firstSeenAt' | 'severity'>): string {
  return new Date(Date.parse(occurrence.firstSeenAt) + targetDays(occurrence.severity) * DAY_MS).toISOString();
}

/** Still open after its due date. At the due instant itself it is not yet overdue. */
export function isOverdue(occurrence: IssueOccurrence, now: Date): boolean {
  return isOpen(occurrence) && now.getTime() > Date.parse(dueAt(occurrence));
}

/** Days from first seen to the fix (fractional); undefined while open. */
export function timeToFixDays(occurrence: IssueOccurrence): number | undefined {
  return occurrence.fixedAt === undefined ? undefined : daysBetween(occurrence.firstSeenAt, occurrence.fixedAt);
}

/** Fixed at or before its due date; undefined while open. */
export function fixedOnTime(occurrence: IssueOccurrence): boolean | undefined {
  return occurrence.fixedAt === undefined ? undefined : occurrence.fixedAt <= dueAt(occurrence);
}

/** Whole days open at `now` (an open occurrence) or until its fix. */
export function ageDays(occurrence: IssueOccurrence, now: Date): number {
  return Math.max(0, Math.floor(daysBetween(occurrence.firstSeenAt, occurrence.fixedAt ?? now.toISOString())));
}

/** The occurrences open and overdue at `now`, worst first, most overdue first. */
export function overdueIssues(history: IssueHistory, now: Date): IssueOccurrence[] {
  return history.occurrences
    .filter((o) => isOverdue(o, now))
    .sort((a, b) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] || dueAt(a).localeCompare(dueAt(b)) || a.title.localeCompare(b.title));
}

/** Whole days past the due date at `now` (0 on the due day's last stretch). */
export const daysOverdue = (occurrence: IssueOccurrence, now: Date) => Math.max(0, Math.floor(daysBetween(dueAt(occurrence), now.toISOString())));

/** The alerts' changes for the issues overdue at the history's last scan (each occurrence alerts once: its key names it). */
export function overdueChanges(history: IssueHistory): IssueOverdueChange[] {
  if (!history.lastScanAt) return [];
  const now = new Date(history.lastScanAt);
  return overdueIssues(history, now).map((o) => ({
    type: 'issue_overdue',
    domain: history.domain,
    dedupeKey: `${history.domain}|issue_overdue|${o.findingId}|${o.firstSeenAt}`,
    findingId: o.findingId,
    title: o.title,
    severity: o.severity,
    category: o.category,
    firstSeenAt: o.firstSeenAt,
    dueAt: dueAt(o),
    targetDays: targetDays(o.severity),
    daysOverdue: daysOverdue(o, now),
  }));
}

// ---- The dashboard's figures ----

const monthOf = (iso: string) => iso.slice(0, 7);

/** The `count` calendar months (UTC) ending with the one `now` is in, oldest first: `yyyy-mm`. */
function lastMonths(now: Date, count: number): string[] {
  return Array.from({ length: count }, (_, i) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (count - 1 - i), 1)).toISOString().slice(0, 7));
}

const mean = (values: readonly number[]) => (values.length === 0 ? null : values.reduce((sum, v) => sum + v, 0) / values.length);

export function issueView(domain: string, o: IssueOccurrence, now: Date): TimeToFixIssueView {
  const days = timeToFixDays(o);
  return {
    domain,
    findingId: o.findingId,
    title: o.title,
    severity: o.severity,
    category: o.category,
    firstSeenAt: o.firstSeenAt,
    lastSeenAt: o.lastSeenAt,
    fixedAt: o.fixedAt ?? null,
    dueAt: dueAt(o),
    targetDays: targetDays(o.severity),
    ageDays: ageDays(o, now),
    overdue: isOverdue(o, now),
    timeToFixDays: days ?? null,
    fixedOnTime: fixedOnTime(o) ?? null,
    reopened: o.reopened,
  };
}

/** How many fixed issues the summary lists (the newest fixes). */
export const RECENT_FIXES_LISTED = 20;

/**
 * The figures for the dashboard over the given histories (one per domain) at `now`: open issues by
 * age with the overdue ones, the share fixed on time, the mean time to fix per month of the fix, the
 * open issues (overdue first, then by due date) and the newest fixes.
 */
export function summariseTimeToFix(histories: readonly IssueHistory[], now: Date, months = TREND_MONTHS): TimeToFixSummaryView {
  const all = histories.flatMap((h) => h.occurrences.map((o) => ({ domain: h.domain, o })));
  const open = all.filter(({ o }) => isOpen(o));
  const fixed = all.filter(({ o }) => !isOpen(o));
  const byAge = AGE_BUCKETS.map((bucket, i) => {
    const min = i === 0 ? 0 : AGE_BUCKETS[i - 1]!.maxDays! + 1;
    const inBucket = open.filter(({ o }) => {
      const age = ageDays(o, now);
      return age >= min && (bucket.maxDays === null || age <= bucket.maxDays);
    });
    return { label: bucket.label, minDays: min, maxDays: bucket.maxDays, open: inBucket.length, overdue: inBucket.filter(({ o }) => isOverdue(o, now)).length };
  });
  const onTime = fixed.filter(({ o }) => fixedOnTime(o)).length;
  const trend = lastMonths(now, months).map((month) => {
    const ofMonth = fixed.filter(({ o }) => monthOf(o.fixedAt!) === month);
    return {
      month,
      label: monthLabel(month),
      fixed: ofMonth.length,
      fixedOnTime: ofMonth.filter(({ o }) => fixedOnTime(o)).length,
      meanDaysToFix: mean(ofMonth.map(({ o }) => timeToFixDays(o)!)),
    };
  });
  const openViews = open
    .map(({ domain, o }) => issueView(domain, o, now))
    .sort((a, b) => Number(b.overdue) - Number(a.overdue) || a.dueAt.localeCompare(b.dueAt) || SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] || a.title.localeCompare(b.title));
  const recentFixes = fixed
    .sort((a, b) => b.o.fixedAt!.localeCompare(a.o.fixedAt!) || a.o.title.localeCompare(b.o.title))
    .slice(0, RECENT_FIXES_LISTED)
    .map(({ domain, o }) => issueView(domain, o, now));
  return {
    asOf: now.toISOString(),
    targets: { ...TIME_TO_FIX_TARGET_DAYS },
    domains: histories.map((h) => ({ domain: h.domain, lastScanAt: h.lastScanAt })).sort((a, b) => a.domain.localeCompare(b.domain)),
    openByAge: byAge,
    openTotal: open.length,
    overdueTotal: open.filter(({ o }) => isOverdue(o, now)).length,
    fixedTotal: fixed.length,
    fixedOnTime: onTime,
    fixedOnTimeShare: fixed.length === 0 ? null : onTime / fixed.length,
    meanDaysToFix: mean(fixed.map(({ o }) => timeToFixDays(o)!)),
    byMonth: trend,
    open: openViews,
    recentFixes,
  };
}

/** A month's time-to-fix for one domain (the monthly report): fixes in [from, to) and what is overdue at `now`. */
export function monthTimeToFix(history: IssueHistory | undefined, from: string, to: string, now: Date) {
  if (!history) return null;
  const fixes = history.occurrences.filter((o) => o.fixedAt !== undefined && o.fixedAt >= from && o.fixedAt < to);
  return {
    fixed: fixes.length,
    fixedOnTime: fixes.filter((o) => fixedOnTime(o)).length,
    meanDaysToFix: mean(fixes.map((o) => timeToFixDays(o)!)),
    overdue: overdueIssues(history, now).map((o) => ({
      findingId: o.findingId,
      title: o.title,
      severity: o.severity,
      firstSeenAt: o.firstSeenAt,
      dueAt: dueAt(o),
      daysOverdue: daysOverdue(o, now),
    })),
  };
}

export type MonthTimeToFix = NonNullable<ReturnType<typeof monthTimeToFix>>;
