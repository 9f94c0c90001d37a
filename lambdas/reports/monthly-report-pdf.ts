import { type PDFImage, PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import type { DomainMonthReport, DomainMonthTimeToFix, IssueEvent, ListedPolicy, MonthlyReport, ScorePoint } from '../domain/monthly-report.js';
import { monthBounds } from '../domain/monthly-report.js';
import { GRADE_CAP_LIMITS } from '../domain/grade-caps.js';
import { TIME_TO_FIX_TARGET_DAYS } from '../domain/time-to-fix.js';
import { drawEssentialEightSection } from './essential-eight-pdf.js';
import { A4, CONTENT_WIDTH, coverBand, type Fonts, GRADE_COLOURS, MARGIN, muted, rule, SEVERITY_COLOURS, SEVERITY_TITLES, type ReportBranding, Writer } from './pdf-report.js';

/**
 * The monthly report PDF (DECISIONS "Plan features"): a pure function from the month's report data
 * (lambdas/domain/monthly-report.ts) to an A4 document — a cover with the month, the account and a
 * summary row per domain, then one section per monitored domain: score and grade at the start and
 * end of the month, every scan of the month, issues found and resolved, alerts sent, open issues now
 * by severity, time to fix (the month's fixes against their targets, the overdue issues by name),
 * the nearest certificate expiry and the badge status. Drawn with the audit report's
 * page flow and palette (lambdas/reports/pdf-report.ts).
 */

export interface MonthlyReportPdfOptions {
  productName: string;
  /** Where the reports are listed in the dashboard, printed on the cover. */
  reportsUrl?: string;
  /** A client's IT provider's colour and logo (issue 22 item 3); `productName` is then the provider's name. */
  branding?: ReportBranding;
}

const date = (iso: string) => iso.slice(0, 10);
const dateTime = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
const scoreText = (p: ScorePoint | null) => (p ? `${p.score ?? '-'} / 100, grade ${p.grade ?? '-'}` : 'no completed scan');
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export async function renderMonthlyReportPdf(report: MonthlyReport, options: MonthlyReportPdfOptions): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const fonts: Fonts = {
    regular: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
    mono: await doc.embedFont(StandardFonts.Courier),
  };
  doc.setTitle(`${options.productName} monthly security report: ${report.label}`);
  doc.setAuthor(options.productName);
  doc.setSubject(`Monitored domains of ${report.recipient.email}, ${report.label}`);
  doc.setCreator(options.productName);
  doc.setProducer(options.productName);
  // The report's date, not the rendering's: the same data gives the same document.
  doc.setCreationDate(new Date(report.generatedAt));
  doc.setModificationDate(new Date(report.generatedAt));

  const w = new Writer(doc, fonts);
  const logo = options.branding?.logoPng ? await doc.embedPng(options.branding.logoPng) : undefined;
  cover(w, report, options, logo);
  for (const domain of report.domains) domainSection(w, domain);
  footers(w, `${options.productName} monthly security report: ${report.label}`);
  return doc.save({ useObjectStreams: false });
}

function cover(w: Writer, report: MonthlyReport, options: MonthlyReportPdfOptions, logo?: PDFImage): void {
  w.newPage();
  const { page, fonts } = w;
  coverBand(page, options.branding, logo);
  page.drawText(w.clean(options.productName, fonts.bold), { x: MARGIN.left, y: A4.height - 60, size: 16, font: fonts.bold, color: rgb(1, 1, 1) });
  page.drawText('Monthly Security Report', { x: MARGIN.left, y: A4.height - 100, size: 28, font: fonts.bold, color: rgb(1, 1, 1) });
  page.drawText(w.clean(report.label, fonts.regular), { x: MARGIN.left, y: A4.height - 128, size: 14, font: fonts.regular, color: rgb(1, 1, 1) });
  w.y = A4.height - 185;

  const { start, end } = monthBounds(report.month);
  const lastDay = new Date(end.getTime() - 1);
  const name = [report.recipient.name, report.recipient.company].filter(Boolean).join(', ');
  w.keyValues([
    ['Prepared for', name || report.recipient.email],
    ...(options.branding ? ([['Prepared by', options.productName]] as [string, string][]) : []),
    ['Email', report.recipient.email],
    ['Plan', report.planName],
    ['Period', `${date(start.toISOString())} to ${date(lastDay.toISOString())} (UTC)`],
    ['Generated', dateTime(report.generatedAt)],
    ...(options.reportsUrl ? ([['Your reports', options.reportsUrl]] as [string, string][]) : []),
  ]);

  w.heading('Summary');
  if (report.domains.length === 0) {
    w.text(`No verified domain was monitored in ${report.label}. Verify a domain in Settings -> Domains to have it monitored and in next month's report.`, { after: 6 });
    return;
  }
  w.table(
    [
      { title: 'Domain', width: 2.6 },
      { title: 'Start', width: 1 },
      { title: 'End', width: 1 },
      { title: 'Scans', width: 0.8 },
      { title: 'Found', width: 0.8 },
      { title: 'Resolved', width: 1 },
      { title: 'Alerts', width: 0.8 },
      { title: 'Open now', width: 1 },
      { title: 'Overdue', width: 1 },
    ],
    report.domains.map((d) => [
      d.domain,
      d.start ? `${d.start.score ?? '-'} (${d.start.grade ?? '-'})` : '-',
      d.end ? `${d.end.score ?? '-'} (${d.end.grade ?? '-'})` : '-',
      String(d.scans.length),
      String(d.issuesFound.length),
      String(d.issuesResolved.length),
      String(d.alerts.length),
      d.openIssues.asOf ? String(d.openIssues.total) : '-',
      d.timeToFix ? String(d.timeToFix.overdue.length) : '-',
    ]),
  );
  w.text(
    'Start: the score at the start of the month (the last scan before it, else the month\'s first scan). End: the month\'s last scan. ' +
      'Found and resolved compare each scan with the one before it. Open now, overdue, the certificate and the badge are as they stood when this report was made. ' +
      `Overdue: open past the time-to-fix target from when the issue was first seen (${targetsText()}). ` +
      'The score starts at 100 and loses 20 points per critical issue and 5 per other issue; grades: 90+ A, 80+ B, 70+ C, 60+ D, below 60 F. ' +
      `Then caps: no working HTTPS at most ${GRADE_CAP_LIMITS['no-https']}, a known-exploited vulnerability at most ${GRADE_CAP_LIMITS.kev}, any other critical issue at most ${GRADE_CAP_LIMITS.critical}, a partial scan at most ${GRADE_CAP_LIMITS.partial}; each scan's report names the caps that applied.`,
    { size: 8.5, color: muted },
  );
}

function issueTable(w: Writer, events: readonly IssueEvent[]): void {
  w.table(
    [
      { title: 'Severity', width: 1 },
      { title: 'Issue', width: 4 },
      { title: 'Seen', width: 1.2 },
    ],
    events.map((e) => [SEVERITY_TITLES[e.severity], e.title, date(e.at)]),
  );
}

function domainSection(w: Writer, d: DomainMonthReport): void {
  w.newPage();
  w.heading(d.domain);
  w.keyValues([
    ['Start of the month', d.start ? `${scoreText(d.start)} (scan of ${date(d.start.at)})` : 'no completed scan'],
    ['End of the month', d.end ? `${scoreText(d.end)} (scan of ${date(d.end.at)})` : 'no completed scan'],
  ]);
  if (d.start && d.end && d.start.auditId === d.end.auditId) {
    w.text(d.scans.length === 0 ? 'No scan this month: the score stands as it was.' : "The domain's first scan was this month: there is nothing earlier to compare.", { color: muted, after: 4 });
  } else if (d.start && d.end && d.start.score !== null && d.end.score !== null) {
    const change = d.end.score - d.start.score;
    w.text(change === 0 ? 'The score did not change over the month.' : `The score ${change > 0 ? 'rose' : 'fell'} by ${Math.abs(change)} points over the month.`, {
      font: 'bold',
      color: change < 0 ? SEVERITY_COLOURS.high : (GRADE_COLOURS[d.end.grade ?? ''] ?? muted),
      after: 4,
    });
  }

  w.heading(`Scans this month (${d.scans.length})`, 2);
  if (d.scans.length === 0) w.text('No scan of this domain completed this month.', { after: 4 });
  else
    w.table(
      [
        { title: 'Completed', width: 2 },
        { title: 'Score', width: 1 },
        { title: 'Grade', width: 1 },
      ],
      d.scans.map((s) => [dateTime(s.at), s.score === null ? '-' : String(s.score), s.grade ?? '-']),
    );

  w.heading(`Issues found (${d.issuesFound.length})`, 2);
  if (d.issuesFound.length === 0) w.text('No new issues this month.', { after: 4 });
  else issueTable(w, d.issuesFound);

  w.heading(`Issues resolved (${d.issuesResolved.length})`, 2);
  if (d.issuesResolved.length === 0) w.text('No issues were resolved this month.', { after: 4 });
  else issueTable(w, d.issuesResolved);

  w.heading(`Alerts sent (${d.alerts.length})`, 2);
  if (d.alerts.length === 0) w.text('No alerts were sent for this domain this month.', { after: 4 });
  else
    w.table(
      [
        { title: 'Sent', width: 1.6 },
        { title: 'Channel', width: 0.8 },
        { title: 'Summary', width: 4 },
      ],
      d.alerts.map((a) => [dateTime(a.sentAt), a.channel === 'sms' ? 'SMS' : 'Email', a.summary]),
    );

  w.heading('Open issues now', 2);
  const open = d.openIssues;
  if (!open.asOf) w.text('Not scanned yet.', { after: 4 });
  else {
    w.text(
      `${plural(open.total, 'open issue')}: ${open.counts.critical} critical, ${open.counts.high} high, ${open.counts.medium} medium, ${open.counts.low} low (scan of ${date(open.asOf)}).`,
      { after: 2 },
    );
    for (const issue of open.listed) {
      w.text(`- ${issue.title} (${issue.severity})`, { indent: 10, color: SEVERITY_COLOURS[issue.severity] });
      if (issue.policy) w.text(policyMark(issue.policy), { indent: 20, color: muted });
    }
    if (open.total > open.listed.length) w.text(`and ${open.total - open.listed.length} more`, { indent: 10, color: muted });
    w.space(4);
  }

  timeToFixSection(w, d.timeToFix);
  if (d.essentialEight) drawEssentialEightSection(w, d.essentialEight, { newPage: false, level: 2, summary: true });

  w.heading('Certificate and badge', 2);
  const cert = d.certificate;
  w.keyValues([
    [
      'Certificate expiry',
      cert
        ? `${date(cert.validTo)} (${cert.expired ? `expired ${-cert.daysLeft} days ago` : plural(cert.daysLeft, 'day') + ' left'}; port ${cert.ports.join(', ')}${cert.subject ? `, ${cert.subject}` : ''})`
        : 'no certificate read (no port answered with TLS)',
    ],
    ['Security badge', d.badge ? (d.badge.eligible ? 'Active' : `Not active: ${d.badge.reasons.join('; ')}`) : 'unknown'],
  ]);
  w.page.drawLine({ start: { x: MARGIN.left, y: w.y }, end: { x: MARGIN.left + CONTENT_WIDTH, y: w.y }, thickness: 0.5, color: rule });
}

function footers(w: Writer, title: string): void {
  const pages = w.doc.getPages();
  const font = w.fonts.regular;
  const left = w.clean(title, font);
  pages.forEach((page, i) => {
    const right = `Page ${i + 1} of ${pages.length}`;
    page.drawText(left, { x: MARGIN.left, y: 30, size: 8, font, color: muted });
    page.drawText(right, { x: A4.width - MARGIN.right - font.widthOfTextAtSize(right, 8), y: 30, size: 8, font, color: muted });
  });
}

const targetsText = () => `critical ${TIME_TO_FIX_TARGET_DAYS.critical} days, high ${TIME_TO_FIX_TARGET_DAYS.high}, medium ${TIME_TO_FIX_TARGET_DAYS.medium}, low ${TIME_TO_FIX_TARGET_DAYS.low}`;

const daysText = (days: number) => (days < 1 ? 'under a day' : `${days.toFixed(1)} days`);

/** The month's fixes against their targets, and every issue overdue now, by name. */
function timeToFixSection(w: Writer, t: DomainMonthTimeToFix | null | undefined): void {
  w.heading('Time to fix', 2);
  if (!t) {
    w.text("No time-to-fix history yet: it starts with the domain's first monitoring rescan.", { after: 4 });
    return;
  }
  w.text(
    t.fixed === 0
      ? 'No issue was fixed this month.'
      : `${plural(t.fixed, 'issue')} fixed this month, ${t.fixedOnTime} within target; mean time to fix ${daysText(t.meanDaysToFix ?? 0)}.`,
    { after: 2 },
  );
  w.text(`Targets from first seen: ${targetsText()}.`, { size: 8.5, color: muted, after: 4 });
  w.heading(`Overdue issues (${t.overdue.length})`, 3);
  if (t.overdue.length === 0) {
    w.text('No open issue is past its target.', { after: 4 });
    return;
  }
  w.table(
    [
      { title: 'Severity', width: 1 },
      { title: 'Issue', width: 3.4 },
      { title: 'First seen', width: 1.2 },
      { title: 'Due', width: 1.2 },
      { title: 'Overdue by', width: 1.1 },
    ],
    t.overdue.map((o) => [SEVERITY_TITLES[o.severity], o.policy ? `${o.title} (${policyMark(o.policy)})` : o.title, date(o.firstSeenAt), date(o.dueAt), plural(o.daysOverdue, 'day')]),
  );
}

/** The owner's decision on an open issue, as the dashboard's report view words it. */
function policyMark(policy: ListedPolicy): string {
  if (policy.action === 'accept') return `Accepted risk: ${policy.reason}`;
  return policy.expiresAt ? `Muted until ${date(policy.expiresAt)}: ${policy.reason}` : `Muted: ${policy.reason}`;
}
