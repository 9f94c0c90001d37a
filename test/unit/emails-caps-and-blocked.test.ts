import { describe, expect, it } from 'vitest';
import type { GradeCap } from '../../lambdas/domain/audit.js';
import { buildAuditView, issueCounts } from '../../lambdas/domain/audit-view.js';
import { auditCompletedEmail } from '../../lambdas/domain/emails.js';
import { auditReportEmail } from '../../lambdas/domain/report-email.js';
import { sampleAudit } from '../../lambdas/domain/sample-report.js';
import { keptOut } from '../support/blocked-audit.js';

const brand = { productName: 'Rampart', siteUrl: 'https://rampart.example/' };
const caps: GradeCap[] = [
  { id: 'kev', limit: 59, reason: "A vulnerability known to be exploited in attacks (CISA's KEV catalog) is on the site: CVE-2020-11022 (jQuery 1.12.4 has known vulnerabilities)." },
  { id: 'no-https', limit: 69, reason: 'The site has no working HTTPS: port 443 does not answer with <TLS>.' },
];
const headline = 'We could not see your site: Cloudflare’s bot protection answered our scanner with a challenge (403) instead of the site.';
const base = { to: 'a@b.test', host: 'shop.example.com', auditId: 'abc-123', issues: issueCounts([]), coverage: { mode: 'active' as const, partial: true, notChecked: 4 } };

describe('the report-ready email', () => {
  it('names each grade cap under the score', () => {
    const mail = auditCompletedEmail(brand, { ...base, grade: 'F', score: 59, caps });
    expect(mail.text).toContain(`Score: 59/100\nGrade capped at F (59): ${caps[0]!.reason}\nGrade capped at D (69): ${caps[1]!.reason}\n`);
    expect(mail.html).toContain('Grade capped at D (69): The site has no working HTTPS: port 443 does not answer with &lt;TLS&gt;.<br>');
  });

  it('says first that the site blocked the scanner, and where the steps to let it in are', () => {
    const mail = auditCompletedEmail(brand, { ...base, grade: 'B', score: 89, blocked: headline });
    const text = mail.text.split('\n');
    expect(text.indexOf(`${headline} The report shows how to let the scanner in; then run the scan again.`)).toBeLessThan(text.indexOf('Grade: B (partial)'));
    expect(mail.html).toContain('We could not see your site: Cloudflare’s bot protection');
  });

  it('says neither when nothing capped the grade and the scanner saw the site', () => {
    const mail = auditCompletedEmail(brand, { ...base, grade: 'A', score: 95, coverage: { mode: 'active', partial: false, notChecked: 0 }, caps: [], blocked: null });
    expect(mail.text).not.toContain('Grade capped');
    expect(mail.text).not.toContain('could not see');
  });
});

describe('the emailed report', () => {
  it('carries the caps beside the score and the blocked sentence first', () => {
    const sample = sampleAudit('demo_x');
    const checks = sample.checks.map((check) => (check.name === 'http' ? keptOut('http') : check));
    const view = buildAuditView({ ...sample, checks, score: 59, grade: 'F', gradeCaps: caps });
    const mail = auditReportEmail(brand, { to: 'b@c.test', view });
    expect(mail.text).toContain(`Score: 59/100\nGrade capped at F (59): ${caps[0]!.reason}\nGrade capped at D (69): ${caps[1]!.reason}\nRisk level:`);
    expect(mail.text.indexOf(headline)).toBeLessThan(mail.text.indexOf('Grade: F'));
  });
});
