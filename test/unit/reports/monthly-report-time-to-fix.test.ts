import { describe, expect, it } from 'vitest';
import type { Audit, Finding } from '../../../lambdas/domain/audit.js';
import { buildDomainMonthReport, buildMonthlyReport, domainSummaryLine } from '../../../lambdas/domain/monthly-report.js';
import { applyScan, emptyHistory } from '../../../lambdas/domain/time-to-fix.js';
import { renderMonthlyReportPdf } from '../../../lambdas/reports/monthly-report-pdf.js';
import { readPdf } from '../../support/pdf-text.js';

/** Time-to-fix in the monthly report (issue 21 item 4): the month's fixes against their targets, and the overdue issues by name. */

const DOMAIN = 'shop.example.com';
const NOW = new Date('2026-11-01T00:15:00.000Z');

const finding = (id: string, severity: Finding['severity'], title: string): Finding => ({
  id,
  check: 'http',
  title,
  severity,
  category: 'Web Security',
  description: 'Planted.',
  recommendation: 'Fix it.',
});

const RDP = finding('http.rdp', 'critical', 'Remote desktop open to the internet');
const HSTS = finding('http.hsts', 'medium', 'HSTS header missing');
const CSP = finding('http.csp', 'high', 'Content Security Policy missing');

function scan(id: string, completedAt: string, findings: Finding[]): Audit {
  return { id, host: DOMAIN, targetUrl: `https://${DOMAIN}/`, status: 'completed', createdAt: completedAt, completedAt, score: 50, grade: 'F', checks: [{ name: 'http', status: 'ok', findings, data: { url: `https://${DOMAIN}/`, analyzed: 'https', observatory: { statusCode: 200 } } }] };
}

// RDP first seen 1 Oct (due 8 Oct, still open: overdue); HSTS first seen 1 Oct, fixed 11 Oct (10 days, on time);
// CSP first seen 1 Sep (due 1 Oct), fixed 21 Oct (50 days: late).
const scans = [
  scan('sep-01', '2026-09-01T00:00:00.000Z', [CSP]),
  scan('oct-01', '2026-10-01T00:00:00.000Z', [CSP, RDP, HSTS]),
  scan('oct-11', '2026-10-11T00:00:00.000Z', [CSP, RDP]),
  scan('oct-21', '2026-10-21T00:00:00.000Z', [RDP]),
];
const issueHistory = scans.reduce(applyScan, emptyHistory(DOMAIN));
const input = { domain: DOMAIN, month: '2026-10', scans: scans.slice(1), baseline: scans[0], alerts: [], issueHistory, now: NOW };

describe('monthly report: time to fix', () => {
  it("gives the month's fixes, how many were on time, their mean, and each issue overdue now with its due date", () => {
    const report = buildDomainMonthReport(input);

    expect(report.timeToFix).toEqual({
      fixed: 2,
      fixedOnTime: 1,
      meanDaysToFix: 30,
      overdue: [{ findingId: RDP.id, title: RDP.title, severity: 'critical', firstSeenAt: '2026-10-01T00:00:00.000Z', dueAt: '2026-10-08T00:00:00.000Z', daysOverdue: 24 }],
    });
    expect(domainSummaryLine(report)).toMatch(/; 1 issue past the time-to-fix target\.$/);
  });

  it('marks an overdue issue its owner muted, and has no figures without a history', () => {
    const muted = buildDomainMonthReport({ ...input, policies: [{ findingId: RDP.id, action: 'mute', reason: 'Firewall change booked' }] });
    const none = buildDomainMonthReport({ ...input, issueHistory: undefined });

    expect(muted.timeToFix?.overdue[0]?.policy).toEqual({ action: 'mute', reason: 'Firewall change booked' });
    expect(none.timeToFix).toBeNull();
    expect(domainSummaryLine(none)).not.toContain('time-to-fix');
  });

  it('names the overdue issues in the PDF, with the fixes of the month and the targets', async () => {
    const report = buildMonthlyReport({
      month: '2026-10',
      generatedAt: NOW.toISOString(),
      recipient: { name: 'Ada Tester', email: 'ada@example.com', company: '' },
      planName: 'Monitor Plus',
      domains: [buildDomainMonthReport(input), buildDomainMonthReport({ ...input, domain: 'blog.example.com', issueHistory: undefined })],
    });

    const pdf = await readPdf(await renderMonthlyReportPdf(report, { productName: 'Rampart' }));

    const row = pdf.lines.indexOf(DOMAIN);
    expect(pdf.lines.slice(row, row + 9)).toEqual([DOMAIN, '50 (F)', '50 (F)', '3', '2', '2', '0', '1', '1']);
    for (const line of [
      'Time to fix',
      '2 issues fixed this month, 1 within target; mean time to fix 30.0 days.',
      'Targets from first seen: critical 7 days, high 30, medium 60, low 120.',
      'Overdue issues (1)',
      'Critical',
      RDP.title,
      '2026-10-01',
      '2026-10-08',
      '24 days',
      "No time-to-fix history yet: it starts with the domain's first monitoring rescan.",
    ]) {
      expect(pdf.lines).toContain(line);
    }
  });
});
