import type { EssentialEightView } from './essential-eight.contract.js';
import { PREFERENCE_LABELS } from './alert-messages.js';
import type { Audit, Finding, Grade } from './audit.js';
import { auditFindings, buildAuditView, isIssue, type IssueSeverity } from './audit-view.js';
import { escapeHtml } from './emails.js';
import { MONITORING_CADENCE, type MonitoredPlanId } from './monitoring.js';
import { diffScans } from './monitoring-diff.js';
import { monthLabel } from './monthly-report.contract.js';
import { getPlan } from './plans.js';
import type { AlertRecord, StoredSubscription } from './ports.js';
import { productSlug } from './product.js';
import { type IssueHistory, monthTimeToFix, type MonthTimeToFix } from './time-to-fix.js';

/**
 * The monthly report (DECISIONS "Plan features": "monthly reports" = a monthly PDF emailed to
 * subscribers): what it covers, built from stored scans and alerts. Pure: the use case reads the
 * data (lambdas/use-cases/monthly-reports.ts), lambdas/reports/monthly-report-pdf.ts draws it.
 *
 * Choices, in one place:
 * - Who: every subscription in status `active` on Monitor Lite or Monitor Plus, the demo account's
 *   seeded plan included (its address is a mailbox of SES local; it never exists on AWS), for an
 *   account that existed before the month ended (the demo account always: its seeded scans are
 *   older than its profile). Trials, cancelled and expired plans get none.
 * - When: the first scheduler run after a calendar month (UTC) ends builds the report of that month,
 *   once per user and month: claimed with a conditional write before anything is built or sent.
 * - Delivery: the PDF is always stored (the dashboard lists it for download); the email goes out
 *   only while the user's 'Email alerts' preference is on — the same switch the monitoring emails'
 *   unsubscribe link turns off, so that link stops the monthly email too.
 * - Content per monitored domain (the plan's monitored domains, as monitoring picks them), from the
 *   owner's own completed scans only: the score and grade at the start of the month (the last scan
 *   before it, else the month's first scan) and at its end (the month's last scan, else unchanged
 *   from the start); every scan of the month; issues found and resolved (consecutive scans compared
 *   as monitoring compares them; a domain first scanned in the month has its first scan's issues as
 *   found); the alerts sent for it in the month; open issues now by severity, the nearest
 *   certificate expiry and the badge status, at the time the report is built.
 * - Time-to-fix (issue 21, lambdas/domain/time-to-fix.ts), from the domain's issue history: the
 *   issues fixed in the month against their targets and their mean time to fix, and every issue
 *   overdue when the report is built, named (an accepted or muted one marked, as open issues are).
 */

export const MONTHLY_REPORTS = {
  /**
   * Reports built per run at most (the run's deadline may stop it sooner); the rest are built by the
   * next runs. 20 made 10,000 subscribers wait five days (issue 30 item 3); at 500, 20 runs.
   */
  maxPerRun: 500,
  /** A claim whose report was not finished within this long (its run died) may be claimed again. */
  claimStaleAfterMs: 3_600_000,
  /** Scans of one domain read for one month: Monitor Plus rescans daily, quick scans come on top. */
  maxScansPerDomain: 200,
  /** How long a report stays listed: the reports bucket keeps the PDFs 365 days. */
  retentionDays: 365,
  /** Open issues listed by title per domain (all are counted). */
  openIssuesListed: 10,
} as const;

export interface MonthlyReportPlan {
  planId: MonitoredPlanId;
  planName: string;
  /** The domains the plan monitors (monitoring's own cap). */
  maxDomains: number;
}

/** The plan a monthly report is sent for; undefined when the subscription pays for none. */
export function monthlyReportPlanOf(subscription: StoredSubscription | undefined): MonthlyReportPlan | undefined {
  if (!subscription || subscription.status !== 'active') return undefined;
  const plan = getPlan(subscription.planId);
  return { planId: subscription.planId, planName: plan.name, maxDomains: MONITORING_CADENCE[subscription.planId].maxDomains };
}

/**
 * Whether an account is owed the month's report: it existed before the month ended. The demo
 * account is, whenever it was created: its seeded scans are dated weeks before its profile.
 */
export function owesMonthlyReport(profile: { createdAt: string; isDemo?: boolean }, month: string): boolean {
  return profile.isDemo === true || profile.createdAt < monthBounds(month).end.toISOString();
}

const twoDigits = (n: number) => String(n).padStart(2, '0');

/** The calendar month (UTC) before the one `now` is in: `yyyy-mm`. */
export function previousMonth(now: Date): string {
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  return `${first.getUTCFullYear()}-${twoDigits(first.getUTCMonth() + 1)}`;
}

/** The month's first instant and the next month's first instant (UTC): [start, end). */
export function monthBounds(month: string): { start: Date; end: Date } {
  const [year, number] = month.split('-').map(Number) as [number, number];
  return { start: new Date(Date.UTC(year, number - 1, 1)), end: new Date(Date.UTC(year, number, 1)) };
}

export const monthlyReportFileName = (productName: string, month: string) => `${productSlug(productName)}-monthly-report-${month}.pdf`;

// ---- Which reports exist (the port) ----

/** A month's report of one user: claimed by a scheduler run, then ready (stored, maybe emailed). */
export interface MonthlyReportRecord {
  userId: string;
  /** `yyyy-mm`. */
  month: string;
  claimedAt: string;
}

export interface ReadyMonthlyReport extends MonthlyReportRecord {
  generatedAt: string;
  emailed: boolean;
  /** Where the PDF is in the reports bucket. */
  pdfKey: string;
  sizeBytes: number;
  domains: string[];
}

export interface MonthlyReportLog {
  /** The ready report of the month, if there is one (a claim still being built is not). */
  getReady(userId: string, month: string): Promise<ReadyMonthlyReport | undefined>;
  /**
   * Claims the user's report of the month: true when nothing was claimed for it, or only a claim made
   * before `staleBefore` that never became ready (its run died). Two runs never both get true.
   */
  claim(userId: string, month: string, claimedAt: string, staleBefore: string): Promise<boolean>;
  /** Gives a claim back (its report could not be built or sent), so a later run tries again. */
  release(userId: string, month: string, claimedAt: string): Promise<void>;
  /** Marks the claimed report ready. */
  complete(report: ReadyMonthlyReport): Promise<void>;
  /** The user's ready reports, newest month first. */
  listReady(userId: string): Promise<ReadyMonthlyReport[]>;
}

// ---- The report's data ----

export interface ScorePoint {
  auditId: string;
  /** When the scan completed. */
  at: string;
  score: number | null;
  grade: Grade | null;
}

export interface IssueEvent {
  findingId: string;
  title: string;
  severity: IssueSeverity;
  /** When the scan that saw the change completed. */
  at: string;
}

export interface CertificateExpiry {
  validTo: string;
  /** Whole days from the report's building to the expiry; negative once expired. */
  daysLeft: number;
  expired: boolean;
  subject: string | null;
  ports: number[];
}

export interface DomainMonthReport {
  domain: string;
  start: ScorePoint | null;
  end: ScorePoint | null;
  /** The month's scans, oldest first. */
  scans: ScorePoint[];
  issuesFound: IssueEvent[];
  issuesResolved: IssueEvent[];
  /** The alerts sent for the domain in the month, oldest first (one per channel). */
  alerts: { sentAt: string; channel: AlertRecord['channel']; summary: string }[];
  openIssues: {
    /** The scan they are read from; null when the domain has no completed scan. */
    asOf: string | null;
    counts: Record<IssueSeverity, number>;
    total: number;
    /** The worst few, by title; `policy` when the owner accepted or muted it (custom security policies). */
    listed: { title: string; severity: IssueSeverity; policy?: ListedPolicy }[];
  };
  certificate: CertificateExpiry | null;
  badge: { eligible: boolean; reasons: string[] } | null;
  /** null: no issue history yet (it starts with the domain's first monitoring rescan). Absent in reports built before it. */
  timeToFix?: DomainMonthTimeToFix | null;
  /** Issue 21: the Essential Eight readiness view as of the latest scan and the agents' reports. Absent in reports built before it. */
  essentialEight?: EssentialEightView;
}

export type DomainMonthTimeToFix = Omit<MonthTimeToFix, 'overdue'> & { overdue: (MonthTimeToFix['overdue'][number] & { policy?: ListedPolicy })[] };

export interface DomainMonthInput {
  domain: string;
  month: string;
  /** The owner's last completed scan of the domain before the month began. */
  baseline?: Audit;
  /** The owner's completed scans that completed within the month, in any order. */
  scans: readonly Audit[];
  /** The owner's latest completed scan of the domain at the time of building (the month's last or a newer one). */
  latest?: Audit;
  /** The owner's alerts; those of this domain sent within the month are kept. */
  alerts: readonly Pick<AlertRecord, 'domain' | 'sentAt' | 'channel' | 'summary'>[];
  badge?: { eligible: boolean; reasons: readonly string[] };
  /** The owner's policies in force for this domain at `now` (none without the plan). */
  policies?: readonly (ListedPolicy & { findingId: string })[];
  /** The domain's time-to-fix issue history, if monitoring has started one. */
  issueHistory?: IssueHistory;
  /** The domain's Essential Eight readiness view (lambdas/use-cases/essential-eight.ts), carried as it is. */
  essentialEight?: EssentialEightView;
  now: Date;
}

/** How a report marks an issue its owner accepted or muted: the score still counts it. */
export interface ListedPolicy {
  action: 'accept' | 'mute';
  reason: string;
  expiresAt?: string | null;
}

const DAY_MS = 86_400_000;
const SEVERITY_RANK: Record<IssueSeverity, number> = { critical: 0, high: 1, medium: 2, low: 3 };

const completed = (audit: Audit | undefined): audit is Audit & { completedAt: string } => audit?.status === 'completed' && typeof audit.completedAt === 'string';

const point = (audit: Audit & { completedAt: string }): ScorePoint => ({ auditId: audit.id, at: audit.completedAt, score: audit.score ?? null, grade: audit.grade ?? null });

const byTime = (a: { completedAt: string }, b: { completedAt: string }) => a.completedAt.localeCompare(b.completedAt);

const issueEvent = (finding: Pick<Finding, 'id' | 'title' | 'severity'>, at: string): IssueEvent => ({
  findingId: finding.id,
  title: finding.title,
  severity: finding.severity as IssueSeverity,
  at,
});

const worstFirst = (a: IssueEvent, b: IssueEvent) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] || a.at.localeCompare(b.at) || a.title.localeCompare(b.title);

/** Issues found and resolved over the month: each pair of consecutive scans compared (monitoring's diff). */
function issueChanges(baseline: (Audit & { completedAt: string }) | undefined, scans: readonly (Audit & { completedAt: string })[]) {
  const found = new Map<string, IssueEvent>();
  const resolved = new Map<string, IssueEvent>();
  const first = scans[0];
  if (!baseline && first) for (const finding of auditFindings(first).filter(isIssue)) found.set(finding.id, issueEvent(finding, first.completedAt));
  const chain = baseline ? [baseline, ...scans] : [...scans];
  for (let i = 1; i < chain.length; i += 1) {
    const current = chain[i]!;
    for (const change of diffScans({ previous: chain[i - 1]!, current })) {
      if (change.type === 'finding_new' && !found.has(change.findingId)) found.set(change.findingId, issueEvent({ id: change.findingId, ...change }, current.completedAt));
      // The last resolution counts: a finding fixed, back and fixed again was resolved when it last went.
      if (change.type === 'finding_resolved') resolved.set(change.findingId, issueEvent({ id: change.findingId, ...change }, current.completedAt));
    }
  }
  return { issuesFound: [...found.values()].sort(worstFirst), issuesResolved: [...resolved.values()].sort(worstFirst) };
}

/** The certificate that expires first among those the scan read, with days left counted from `now`. */
function nearestCertificate(latest: Audit | undefined, now: Date): CertificateExpiry | null {
  if (!latest) return null;
  const byExpiry = new Map<string, CertificateExpiry>();
  for (const port of buildAuditView(latest).tls.ports) {
    const validTo = port.certificate?.validTo;
    if (!validTo || Number.isNaN(Date.parse(validTo))) continue;
    const known = byExpiry.get(validTo);
    if (known) {
      known.ports.push(port.port);
      continue;
    }
    const daysLeft = Math.floor((Date.parse(validTo) - now.getTime()) / DAY_MS);
    byExpiry.set(validTo, { validTo, daysLeft, expired: Date.parse(validTo) <= now.getTime(), subject: port.certificate?.subject ?? null, ports: [port.port] });
  }
  return [...byExpiry.values()].sort((a, b) => a.validTo.localeCompare(b.validTo))[0] ?? null;
}

const policyMark = (policy: ListedPolicy & { findingId: string }): ListedPolicy => ({ action: policy.action, reason: policy.reason, ...(policy.expiresAt ? { expiresAt: policy.expiresAt } : {}) });

function timeToFixOfMonth(input: DomainMonthInput, from: string, to: string): DomainMonthTimeToFix | null {
  const month = monthTimeToFix(input.issueHistory, from, to, input.now);
  if (!month) return null;
  const policies = input.policies ?? [];
  return {
    ...month,
    overdue: month.overdue.map((issue) => {
      const policy = policies.find((p) => p.findingId === issue.findingId);
      return { ...issue, ...(policy ? { policy: policyMark(policy) } : {}) };
    }),
  };
}

function openIssues(latest: Audit | undefined, policies: DomainMonthInput['policies'] = []): DomainMonthReport['openIssues'] {
  const counts: Record<IssueSeverity, number> = { critical: 0, high: 0, medium: 0, low: 0 };
  if (!completed(latest)) return { asOf: null, counts, total: 0, listed: [] };
  const issues = auditFindings(latest).filter(isIssue);
  for (const issue of issues) counts[issue.severity as IssueSeverity] += 1;
  return {
    asOf: latest.completedAt,
    counts,
    total: issues.length,
    listed: issues.slice(0, MONTHLY_REPORTS.openIssuesListed).map((issue) => {
      const policy = policies.find((p) => p.findingId === issue.id);
      return {
        title: issue.title,
        severity: issue.severity as IssueSeverity,
        ...(policy ? { policy: { action: policy.action, reason: policy.reason, ...(policy.expiresAt ? { expiresAt: policy.expiresAt } : {}) } } : {}),
      };
    }),
  };
}

/** One domain's part of the month's report. */
export function buildDomainMonthReport(input: DomainMonthInput): DomainMonthReport {
  const { start: monthStart, end: monthEnd } = monthBounds(input.month);
  const [from, to] = [monthStart.toISOString(), monthEnd.toISOString()];
  const baseline = completed(input.baseline) && input.baseline.completedAt < from ? input.baseline : undefined;
  const scans = input.scans.filter(completed).filter((scan) => scan.completedAt >= from && scan.completedAt < to).sort(byTime);
  const first = baseline ?? scans[0];
  const last = scans.at(-1) ?? baseline;
  const latest = completed(input.latest) ? input.latest : last;
  return {
    domain: input.domain,
    start: first ? point(first) : null,
    end: last ? point(last) : null,
    scans: scans.map(point),
    ...issueChanges(baseline, scans),
    alerts: input.alerts
      .filter((alert) => alert.domain === input.domain && alert.sentAt >= from && alert.sentAt < to)
      .sort((a, b) => a.sentAt.localeCompare(b.sentAt))
      .map(({ sentAt, channel, summary }) => ({ sentAt, channel, summary })),
    openIssues: openIssues(latest, input.policies),
    certificate: nearestCertificate(latest, input.now),
    badge: input.badge ? { eligible: input.badge.eligible, reasons: [...input.badge.reasons] } : null,
    timeToFix: timeToFixOfMonth(input, from, to),
    ...(input.essentialEight ? { essentialEight: input.essentialEight } : {}),
  };
}

export interface MonthlyReport {
  month: string;
  /** 'October 2026'. */
  label: string;
  generatedAt: string;
  recipient: { name: string; email: string; company: string };
  planName: string;
  domains: DomainMonthReport[];
}

export function buildMonthlyReport(input: Omit<MonthlyReport, 'label'>): MonthlyReport {
  return { ...input, label: monthLabel(input.month) };
}

// ---- The email ----

const scoreText = (p: ScorePoint | null) => (p && p.score !== null ? `${p.score} (${p.grade ?? '-'})` : 'no score');
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** 'shop.example.com: score 70 (C) -> 85 (B); 4 scans, 2 issues found, 3 resolved, 1 alert; open issues now: 0 critical, 1 high, 2 medium, 0 low.' */
export function domainSummaryLine(d: DomainMonthReport): string {
  const scores = d.start && d.end && d.start.auditId !== d.end.auditId ? `score ${scoreText(d.start)} -> ${scoreText(d.end)}` : `score ${scoreText(d.end)}`;
  const activity = `${plural(d.scans.length, 'scan')}, ${plural(d.issuesFound.length, 'issue')} found, ${d.issuesResolved.length} resolved, ${plural(d.alerts.length, 'alert')}`;
  const c = d.openIssues.counts;
  const open = d.openIssues.asOf ? `open issues now: ${c.critical} critical, ${c.high} high, ${c.medium} medium, ${c.low} low` : 'not scanned yet';
  const overdue = d.timeToFix?.overdue.length ? `; ${plural(d.timeToFix.overdue.length, 'issue')} past the time-to-fix target` : '';
  return `${d.domain}: ${scores}; ${activity}; ${open}${overdue}.`;
}

export interface MonthlyReportEmailInput {
  /** Our product: the subject and the sender's words are always ours. */
  productName: string;
  /** An IT provider's client: the provider's name, shown quoted in the body only (issue 28: our mail carries no customer's words in its subject). */
  preparedBy?: string;
  /** The dashboard page that lists the reports. */
  reportsUrl: string;
  unsubscribeUrl: string;
  firstName?: string;
  fileName: string;
  report: MonthlyReport;
}

/** The email the PDF goes out with: the month, one line per domain, where the reports are, why it came and how to stop it. */
export function monthlyReportEmail(input: MonthlyReportEmailInput): { subject: string; text: string; html: string } {
  const { report, productName } = input;
  const subject = `${productName} monthly security report: ${report.label}`;
  const greeting = input.firstName ? `Hi ${input.firstName},` : 'Hi,';
  const intro = input.preparedBy
    ? `Your security report for ${report.label}, prepared by your IT provider "${input.preparedBy}", is attached (${input.fileName}).`
    : `Your ${productName} security report for ${report.label} is attached (${input.fileName}).`;
  const lines = report.domains.length > 0
    ? report.domains.map(domainSummaryLine)
    : [`No verified domain was monitored in ${report.label}. Verify a domain in Settings -> Domains to have it monitored and in next month's report.`];
  const where = 'Your monthly reports are also in your dashboard';
  const why = `You get this email because '${PREFERENCE_LABELS.emailAlerts}' is on in your ${productName} notification settings.`;
  const text = [greeting, '', intro, '', ...lines, '', `${where}: ${input.reportsUrl}`, '', `${why} Change your notification settings or unsubscribe: ${input.unsubscribeUrl}`, '', `— ${productName}`].join('\n');
  const small = 'color:#6b7280;font-size:12px';
  const html = [
    '<!doctype html><html lang="en"><body style="font-family:Arial,Helvetica,sans-serif;color:#1f2937;line-height:1.5">',
    `<p>${escapeHtml(greeting)}</p>`,
    `<p>${escapeHtml(intro)}</p>`,
    `<ul>${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>`,
    `<p><a href="${escapeHtml(input.reportsUrl)}">${escapeHtml(where)}</a>.</p>`,
    `<p style="${small}">${escapeHtml(why)} <a href="${escapeHtml(input.unsubscribeUrl)}">Unsubscribe or change your notification settings</a>.</p>`,
    `<p style="${small}">${escapeHtml(productName)}</p>`,
    '</body></html>',
  ].join('\n');
  return { subject, text, html };
}
