import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Audit, CheckResult, CveDetail, Finding } from '../../../lambdas/domain/audit.js';
import { buildAuditView } from '../../../lambdas/domain/audit-view.js';
import { PASSIVE_REASON } from '../../../lambdas/domain/coverage.js';
import { renderPdfReport } from '../../../lambdas/reports/pdf-report.js';
import { readPdf } from '../../support/pdf-text.js';

/** Issue 29 items 7 and 8 in the PDF: issues by what to do, plain words before the technical line, not checked by reason. */

const rangeAudit = JSON.parse(readFileSync(new URL('../../fixtures/audits/range-wordpress.json', import.meta.url), 'utf8')) as Audit;
const options = { productName: 'Rampart' };
/** Lines of a wrapped paragraph, joined back (a line break became a space or nothing). */
const flat = (lines: readonly string[]) => lines.join(' ').replace(/\s+/g, ' ');

const finding = (id: string, severity: Finding['severity'], extra: Partial<Finding> = {}): Finding => ({
  id,
  check: 'test',
  title: `Title of ${id}`,
  severity,
  category: 'Web Security',
  description: `About ${id}.`,
  recommendation: `Fix ${id}.`,
  ...extra,
});

const kev: CveDetail = { id: 'CVE-2021-41773', cvssScore: 7.5, severity: 'high', exploited: true, kevDateAdded: '2021-11-03', fixedIn: '2.4.50' };

const auditWith = (checks: CheckResult[], overrides: Partial<Audit> = {}): Audit => ({
  id: '5b0f7a8e-2c4d-4e6f-9a1b-3c5d7e9f1a2b',
  targetUrl: 'https://shop.example.test/',
  host: 'shop.example.test',
  status: 'completed',
  createdAt: '2026-01-01T00:00:00.000Z',
  completedAt: '2026-01-01T00:00:05.000Z',
  score: 59,
  grade: 'F',
  riskLevel: 'high',
  checks,
  ...overrides,
});

describe('the PDF groups issues by what to do (issue 29 item 7)', () => {
  it('puts a known-exploited high issue and a critical one under "Fix now", with counts on the cover that add up to the score\'s', async () => {
    // Prepare
    const audit = auditWith([
      { name: 'software', status: 'ok', findings: [finding('cve.apache_http_server', 'high', { check: 'software', cves: [kev.id], cveDetails: [kev] })], data: {} },
      { name: 'http', status: 'ok', findings: [finding('http.trace-enabled', 'critical'), finding('tls.hsts.missing', 'medium'), finding('dns.ns.single', 'low')] },
    ]);

    // Act
    const pdf = await readPdf(await renderPdfReport(buildAuditView(audit), options));

    // Assess: the cover, beside the severity counts.
    expect(pdf.lines).toContain('1 critical, 1 high, 1 medium, 1 low');
    const cover = (label: string) => pdf.lines[pdf.lines.indexOf(label) + 1];
    expect([cover('Fix now'), cover('Fix this month'), cover('Good practice')]).toEqual(['2 (1 critical, 1 high; 1 known exploited)', '1 (1 medium)', '1 (1 low)']);
    // The findings section, in group order.
    const start = pdf.lines.indexOf('Issues to fix (4)');
    expect(start).toBeGreaterThan(0);
    const section = pdf.lines.slice(start);
    const at = (line: string) => section.indexOf(line);
    const positions = ['Fix now (2)', 'Title of http.trace-enabled', 'Title of cve.apache_http_server', 'Fix this month (1)', 'Title of tls.hsts.missing', 'Good practice (1)', 'Title of dns.ns.single'].map(at);
    expect(positions.every((p) => p > 0)).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(section).not.toContain('Critical (1)');
  });
});

describe('fix advice in the PDF (issue 29 item 8)', () => {
  it('says what the CSP change does, then the header value, labelled "Technical details"', async () => {
    // Act
    const pdf = await readPdf(await renderPdfReport(buildAuditView(rangeAudit), options));

    // Assess
    const title = pdf.lines.indexOf('No Content Security Policy');
    const after = flat(pdf.lines.slice(title, title + 12));
    const plain = after.indexOf('What to do: Tells visitors’ browsers to run only the scripts and content your site really uses');
    const technical = after.indexOf('Technical details: Add a Content-Security-Policy header.');
    expect(plain).toBeGreaterThan(0);
    expect(technical).toBeGreaterThan(plain);
    expect(after.slice(technical)).toContain("default-src 'self'; object-src 'none'");
    expect(after.slice(0, technical)).not.toContain("'self'");
    expect(pdf.text).not.toContain('Recommendation: ');
  });
});

describe('not checked in the PDF, by reason (issue 29 item 8)', () => {
  it('prints a reason shared by several checks once, with the checks and parts beside it', async () => {
    // Prepare
    const skipped = (name: string): CheckResult => ({ name, status: 'skipped', findings: [] });
    const audit = auditWith(
      [
        skipped('ports'),
        skipped('wordpress'),
        skipped('exposure'),
        skipped('breaches'),
        { name: 'dns', status: 'ok', findings: [], data: { notChecked: ['Zone transfer (AXFR)'] } },
        { name: 'software', status: 'timeout', findings: [] },
      ],
      { mode: 'passive' },
    );

    // Act
    const pdf = await readPdf(await renderPdfReport(buildAuditView(audit), options));

    // Assess
    const start = pdf.lines.indexOf('Not checked');
    const table = flat(pdf.lines.slice(start, pdf.lines.indexOf('Software and known vulnerabilities', start) + 1));
    expect(table.startsWith('Not checked These were not checked, so this report cannot say they are fine: Why Not checked')).toBe(true);
    expect(table.split(PASSIVE_REASON.slice(0, 40))).toHaveLength(2);
    expect(table).toContain('Open ports and services; WordPress; Exposed files; Password breaches; DNS: Zone transfer (AXFR)');
    expect(table).toContain('It did not finish in time. Software and known vulnerabilities');
  });
});
