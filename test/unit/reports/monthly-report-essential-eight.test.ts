import { describe, expect, it } from 'vitest';
import type { Audit } from '../../../lambdas/domain/audit.js';
import { ESSENTIAL_EIGHT_DISCLAIMER } from '../../../lambdas/domain/essential-eight.contract.js';
import { essentialEightView } from '../../../lambdas/domain/essential-eight.js';
import { buildDomainMonthReport, buildMonthlyReport } from '../../../lambdas/domain/monthly-report.js';
import { ESSENTIAL_EIGHT_PDF_TITLE } from '../../../lambdas/reports/essential-eight-pdf.js';
import { renderMonthlyReportPdf } from '../../../lambdas/reports/monthly-report-pdf.js';
import { rdpOpenCheck } from '../../support/essential-eight-fixtures.js';
import { readPdf } from '../../support/pdf-text.js';

/** The Essential Eight readiness view in the monthly report (issue 21 item 3: "the dashboard, the Pro PDF and the monthly report"). */

const DOMAIN = 'shop.example.com';
const NOW = new Date('2026-11-01T00:15:00.000Z');

const latest: Audit = {
  id: 'oct-21',
  host: DOMAIN,
  targetUrl: `https://${DOMAIN}/`,
  status: 'completed',
  createdAt: '2026-10-21T00:00:00.000Z',
  completedAt: '2026-10-21T00:00:00.000Z',
  score: 75,
  grade: 'C',
  checks: [rdpOpenCheck],
};

const essentialEight = essentialEightView({ domain: DOMAIN, audit: latest, agents: [], now: NOW });
const input = { domain: DOMAIN, month: '2026-10', scans: [latest], alerts: [], now: NOW };

describe('monthly report: Essential Eight readiness', () => {
  it('carries the view given for the domain, and nothing for a report built without one', () => {
    expect(buildDomainMonthReport({ ...input, essentialEight }).essentialEight).toEqual(essentialEight);
    expect(buildDomainMonthReport(input)).not.toHaveProperty('essentialEight');
  });

  it("draws the section in the domain's pages with the disclaimer and the strategy the scan saw evidence against", async () => {
    const report = buildMonthlyReport({
      month: '2026-10',
      generatedAt: NOW.toISOString(),
      recipient: { name: 'Ada Tester', email: 'ada@example.com', company: '' },
      planName: 'Monitor Lite',
      domains: [buildDomainMonthReport({ ...input, essentialEight }), buildDomainMonthReport({ ...input, domain: 'blog.example.com' })],
    });

    const pdf = await readPdf(await renderMonthlyReportPdf(report, { productName: 'Rampart' }));
    const text = pdf.lines.join(' ');

    // Once: only the domain with a view gets the section.
    expect(pdf.lines.filter((line) => line === ESSENTIAL_EIGHT_PDF_TITLE)).toHaveLength(1);
    expect(text).toContain(ESSENTIAL_EIGHT_DISCLAIMER.slice(0, 40));
    const mfa = essentialEight.strategies.find((s) => s.id === 'multi-factor-authentication')!;
    expect(mfa.status).toBe('evidence-against');
    const at = pdf.lines.indexOf(mfa.title);
    expect(at).toBeGreaterThan(pdf.lines.indexOf(ESSENTIAL_EIGHT_PDF_TITLE));
    expect(pdf.lines.slice(at, at + 3)).toContain(mfa.statusLabel);
  });
});
