import type { NotificationPreferences } from './account.contract.js';
import type { Grade } from './audit.js';
import type { IssueSeverity } from './audit-view.js';
import { escapeHtml, type IssueCounts } from './emails.js';
import { DomainError } from './errors.js';
import type {
  CertificateExpiringChange,
  FindingNewChange,
  FindingResolvedChange,
  GradeChangedChange,
  IssueOverdueChange,
  KevMatchChange,
  MonitoringChange,
  PortOpenedChange,
} from './monitoring-diff.js';

/**
 * The messages monitoring sends (issue 8 "Alerts"): an alert email and SMS for a set of changes, and
 * the 'scan completed' email. Pure: the caller adds the recipient and sends.
 *
 * Choices, in one place:
 * - Preferences: new/resolved findings, grade, certificate and port changes follow `emailAlerts`;
 *   newly known-exploited CVEs follow `securityUpdates`; the scan-completed email follows
 *   `scanCompletions`; nothing here is marketing. SMS carries the same changes as email, to a
 *   validated mobile number only (DECISIONS "Mobile numbers").
 * - One summary line, most urgent first (new issues, exploited CVEs, certificate, ports, overdue
 *   issues, grade, resolved), is the SMS and the email's subject; parts that do not fit are dropped
 *   from the end and replaced by 'and more'. The email's sections follow the issue's order: new
 *   issues worst first, resolved, grade, certificate, ports, exploited CVEs, then the issues past
 *   their time-to-fix target (issue 21, lambdas/domain/time-to-fix.ts), each named with its due date.
 * - SMS: at most 160 characters where possible, and only characters of the GSM 7-bit alphabet in
 *   what Rampart writes ('->' and '-', not '→' and '—'): one character outside it turns the whole
 *   message into UCS-2, where a segment holds 70. The report link is never cut.
 * - Email: plain text plus simple HTML with inline styles, every dynamic text escaped, no images,
 *   the report link and an unsubscribe link in both. Dates en-AU ('22 Nov 2026'), UTC unless told.
 */

export type AlertPreference = Extract<keyof NotificationPreferences, 'emailAlerts' | 'securityUpdates'>;

/** The Settings → Notifications labels, named in each email's footer. */
export const PREFERENCE_LABELS: Record<AlertPreference | 'scanCompletions', string> = {
  emailAlerts: 'Email alerts',
  securityUpdates: 'Security updates',
  scanCompletions: 'Scan completions',
};

export function alertPreferenceFor(change: MonitoringChange): AlertPreference {
  return change.type === 'kev_match' ? 'securityUpdates' : 'emailAlerts';
}

/** The changes the user asked to hear about. */
export function alertableChanges(changes: readonly MonitoringChange[], preferences: Pick<NotificationPreferences, AlertPreference>): MonitoringChange[] {
  return changes.filter((change) => preferences[alertPreferenceFor(change)]);
}

export interface AlertMessage {
  subject: string;
  html: string;
  text: string;
}

export interface AlertInput {
  productName: string;
  domain: string;
  changes: readonly MonitoringChange[];
  reportUrl: string;
  /** IANA time zone for dates (default UTC). */
  timeZone?: string;
}

// ---- Grouping and the summary line ----

interface Groups {
  newIssues: FindingNewChange[];
  resolved: FindingResolvedChange[];
  grade: GradeChangedChange | undefined;
  certificates: CertificateExpiringChange[];
  ports: PortOpenedChange[];
  kev: KevMatchChange[];
  overdue: IssueOverdueChange[];
}

const SEVERITY_RANK: Record<IssueSeverity, number> = { critical: 0, high: 1, medium: 2, low: 3 };
const SEVERITY_LABEL: Record<IssueSeverity, string> = { critical: 'Critical', high: 'High', medium: 'Medium', low: 'Low' };
const bySeverity = <T extends { severity: IssueSeverity; title: string }>(a: T, b: T) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] || a.title.localeCompare(b.title);

function groups(changes: readonly MonitoringChange[]): Groups {
  const of = <T extends MonitoringChange['type']>(type: T) => changes.filter((c): c is Extract<MonitoringChange, { type: T }> => c.type === type);
  return {
    newIssues: of('finding_new').sort(bySeverity),
    resolved: of('finding_resolved').sort(bySeverity),
    grade: of('grade_changed').at(-1),
    certificates: of('certificate_expiring').sort((a, b) => a.daysLeft - b.daysLeft),
    ports: of('port_opened').sort((a, b) => a.port - b.port),
    kev: of('kev_match'),
    overdue: of('issue_overdue').sort(bySeverity),
  };
}

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

function daysText(change: CertificateExpiringChange): string {
  if (change.expired) return 'certificate expired';
  return `certificate expires in ${plural(change.daysLeft, 'day')}`;
}

/** The summary's parts, most urgent first. `arrow` is '→' in email, '->' in SMS. */
export function changeSummaryParts(changes: readonly MonitoringChange[], arrow = '→'): string[] {
  const g = groups(changes);
  const parts: string[] = [];
  if (g.newIssues.length > 0) {
    const worst = (['critical', 'high'] as const)
      .map((severity) => [severity, g.newIssues.filter((c) => c.severity === severity).length] as const)
      .filter(([, count]) => count > 0)
      .map(([severity, count]) => `${count} ${severity}`);
    parts.push(`${plural(g.newIssues.length, 'new issue')}${worst.length ? ` (${worst.join(', ')})` : ''}`);
  }
  if (g.kev.length === 1) parts.push(`${g.kev[0]!.cveId} exploited in the wild`);
  else if (g.kev.length > 1) parts.push(`${g.kev.length} newly exploited vulnerabilities`);
  if (g.certificates.length > 0) parts.push(daysText(g.certificates[0]!));
  if (g.ports.length === 1) parts.push(`port ${g.ports[0]!.port} opened`);
  else if (g.ports.length > 1) parts.push(`${g.ports.length} new open ports`);
  if (g.overdue.length > 0) parts.push(`${plural(g.overdue.length, 'issue')} overdue`);
  if (g.grade) parts.push(`grade ${g.grade.from}${arrow}${g.grade.to}`);
  if (g.resolved.length > 0) parts.push(`${plural(g.resolved.length, 'issue')} resolved`);
  return parts;
}

/** The longest text `build` makes from the first parts that fits `fits`, 'and more' standing for the rest. */
function fitParts(parts: readonly string[], build: (summary: string) => string, fits: (text: string) => boolean): string {
  for (let keep = parts.length; keep >= 1; keep--) {
    const summary = keep === parts.length ? parts.join(', ') : `${parts.slice(0, keep).join(', ')} and more`;
    const text = build(summary);
    if (fits(text) || keep === 1) return text;
  }
  return build('');
}

function requireChanges(changes: readonly MonitoringChange[]): void {
  if (changes.length === 0) throw new DomainError('alert_without_changes', 'An alert needs at least one change.');
}

// ---- SMS ----

export const SMS_MAX_LENGTH = 160;
const UCS2_MAX_LENGTH = 70;

const GSM7_BASIC = new Set(
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà',
);
const GSM7_EXTENDED = new Set('^{}\\[~]|€\f');

/** Whether the text fits the GSM 7-bit alphabet (else the whole SMS is sent as UCS-2). */
export function isGsm7(text: string): boolean {
  return [...text].every((c) => GSM7_BASIC.has(c) || GSM7_EXTENDED.has(c));
}

/** Length as the network counts it, and the single-segment limit that applies. */
export function smsLength(text: string): { length: number; limit: number } {
  if (!isGsm7(text)) return { length: text.length, limit: UCS2_MAX_LENGTH };
  return { length: [...text].reduce((sum, c) => sum + (GSM7_EXTENDED.has(c) ? 2 : 1), 0), limit: SMS_MAX_LENGTH };
}

/** 'Rampart: shop.example.com - 2 new issues (1 critical), grade B->C. https://…' */
export function alertSms(input: Omit<AlertInput, 'timeZone'>): string {
  requireChanges(input.changes);
  const build = (summary: string) => `${input.productName}: ${input.domain} - ${summary}. ${input.reportUrl}`;
  return fitParts(changeSummaryParts(input.changes, '->'), build, (text) => {
    const { length, limit } = smsLength(text);
    return length <= limit;
  });
}

// ---- Email ----

const SUBJECT_MAX_LENGTH = 120;

function formatDate(iso: string, timeZone = 'UTC'): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : new Intl.DateTimeFormat('en-AU', { day: 'numeric', month: 'short', year: 'numeric', timeZone }).format(date);
}

interface Section {
  title: string;
  /** Each item as plain text; `html` when it needs markup (the severity label). */
  items: { text: string; html?: string }[];
}

function portsText(ports: readonly number[]): string {
  return ports.length === 1 ? `port ${ports[0]}` : `ports ${ports.slice(0, -1).join(', ')} and ${ports.at(-1)}`;
}

const SEVERITY_COLOUR: Record<IssueSeverity, string> = { critical: '#b91c1c', high: '#c2410c', medium: '#a16207', low: '#4b5563' };

function sections(g: Groups, timeZone: string | undefined): Section[] {
  const list: Section[] = [];
  if (g.newIssues.length > 0) {
    list.push({
      title: `New issues (${g.newIssues.length})`,
      items: g.newIssues.map((c) => ({
        text: `[${SEVERITY_LABEL[c.severity]}] ${c.title} (${c.category})`,
        html: `<strong style="color:${SEVERITY_COLOUR[c.severity]}">${SEVERITY_LABEL[c.severity]}</strong> ${escapeHtml(c.title)} <span style="color:#6b7280">(${escapeHtml(c.category)})</span>`,
      })),
    });
  }
  if (g.resolved.length > 0) {
    list.push({ title: `Resolved (${g.resolved.length})`, items: g.resolved.map((c) => ({ text: `${c.title} (was ${c.severity})` })) });
  }
  if (g.grade) {
    const { from, to, fromScore, toScore, direction } = g.grade;
    const scores = fromScore !== null && toScore !== null ? ` (score ${fromScore} → ${toScore})` : '';
    list.push({ title: 'Grade', items: [{ text: `The grade went ${direction} from ${from} to ${to}${scores}.` }] });
  }
  if (g.certificates.length > 0) {
    list.push({
      title: 'Certificate',
      items: g.certificates.map((c) => {
        const which = `The TLS certificate${c.subject ? ` for ${c.subject}` : ''} on ${portsText(c.ports)}`;
        const on = formatDate(c.notAfter, timeZone);
        return {
          text: c.expired
            ? `${which} expired on ${on}. Visitors see a security warning until it is replaced.`
            : `${which} expires in ${plural(c.daysLeft, 'day')}, on ${on}. Renew it before then.`,
        };
      }),
    });
  }
  if (g.ports.length > 0) {
    list.push({
      title: `New open ports (${g.ports.length})`,
      items: g.ports.map((c) => {
        const software = [c.product, c.version].filter(Boolean).join(' ');
        const risk = c.risk === 'info' ? '' : `, ${c.risk} risk`;
        return { text: `Port ${c.port} (${c.service}${software ? `: ${software}` : ''}${risk}) is now open to the internet. Close it if it does not need to be public.` };
      }),
    });
  }
  if (g.kev.length > 0) {
    list.push({
      title: `Exploited vulnerabilities (${g.kev.length})`,
      items: g.kev.map((c) => {
        const added = c.kevDateAdded ? `, listed ${formatDate(c.kevDateAdded, timeZone)}` : '';
        const ransomware = c.ransomware ? ' It is used in ransomware campaigns.' : '';
        const backport = c.distribution
          ? ` ${c.productName} comes from ${c.distribution} packages, which may already carry the fix: check the distribution's security tracker.`
          : '';
        return {
          text: `${c.cveId} in ${c.productName} ${c.version} is now known to be exploited in the wild (CISA KEV${added}).${ransomware} Update ${c.productName} now.${backport}`,
        };
      }),
    });
  }
  if (g.overdue.length > 0) {
    list.push({
      title: `Overdue issues (${g.overdue.length})`,
      items: g.overdue.map((c) => {
        const when = `open since ${formatDate(c.firstSeenAt, timeZone)}, due ${formatDate(c.dueAt, timeZone)} (${c.targetDays}-day target for ${c.severity} issues)`;
        const late = c.daysOverdue === 0 ? 'now overdue' : `${plural(c.daysOverdue, 'day')} overdue`;
        return {
          text: `[${SEVERITY_LABEL[c.severity]}] ${c.title} (${c.category}): ${when}, ${late}.`,
          html: `<strong style="color:${SEVERITY_COLOUR[c.severity]}">${SEVERITY_LABEL[c.severity]}</strong> ${escapeHtml(c.title)} <span style="color:#6b7280">(${escapeHtml(c.category)})</span>: ${escapeHtml(when)}, ${escapeHtml(late)}.`,
        };
      }),
    });
  }
  return list;
}

const HTML_OPEN = '<!doctype html><html lang="en"><body style="font-family:Arial,Helvetica,sans-serif;color:#1f2937;line-height:1.5">';
const HTML_SMALL = 'color:#6b7280;font-size:12px';

export interface AlertEmailInput extends AlertInput {
  unsubscribeUrl: string;
  /** Teams: the alert goes to a member of the organisation that monitors the domain, not its owner. */
  member?: { orgName: string; role: string };
}

export function alertEmail(input: AlertEmailInput): AlertMessage {
  requireChanges(input.changes);
  const g = groups(input.changes);
  const parts = changeSummaryParts(input.changes);
  const summaryLine = `Changes on ${input.domain} since the last scan: ${parts.join(', ')}.`;
  const subject = fitParts(parts, (summary) => `${input.productName} alert for ${input.domain}: ${summary}`, (text) => text.length <= SUBJECT_MAX_LENGTH);
  const body = sections(g, input.timeZone);
  const labels = (['emailAlerts', 'securityUpdates'] as const).filter((p) => input.changes.some((c) => alertPreferenceFor(c) === p)).map((p) => `'${PREFERENCE_LABELS[p]}'`);
  const membership = input.member ? `You are ${/^[aeiou]/i.test(input.member.role) ? 'an' : 'a'} ${input.member.role} of ${input.member.orgName}, which monitors ${input.domain}. ` : '';
  const because = `${membership}You get this email because ${labels.join(' and ')} ${labels.length === 1 ? 'is' : 'are'} on in your ${input.productName} notification settings.`;

  const text = [
    summaryLine,
    '',
    ...body.flatMap((section) => [section.title, ...section.items.map((item) => `- ${item.text}`), '']),
    `View the report: ${input.reportUrl}`,
    '',
    `${because} Change them or unsubscribe: ${input.unsubscribeUrl}`,
    '',
    `— ${input.productName}`,
  ].join('\n');

  const link = (url: string, label: string) => `<a href="${escapeHtml(url)}">${escapeHtml(label)}</a>`;
  const html = [
    HTML_OPEN,
    `<p><strong>${escapeHtml(summaryLine)}</strong></p>`,
    ...body.map(
      (section) =>
        `<h2 style="font-size:16px;margin:16px 0 4px">${escapeHtml(section.title)}</h2><ul>${section.items.map((item) => `<li>${item.html ?? escapeHtml(item.text)}</li>`).join('')}</ul>`,
    ),
    `<p>${link(input.reportUrl, 'View the report')}</p>`,
    `<p style="${HTML_SMALL}">${escapeHtml(because)} ${link(input.unsubscribeUrl, 'Unsubscribe or change your notification settings')}.</p>`,
    `<p style="${HTML_SMALL}">${escapeHtml(input.productName)}</p>`,
    '</body></html>',
  ].join('\n');
  return { subject, html, text };
}

// ---- Scan completed ----

export interface ScanCompletedInput {
  productName: string;
  domain: string;
  completedAt: string;
  grade: Grade | null;
  score: number | null;
  issues: IssueCounts;
  /** How many changes the comparison with the previous scan found (alerts carry them). */
  changeCount: number;
  reportUrl: string;
  unsubscribeUrl: string;
  timeZone?: string;
}

/** The 'scan completed' email of a scheduled rescan (preference `scanCompletions`). */
export function scanCompletedEmail(input: ScanCompletedInput): AlertMessage {
  const { critical, high, medium, low } = input.issues;
  const total = critical + high + medium + low;
  const result = input.grade !== null && input.score !== null ? `grade ${input.grade} (${input.score}/100)` : 'no grade';
  const subject = `${input.productName}: scan of ${input.domain} completed — ${result}`;
  const lines = [
    `The scheduled scan of ${input.domain} completed on ${formatDate(input.completedAt, input.timeZone)}.`,
    input.grade !== null && input.score !== null ? `Grade ${input.grade}, score ${input.score}/100.` : 'The scan produced no grade.',
    `Issues: ${total} (${critical} critical, ${high} high, ${medium} medium, ${low} low).`,
    input.changeCount === 0 ? 'Nothing changed since the previous scan.' : `${plural(input.changeCount, 'change')} since the previous scan.`,
  ];
  const why = `You get this email because '${PREFERENCE_LABELS.scanCompletions}' is on in your ${input.productName} notification settings.`;
  const text = [...lines, '', `View the report: ${input.reportUrl}`, '', `${why} Change your notification settings or unsubscribe: ${input.unsubscribeUrl}`, '', `— ${input.productName}`].join('\n');
  const html = [
    HTML_OPEN,
    ...lines.map((line) => `<p>${escapeHtml(line)}</p>`),
    `<p><a href="${escapeHtml(input.reportUrl)}">View the report</a></p>`,
    `<p style="${HTML_SMALL}">${escapeHtml(why)} <a href="${escapeHtml(input.unsubscribeUrl)}">Unsubscribe or change your notification settings</a>.</p>`,
    `<p style="${HTML_SMALL}">${escapeHtml(input.productName)}</p>`,
    '</body></html>',
  ].join('\n');
  return { subject, html, text };
}
