import { describe, expect, it } from 'vitest';
import { accountCodeEmail, accountCreatedEmail, auditCompletedEmail, verificationCodeEmail } from '../../lambdas/domain/emails.js';
import { issueCounts } from '../../lambdas/domain/audit-view.js';
import type { Finding } from '../../lambdas/domain/audit.js';
import { findingGroupLines, findingGroupsOf } from '../../lambdas/domain/finding-groups.js';

const brand = { productName: 'Rampart', siteUrl: 'https://rampart.example/' };

describe('emails', () => {
  it('send the verification code with the site and its validity', () => {
    const mail = verificationCodeEmail(brand, { to: 'a@b.test', firstName: 'Ada', code: '042917', site: 'example.com', validMinutes: 10 });
    expect(mail.subject).toBe('Your Rampart verification code');
    expect(mail.text).toContain('Your verification code for scanning example.com is: 042917');
    expect(mail.text).toContain('valid for 10 minutes');
    expect(mail.html).toContain('042917');
  });

  it('send a one-time link to choose a password, never a password, with how long it works and what to do after (issue 29 item 4)', () => {
    const link = 'https://rampart.example/auth/set-password#token=abc<x>';
    const mail = accountCreatedEmail(brand, { to: 'ada@example.com', firstName: 'Ada', setPasswordUrl: link, validHours: 72 });
    expect(mail.subject).toBe('Your Rampart account: choose your password');
    expect(mail.text).toContain('We keep your security reports in a Rampart account for you, under ada@example.com.');
    expect(mail.text).toContain(`Choose your password: ${link}`);
    expect(mail.text).toContain('This link works once, for 72 hours. After that, use "Forgot password" at https://rampart.example/auth/login.');
    expect(mail.text).not.toMatch(/temporary password/i);
    expect(mail.html).toContain('href="https://rampart.example/auth/set-password#token=abc&lt;x&gt;"');
  });

  it('report a completed audit with grade, score, issues by severity (info not counted) and the report link', () => {
    const finding = (severity: Finding['severity']) => ({ severity }) as Finding;
    const issues = issueCounts([finding('critical'), finding('high'), finding('high'), finding('low'), finding('info')]);
    const coverage = { mode: 'active' as const, partial: false, notChecked: 0 };
    const mail = auditCompletedEmail(brand, { to: 'a@b.test', host: 'shop.example.com', auditId: 'abc-123', grade: 'D', score: 65, issues, coverage });
    expect(issues).toEqual({ critical: 1, high: 2, medium: 0, low: 1 });
    expect(mail.subject).toBe('Your Rampart security report for shop.example.com: grade D');
    expect(mail.text).toContain('Score: 65/100');
    expect(mail.text).toContain('Issues found: 4 (Critical: 1, High: 2, Medium: 0, Low: 1)');
    expect(mail.text).toContain('View the full report: https://rampart.example/results/abc-123');
    expect(mail.text).toContain('Full scan: every check ran.');
  });

  it('give the same issues by what to do, as the report groups them, adding up to the issue count (issue 29 item 7)', () => {
    const findings = [
      { id: 'a', severity: 'critical' },
      { id: 'b', severity: 'medium', cveDetails: [{ exploited: true }] },
      { id: 'c', severity: 'high' },
      { id: 'd', severity: 'low' },
      { id: 'e', severity: 'info' },
    ] as Finding[];
    const coverage = { mode: 'active' as const, partial: false, notChecked: 0 };
    const mail = auditCompletedEmail(brand, { to: 'a@b.test', host: 'shop.example.com', auditId: 'abc', grade: 'D', score: 60, issues: issueCounts(findings), groupLines: findingGroupLines(findingGroupsOf(findings)), coverage });
    expect(mail.text).toContain(
      ['Issues found: 4 (Critical: 1, High: 1, Medium: 1, Low: 1)', '- Fix now: 2 (1 critical, 1 medium; 1 known exploited)', '- Fix this month: 1 (1 high)', '- Good practice: 1 (1 low)'].join('\n'),
    );
    expect(mail.html).toContain('<br>Fix now: 2 (1 critical, 1 medium; 1 known exploited)<br>Fix this month: 1 (1 high)<br>Good practice: 1 (1 low)');
  });

  it('say that a passive report is partial, how much was not checked, and how to unlock it (DECISIONS "Scan modes")', () => {
    const issues = issueCounts([]);
    const mail = auditCompletedEmail(brand, { to: 'a@b.test', host: 'shop.example.com', auditId: 'abc-123', grade: 'B', score: 89, issues, coverage: { mode: 'passive', partial: true, notChecked: 9 } });
    expect(mail.subject).toBe('Your Rampart security report for shop.example.com: grade B (partial)');
    expect(mail.text).toContain('Grade: B (partial)');
    expect(mail.text).toContain('This was a passive scan (a partial report)');
    expect(mail.text).toContain('so 9 checks were not run');
    expect(mail.text).toContain('Prove that you control the site from the report to unlock the full scan.');
    expect(mail.html).toContain('This was a passive scan (a partial report)');
    const failed = auditCompletedEmail(brand, { to: 'a@b.test', host: 'shop.example.com', auditId: 'abc-123', grade: 'B', score: 89, issues, coverage: { mode: 'active', partial: true, notChecked: 1 } });
    expect(failed.text).toContain('Full scan, but 1 check did not finish');
  });

  it('escape what people typed in the HTML version', () => {
    const mail = accountCreatedEmail(brand, { to: 'a@b.test', firstName: '<script>x</script>', setPasswordUrl: 'https://rampart.example/auth/set-password#token=t', validHours: 72 });
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&lt;script&gt;');
  });

  it.each([
    ['sign-up', 'Your Rampart verification code', 'Your verification code is: 123456', 'finish creating your account'],
    ['forgot-password', 'Your Rampart password reset code', 'Your password reset code is: 123456', 'with your new password'],
    ['temporary-password', 'Your Rampart temporary password', 'Your temporary password is: 123456', 'choose a new password'],
    ['verify-email', 'Your Rampart verification code', 'Your verification code is: 123456', 'confirm your new email address'],
  ] as const)("send the user pool's %s code with its own subject and next step", (kind, subject, line, next) => {
    const mail = accountCodeEmail(brand, { to: 'a@b.test', kind, code: '123456' });
    expect([mail.to, mail.subject]).toEqual(['a@b.test', subject]);
    expect(mail.text).toContain(line);
    expect(mail.text).toContain(next);
    expect(mail.html).toContain('>123456</span>');
  });

  it("keep Cognito's {####} placeholder whole, for the AWS pool's template", () => {
    expect(accountCodeEmail(brand, { to: '', kind: 'sign-up', code: '{####}' }).html).toContain('{####}');
  });
});
