import { describe, expect, it } from 'vitest';
import type { DomainMonthReport, MonthlyReport } from '../../../lambdas/domain/monthly-report.js';
import { renderMonthlyReportPdf } from '../../../lambdas/reports/monthly-report-pdf.js';
import { readPdf } from '../../support/pdf-text.js';

const domain: DomainMonthReport = {
  domain: 'shop.example.com',
  start: { auditId: 'a', at: '2026-09-28T10:00:00.000Z', score: 75, grade: 'C' },
  end: { auditId: 'c', at: '2026-10-20T10:00:00.000Z', score: 95, grade: 'A' },
  scans: [
    { auditId: 'b', at: '2026-10-05T10:00:00.000Z', score: 55, grade: 'F' },
    { auditId: 'c', at: '2026-10-20T10:00:00.000Z', score: 95, grade: 'A' },
  ],
  issuesFound: [{ findingId: 'exposure.git', title: 'Git repository exposed', severity: 'critical', at: '2026-10-05T10:00:00.000Z' }],
  issuesResolved: [
    { findingId: 'exposure.git', title: 'Git repository exposed', severity: 'critical', at: '2026-10-20T10:00:00.000Z' },
    { findingId: 'tls.protocol.tls10', title: 'TLS 1.0 is enabled', severity: 'medium', at: '2026-10-20T10:00:00.000Z' },
  ],
  alerts: [{ sentAt: '2026-10-05T10:01:00.000Z', channel: 'sms', summary: '1 new critical issue' }],
  openIssues: { asOf: '2026-10-20T10:00:00.000Z', counts: { critical: 0, high: 0, medium: 0, low: 1 }, total: 1, listed: [{ title: 'Server version disclosed', severity: 'low' }] },
  certificate: { validTo: '2026-12-01T00:00:00.000Z', daysLeft: 29, expired: false, subject: 'CN=shop.example.com', ports: [443] },
  badge: { eligible: true, reasons: [] },
};

const quiet: DomainMonthReport = {
  ...domain,
  domain: 'blog.example.com',
  start: null,
  end: null,
  scans: [],
  issuesFound: [],
  issuesResolved: [],
  alerts: [],
  openIssues: { asOf: null, counts: { critical: 0, high: 0, medium: 0, low: 0 }, total: 0, listed: [] },
  certificate: null,
  badge: { eligible: false, reasons: ['Run a scan'] },
};

const report: MonthlyReport = {
  month: '2026-10',
  label: 'October 2026',
  generatedAt: '2026-11-01T00:15:00.000Z',
  recipient: { name: 'Ada Tester', email: 'ada@example.com', company: 'Analytical Engines' },
  planName: 'Monitor Plus',
  domains: [domain, quiet],
};

describe('the monthly report PDF', () => {
  it('has a cover with the month, account and summary, then a page per domain with its month', async () => {
    // Act
    const pdf = await readPdf(await renderMonthlyReportPdf(report, { productName: 'Rampart', reportsUrl: 'https://rampart.example/dashboard/subscription' }));

    // Assess
    expect(pdf.pages).toBe(3);
    expect(pdf.lines.slice(0, 3)).toEqual(['Rampart', 'Monthly Security Report', 'October 2026']);
    for (const line of ['Ada Tester, Analytical Engines', 'Monitor Plus', '2026-10-01 to 2026-10-31 (UTC)', '2026-11-01 00:15 UTC', 'https://rampart.example/dashboard/subscription']) {
      expect(pdf.lines).toContain(line);
    }
    // The summary row: start, end, scans, found, resolved, alerts, open now.
    const row = pdf.lines.indexOf('shop.example.com');
    expect(pdf.lines.slice(row, row + 8)).toEqual(['shop.example.com', '75 (C)', '95 (A)', '2', '1', '2', '1', '1']);
    // The domain's page.
    for (const line of [
      '75 / 100, grade C (scan of 2026-09-28)',
      '95 / 100, grade A (scan of 2026-10-20)',
      'The score rose by 20 points over the month.',
      'Scans this month (2)',
      '2026-10-05 10:00 UTC',
      'Issues found (1)',
      'Git repository exposed',
      'Issues resolved (2)',
      'TLS 1.0 is enabled',
      'Alerts sent (1)',
      'SMS',
      '1 new critical issue',
      '1 open issue: 0 critical, 0 high, 0 medium, 1 low (scan of 2026-10-20).',
      '- Server version disclosed (low)',
      '2026-12-01 (29 days left; port 443, CN=shop.example.com)',
      'Active',
    ]) {
      expect(pdf.lines).toContain(line);
    }
    // The quiet domain says what it lacks.
    for (const line of ['No scan of this domain completed this month.', 'No new issues this month.', 'Not scanned yet.', 'Not active: Run a scan', 'no certificate read (no port answered with TLS)']) {
      expect(pdf.lines).toContain(line);
    }
    expect(pdf.lines).toContain('Page 3 of 3');
  });

  it('marks an open issue its owner accepted or muted, with the reason', async () => {
    // Prepare
    const policed: DomainMonthReport = {
      ...domain,
      openIssues: {
        ...domain.openIssues,
        total: 2,
        listed: [
          { title: 'Server version disclosed', severity: 'low', policy: { action: 'accept', reason: 'The load balancer adds it' } },
          { title: 'TLS 1.0 is enabled', severity: 'medium', policy: { action: 'mute', reason: 'Legacy till clients move', expiresAt: '2026-12-15T00:00:00.000Z' } },
        ],
      },
    };

    // Act
    const pdf = await readPdf(await renderMonthlyReportPdf({ ...report, domains: [policed] }, { productName: 'Rampart', reportsUrl: 'https://rampart.example/dashboard/subscription' }));

    // Assess
    const at = pdf.lines.indexOf('- Server version disclosed (low)');
    expect(pdf.lines.slice(at, at + 4)).toEqual([
      '- Server version disclosed (low)',
      'Accepted risk: The load balancer adds it',
      '- TLS 1.0 is enabled (medium)',
      'Muted until 2026-12-15: Legacy till clients move',
    ]);
  });

  it('is the same document for the same data (its dates are the report’s)', async () => {
    const [first, second] = await Promise.all([renderMonthlyReportPdf(report, { productName: 'Rampart' }), renderMonthlyReportPdf(report, { productName: 'Rampart' })]);
    expect(Buffer.from(first).equals(Buffer.from(second))).toBe(true);
  });

  it('says when there is nothing to compare: no scan in the month, or the domain first scanned in it', async () => {
    const unchanged = { ...domain, start: domain.start, end: domain.start, scans: [], issuesFound: [], issuesResolved: [] };
    const first = { ...domain, start: domain.end, end: domain.end, scans: [domain.end!] };
    const pdf = await readPdf(await renderMonthlyReportPdf({ ...report, domains: [unchanged, first] }, { productName: 'Rampart' }));
    expect(pdf.lines).toContain('No scan this month: the score stands as it was.');
    expect(pdf.lines).toContain("The domain's first scan was this month: there is nothing earlier to compare.");
    expect(pdf.lines).not.toContain('The score did not change over the month.');
  });

  it('says so when no domain was monitored', async () => {
    const pdf = await readPdf(await renderMonthlyReportPdf({ ...report, domains: [] }, { productName: 'Rampart' }));
    expect(pdf.pages).toBe(1);
    expect(pdf.text).toContain('No verified domain was monitored in October 2026.');
  });
});
