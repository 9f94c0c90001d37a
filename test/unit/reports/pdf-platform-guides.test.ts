import { describe, expect, it } from 'vitest';
import type { Audit, CheckResult, Finding } from '../../../lambdas/domain/audit.js';
import { buildAuditView } from '../../../lambdas/domain/audit-view.js';
import { renderPdfReport } from '../../../lambdas/reports/pdf-report.js';
import { readPdf } from '../../support/pdf-text.js';

/**
 * Issue 21 in the PDF: the providers on the cover; a paid audit's platform steps under each
 * finding and in the Pro plan's items; a free report's one-line note and none of the steps.
 */

const finding = (id: string, severity: Finding['severity'], check: string, title: string): Finding => ({
  id,
  check,
  title,
  severity,
  category: check === 'email' ? 'Email Security' : 'SSL/TLS',
  description: `About ${id}`,
  recommendation: `Fix ${id}`,
});

/** Cloudflare's name servers, Google Workspace mail with a soft-failing SPF record, and a Shopify store without HSTS. */
const checks: CheckResult[] = [
  {
    name: 'dns',
    status: 'ok',
    findings: [],
    data: {
      host: 'shop.example.com.au',
      domain: 'example.com.au',
      ipv4: ['203.0.113.10'],
      records: { 'example.com.au': { NS: ['adam.ns.cloudflare.com', 'lola.ns.cloudflare.com'] } },
      nameservers: [{ name: 'adam.ns.cloudflare.com' }, { name: 'lola.ns.cloudflare.com' }],
    },
  },
  {
    name: 'email',
    status: 'ok',
    findings: [finding('email.spf.softfail', 'medium', 'email', 'SPF ends in ~all (soft fail)')],
    data: { domain: 'example.com.au', mx: [{ host: 'smtp.google.com', preference: 1 }], spf: { record: 'v=spf1 include:_spf.google.com ~all', records: ['v=spf1 include:_spf.google.com ~all'] } },
  },
  {
    name: 'http',
    status: 'ok',
    findings: [],
    data: { responses: { https: { url: 'https://shop.example.com.au/', headers: { 'x-shopid': '48213', 'powered-by': 'Shopify' }, redirects: [] } } },
  },
  { name: 'tls', status: 'ok', findings: [finding('tls.hsts.missing', 'medium', 'tls', 'HSTS is not enabled')], data: {} },
];

const audit = (overrides: Partial<Audit> = {}): Audit => ({
  id: '6d1e2f3a-4b5c-4d6e-8f7a-9b0c1d2e3f4a',
  targetUrl: 'https://shop.example.com.au/',
  host: 'shop.example.com.au',
  status: 'completed',
  createdAt: '2026-11-01T00:00:00.000Z',
  completedAt: '2026-11-01T00:01:00.000Z',
  updatedAt: '2026-11-01T00:02:00.000Z',
  score: 90,
  grade: 'A',
  riskLevel: 'low',
  checks,
  ...overrides,
});

const options = { productName: 'Rampart' };
const SPF = 'v=spf1 include:_spf.google.com -all';
/** The text with the lines joined, so a wrapped sentence reads whole. */
const joined = (lines: string[]) => lines.join(' ').replace(/\s+/g, ' ');

describe('platform fixes in the PDF report', () => {
  it("prints the providers on the cover and a Pro Audit's platform steps under the finding and in the plan", async () => {
    // Act
    const pdf = await readPdf(await renderPdfReport(buildAuditView(audit({ isPremium: true, planType: 'pro', paymentSessionId: 'cs_test_pro' })), options));

    // Assess: the cover.
    const summaryAt = pdf.lines.indexOf('Summary');
    expect(pdf.lines.slice(0, summaryAt)).toEqual(expect.arrayContaining(['Runs on', 'Your mail: Google Workspace · DNS: Cloudflare · Site: Shopify']));

    // The finding, in the findings section: Google's part, then Cloudflare's numbered steps and the record.
    const findingsAt = pdf.lines.findIndex((line) => line.startsWith('Issues to fix ('));
    const planAt = pdf.lines.indexOf('Remediation plan');
    const findings = pdf.lines.slice(findingsAt, planAt);
    expect(findings.indexOf('Fix it in Google Workspace')).toBeGreaterThan(findings.indexOf('SPF ends in ~all (soft fail)'));
    expect(findings.indexOf('Fix it in Cloudflare')).toBeGreaterThan(findings.indexOf('Fix it in Google Workspace'));
    expect(findings).toEqual(expect.arrayContaining(['3. Go to DNS -> Records.', 'TXT record, name @:', SPF]));
    expect(joined(findings)).toContain(`Find the TXT record named @ in the list, select Edit, change its value to: ${SPF}; then save.`);
    // Where the steps come from, and when they were read against it (issue 29 item 14).
    expect(findings).toEqual(expect.arrayContaining(['Source, checked 7 Dec 2026:']));
    expect(findings.join('')).toContain('https://developers.cloudflare.com/dns/manage-dns-records/how-to/create-dns-records/');

    // The plan: the same steps; on Shopify the HSTS item's nginx and Apache lines are left out.
    const plan = pdf.lines.slice(planAt);
    expect(plan).toEqual(expect.arrayContaining(['Fix it in Cloudflare', '3. Go to DNS -> Records.', SPF, 'Fix it in Shopify', 'General steps:']));
    expect(pdf.text).not.toContain('add_header Strict-Transport-Security');
    expect(pdf.text).not.toContain('Header always set Strict-Transport-Security');
  });

  it("prints a Basic Audit's steps under its findings (it has no plan)", async () => {
    // Act
    const pdf = await readPdf(await renderPdfReport(buildAuditView(audit({ isPremium: true, planType: 'basic' })), options));

    // Assess
    expect(pdf.lines).not.toContain('Remediation plan');
    expect(pdf.lines).toEqual(expect.arrayContaining(['Fix it in Cloudflare', 'Fix it in Shopify', SPF]));
  });

  it('prints a free report the one-line note per finding and none of the steps', async () => {
    // Act
    const pdf = await readPdf(await renderPdfReport(buildAuditView(audit()), options));

    // Assess
    expect(pdf.lines).toEqual(expect.arrayContaining(['Runs on', 'Your mail: Google Workspace · DNS: Cloudflare · Site: Shopify']));
    const text = joined(pdf.lines);
    expect(text).toContain('The paid audit includes step-by-step instructions for Google Workspace and Cloudflare.');
    expect(text).toContain('The paid audit includes step-by-step instructions for Shopify.');
    expect(text).not.toContain('Fix it in');
    expect(text).not.toContain('DNS -> Records');
    expect(text).not.toContain(SPF);
  });

  it('prints a report with nothing detected without a providers row', async () => {
    // Act
    const pdf = await readPdf(await renderPdfReport(buildAuditView(audit({ checks: [checks[3]!] })), options));

    // Assess
    expect(pdf.lines).not.toContain('Runs on');
    expect(pdf.lines).toContain('HSTS is not enabled');
  });
});
