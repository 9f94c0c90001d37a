import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Audit } from '../../../lambdas/domain/audit.js';
import { buildAuditView } from '../../../lambdas/domain/audit-view.js';
import { renderPdfReport } from '../../../lambdas/reports/pdf-report.js';
import { readPdf } from '../../support/pdf-text.js';

const rangeAudit = JSON.parse(readFileSync(new URL('../../fixtures/audits/range-wordpress.json', import.meta.url), 'utf8')) as Audit;
const premium = { isPremium: true, paymentSessionId: 'cs_test_pro', badgeEligibleUntil: '2027-02-20T13:19:12.900Z', updatedAt: '2026-11-22T13:20:00.000Z' };
const options = { productName: 'Rampart' };

describe('the remediation plan in the PDF report', () => {
  it('follows the findings in a Pro Audit: numbered items worst first, their steps, configuration lines, checks and effort', async () => {
    // Act
    const pdf = await readPdf(await renderPdfReport(buildAuditView({ ...rangeAudit, ...premium, planType: 'pro' }), options));

    // Assess
    const start = pdf.lines.indexOf('Remediation plan');
    expect(start).toBeGreaterThan(pdf.lines.findIndex((line) => line.startsWith('Issues to fix (')));
    expect(start).toBeLessThan(pdf.lines.indexOf('Network: open ports'));
    const plan = pdf.lines.slice(start);
    expect(plan[1]).toBe('Pro Audit: what to do about each issue, worst first. Configuration examples are for Apache, the web server this scan');
    expect(plan).toEqual(
      expect.arrayContaining([
        '1. Anyone can download the whole DNS zone (open zone transfer)',
        '2. Database is open to the internet',
        'High | Network Security | Effort: Moderate: a few hours, or small changes over a few weeks',
        '3. Make the database listen only on the server itself (or your private network), then restart it:',
        'bind-address = 127.0.0.1',
        'sudo ufw deny 3306/tcp',
        'nc -zv -w 5 wp.example.test 3306',
        'Header always set Strict-Transport-Security "max-age=300"',
        '33. The site says which WordPress version it runs (6.1.9)',
      ]),
    );
    expect(pdf.text).toContain('How to verify: From a network outside yours');
    // Inline code marks are dropped in print.
    expect(pdf.text).toContain('Restrict /server-status to the server itself (Require local) or turn mod_status off.');
  });

  it('is not in the PDF of a Basic Audit or a free report', async () => {
    for (const audit of [{ ...rangeAudit, ...premium, planType: 'basic' as const }, rangeAudit]) {
      const pdf = await readPdf(await renderPdfReport(buildAuditView(audit), options));
      expect(pdf.lines).not.toContain('Remediation plan');
    }
  });
});
