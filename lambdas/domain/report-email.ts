import type { AuditResultView } from './audit-view.js';
import { type EmailBrand, escapeHtml, siteLink } from './emails.js';
import { buildFindingGroups, groupSummaryText } from './finding-groups.js';
import { gradeCapHeading } from './grade-caps.js';
import type { EmailMessage } from './ports.js';
import { reportPaths } from './report.contract.js';

/**
 * The email report (SPEC §2 "Email report"): the summary — grade, score, risk, the four counters
 * and the worst issues — with links to the live report and its PDF. Anyone holding the report's
 * link may send it, so the mail says who it is from and that it can be ignored.
 */
export function auditReportEmail(brand: EmailBrand, input: { to: string; view: AuditResultView; sharedPath?: string }): EmailMessage {
  const { view } = input;
  // Sent through a share link (`sharedPath`): the mail links to the shared page only, never to the
  // audit's id, which would open the report without the link's expiry and use limit (issue 28 finding 11).
  const reportUrl = siteLink(brand, input.sharedPath ?? reportPaths.results(view.id));
  const pdfUrl = input.sharedPath ? undefined : siteLink(brand, reportPaths.pdf(view.id));
  const c = view.finding_counts;
  const counts = `${c.critical} critical, ${c.high} high, ${c.medium} medium, ${c.low} low`;
  const worst = view.vulnerability_summary.vulnerabilities.slice(0, 3).map((v) => `${v.title} (${v.severity})`);
  const sample = view.sample ? ' (sample report)' : '';
  const subject = `${brand.productName} security report for ${view.host}: grade ${view.grade ?? '-'}, score ${view.risk_score ?? '-'}/100${sample}`;
  const summary: [string, string][] = [
    ['Website', view.target_url],
    ...(view.business_name ? ([['Business', view.business_name]] as [string, string][]) : []),
    ['Grade', view.grade ?? '-'],
    ['Score', `${view.risk_score ?? '-'}/100`],
    ...(view.grade_caps ?? []).map((cap): [string, string] => [gradeCapHeading(cap), cap.reason]),
    ['Risk level', view.risk_level ?? '-'],
    ['Issues', `${view.counters.totalIssues} (${counts})`],
    // Issue 29 item 7: the same issues by what to do, as the report groups them (they add up to the line above).
    ...(view.finding_groups ?? buildFindingGroups(view.vulnerability_summary.vulnerabilities, view.observations.length)).groups.map((g): [string, string] => [g.title, groupSummaryText(g)]),
    ['Critical issues', String(view.counters.criticalIssues)],
    ['Open ports', view.counters.openPorts === null ? 'not measured' : String(view.counters.openPorts)],
    ['Subdomains', view.counters.subdomains === null ? 'not measured' : String(view.counters.subdomains)],
  ];
  const notice = `Someone asked ${brand.productName} to send this report to ${input.to}. If you did not expect it, you can ignore this email.`;

  // DECISIONS "Blocked is a result": the first thing the reader learns.
  const blocked = view.site_access ? `${view.site_access.headline} The report shows how to let the scanner in.` : null;
  const text = [
    `Security report for ${view.host}${sample}`,
    '',
    ...(blocked ? [blocked, ''] : []),
    ...summary.map(([label, value]) => `${label}: ${value}`),
    ...(worst.length > 0 ? ['', 'Most important issues:', ...worst.map((w) => `- ${w}`)] : []),
    '',
    `View the full report: ${reportUrl}`,
    ...(pdfUrl ? [`Download the PDF: ${pdfUrl}`] : []),
    '',
    notice,
    '',
    `— ${brand.productName}`,
  ].join('\n');

  const rows = summary
    .map(([label, value]) => `<tr><td style="padding:2px 12px 2px 0;color:#6b7280">${escapeHtml(label)}</td><td><strong>${escapeHtml(value)}</strong></td></tr>`)
    .join('');
  const html = [
    '<!doctype html><html lang="en"><body style="font-family:Arial,Helvetica,sans-serif;color:#1f2937;line-height:1.5">',
    `<p>Security report for <strong>${escapeHtml(view.host)}</strong>${escapeHtml(sample)}</p>`,
    blocked ? `<p><strong>${escapeHtml(blocked)}</strong></p>` : '',
    `<table>${rows}</table>`,
    worst.length > 0 ? `<p>Most important issues:</p><ul>${worst.map((w) => `<li>${escapeHtml(w)}</li>`).join('')}</ul>` : '',
    `<p><a href="${escapeHtml(reportUrl)}">View the full report</a>${pdfUrl ? ` · <a href="${escapeHtml(pdfUrl)}">Download the PDF</a>` : ''}</p>`,
    `<p style="color:#6b7280;font-size:12px">${escapeHtml(notice)}</p>`,
    `<p style="color:#6b7280;font-size:12px">${escapeHtml(brand.productName)}</p>`,
    '</body></html>',
  ].join('\n');
  return { to: input.to, subject, text, html };
}
