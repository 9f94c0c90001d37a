import { describe, expect, it } from 'vitest';
import type { Audit } from '../../../lambdas/domain/audit.js';
import { buildAuditView } from '../../../lambdas/domain/audit-view.js';
import { sampleAudit } from '../../../lambdas/domain/sample-report.js';
import { scannerProduct } from '../../../lambdas/domain/site-access-view.js';
import type { MonthlyReport } from '../../../lambdas/domain/monthly-report.js';
import { renderMonthlyReportPdf } from '../../../lambdas/reports/monthly-report-pdf.js';
import { renderPdfReport } from '../../../lambdas/reports/pdf-report.js';
import { cloudflareChallenge, keptOut } from '../../support/blocked-audit.js';
import { readPdf } from '../../support/pdf-text.js';

const options = { productName: 'Rampart' };
/** The PDF's text with its line breaks undone, to find a sentence that wraps. */
const flat = (text: string) => text.replace(/\s+/g, ' ');

describe('the PDF names the grade caps', () => {
  it('prints each cap that held the grade down, with why, under the grade', async () => {
    const audit: Audit = {
      ...sampleAudit('demo_x'),
      score: 59,
      grade: 'F',
      riskLevel: 'high',
      gradeCaps: [
        { id: 'kev', limit: 59, reason: "A vulnerability known to be exploited in attacks (CISA's KEV catalog) is on the site: CVE-2020-11022 (jQuery 1.12.4 has known vulnerabilities)." },
        { id: 'no-https', limit: 69, reason: 'The site has no working HTTPS: port 443 does not answer with TLS.' },
      ],
    };
    const pdf = await readPdf(await renderPdfReport(buildAuditView(audit), options));
    const text = flat(pdf.text);
    expect(pdf.lines).toContain('Score 59 / 100');
    expect(text).toContain("Grade capped at F (59): A vulnerability known to be exploited in attacks (CISA's KEV catalog) is on the site: CVE-2020-11022");
    expect(text).toContain('Grade capped at D (69): The site has no working HTTPS: port 443 does not answer with TLS.');
    expect(text).toContain('no working HTTPS at most 69 (D), a known-exploited vulnerability at most 59 (F), any other critical issue at most 79 (C)');
  });

  it('prints no cap line when no cap lowered the score', async () => {
    const pdf = await readPdf(await renderPdfReport(buildAuditView(sampleAudit('demo_x')), options));
    expect(flat(pdf.text)).not.toContain('Grade capped at');
  });
});

describe('the PDF of a site that blocked the scanner', () => {
  const sample = sampleAudit('demo_x');
  const blocked: Audit = {
    ...sample,
    checks: [...sample.checks.filter((c) => !['http', 'software', 'wordpress', 'exposure'].includes(c.name)), ...['http', 'software', 'wordpress', 'exposure'].map((name) => keptOut(name))],
  };

  it('says so on the cover, gives the numbered steps for the vendor, and marks the page sections not checked', async () => {
    const view = buildAuditView(blocked, { scanner: scannerProduct('Rampart', 'https://rampart.example.test') });
    const pdf = await readPdf(await renderPdfReport(view, options));
    const text = flat(pdf.text);
    const cover = text.indexOf('We could not see your site: Cloudflare’s bot protection answered our scanner with a challenge (403) instead of the site.');
    expect(cover).toBeGreaterThan(-1);
    expect(cover).toBeLessThan(text.indexOf('Score '));
    expect(pdf.lines).toContain('Let the scanner in');
    expect(pdf.lines).toContain('Let the Rampart scanner in through Cloudflare');
    expect(text).toContain('1. Log in to the Cloudflare dashboard (dash.cloudflare.com) and select the domain.');
    expect(text).toMatch(/7\. Run the scan again\./);
    expect(text).toContain('RampartScanner');
    expect(text).toContain('Not checked, because the site did not show the scanner its pages: HTTP security headers, Software and known vulnerabilities, WordPress, Exposed files.');
    // The headers and technologies sections never say "no issues" of pages the scanner did not see.
    expect(text).toContain(`Not checked — the site blocked the scanner. ${cloudflareChallenge.reason}`);
    expect(text).not.toContain('No web security issues found.');
    expect(text).not.toContain('No technologies identified.');
  });
});

describe('the monthly report PDF', () => {
  it('explains that the scores it lists are capped', async () => {
    const report: MonthlyReport = {
      month: '2026-10',
      label: 'October 2026',
      generatedAt: '2026-11-01T00:15:00.000Z',
      recipient: { name: 'Ada Tester', email: 'ada@example.com', company: 'Analytical Engines' },
      planName: 'Monitor Plus',
      domains: [
        {
          domain: 'shop.example.com',
          start: null,
          end: { auditId: 'c', at: '2026-10-20T10:00:00.000Z', score: 69, grade: 'D' },
          scans: [{ auditId: 'c', at: '2026-10-20T10:00:00.000Z', score: 69, grade: 'D' }],
          issuesFound: [],
          issuesResolved: [],
          alerts: [],
          openIssues: { asOf: null, counts: { critical: 0, high: 0, medium: 0, low: 0 }, total: 0, listed: [] },
          certificate: null,
          badge: { eligible: true, reasons: [] },
        },
      ],
    };
    const pdf = await readPdf(await renderMonthlyReportPdf(report, { productName: 'Rampart', reportsUrl: 'https://rampart.example/dashboard/subscription' }));
    expect(flat(pdf.text)).toContain(
      "Then caps: no working HTTPS at most 69, a known-exploited vulnerability at most 59, any other critical issue at most 79, a partial scan at most 89; each scan's report names the caps that applied.",
    );
  });
});
