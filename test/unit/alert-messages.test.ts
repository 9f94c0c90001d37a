import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  alertableChanges,
  alertEmail,
  alertPreferenceFor,
  alertSms,
  changeSummaryParts,
  isGsm7,
  SMS_MAX_LENGTH,
  scanCompletedEmail,
  smsLength,
} from '../../lambdas/domain/alert-messages.js';
import type { Audit } from '../../lambdas/domain/audit.js';
import {
  type CertificateExpiringChange,
  diffScans,
  type FindingNewChange,
  type FindingResolvedChange,
  type GradeChangedChange,
  type KevMatchChange,
  type MonitoringChange,
  type PortOpenedChange,
} from '../../lambdas/domain/monitoring-diff.js';
import { allElements, parseHtml } from './support/markup-parser.js';

const domain = 'shop.example.com';
const reportUrl = 'https://rampart.example/results/7d4f0c1e-2b9a-4c3d-8e5f-0a1b2c3d4e5f';
const unsubscribeUrl = 'https://rampart.example/unsubscribe?token=abc&kind=alerts';
const base = { domain, dedupeKey: 'key' };

const newIssue = (findingId: string, severity: FindingNewChange['severity'], title = `Title ${findingId}`): FindingNewChange => ({
  ...base,
  type: 'finding_new',
  findingId,
  title,
  severity,
  category: 'Web Security',
});
const resolved: FindingResolvedChange = { ...base, type: 'finding_resolved', findingId: 'http.trace-enabled', title: 'HTTP TRACE is enabled', severity: 'medium', category: 'Web Security' };
const gradeDown: GradeChangedChange = { ...base, type: 'grade_changed', from: 'B', to: 'C', direction: 'down', fromScore: 84, toScore: 72 };
const certificate: CertificateExpiringChange = {
  ...base,
  type: 'certificate_expiring',
  threshold: 14,
  daysLeft: 12,
  notAfter: '2026-12-20T00:00:00.000Z',
  subject: 'CN=shop.example.com',
  ports: [443, 8443],
  expired: false,
};
const port: PortOpenedChange = { ...base, type: 'port_opened', port: 3389, service: 'ms-wbt-server', risk: 'high' };
const kev: KevMatchChange = {
  ...base,
  type: 'kev_match',
  cveId: 'CVE-2021-41773',
  product: 'apache_http_server',
  productName: 'Apache HTTP Server',
  version: '2.4.49',
  kevDateAdded: '2021-11-03',
  ransomware: true,
  cvssScore: 9.8,
  distribution: 'Debian',
  detectedBy: 'knowledge-base',
};
const everything: MonitoringChange[] = [kev, port, gradeDown, resolved, certificate, newIssue('http.b', 'medium'), newIssue('http.a', 'critical')];

describe('alert preferences', () => {
  it('puts findings, ports, grade and certificate under email alerts, and exploited CVEs under security updates', () => {
    expect(everything.map((change) => [change.type, alertPreferenceFor(change)])).toEqual([
      ['kev_match', 'securityUpdates'],
      ['port_opened', 'emailAlerts'],
      ['grade_changed', 'emailAlerts'],
      ['finding_resolved', 'emailAlerts'],
      ['certificate_expiring', 'emailAlerts'],
      ['finding_new', 'emailAlerts'],
      ['finding_new', 'emailAlerts'],
    ]);
  });

  it('keeps only the changes the user asked to hear about', () => {
    expect(alertableChanges(everything, { emailAlerts: false, securityUpdates: true })).toEqual([kev]);
    expect(alertableChanges(everything, { emailAlerts: true, securityUpdates: false })).toHaveLength(everything.length - 1);
    expect(alertableChanges(everything, { emailAlerts: false, securityUpdates: false })).toEqual([]);
  });
});

describe('alert summary', () => {
  it('puts the most urgent first: new issues, exploited CVEs, certificate, ports, grade, resolved', () => {
    expect(changeSummaryParts(everything)).toEqual([
      '2 new issues (1 critical)',
      'CVE-2021-41773 exploited in the wild',
      'certificate expires in 12 days',
      'port 3389 opened',
      'grade B→C',
      '1 issue resolved',
    ]);
  });

  it('counts the new critical and high issues, and several CVEs, ports and resolved issues', () => {
    const changes: MonitoringChange[] = [
      newIssue('a', 'high'),
      newIssue('b', 'low'),
      newIssue('c', 'critical'),
      newIssue('d', 'high'),
      kev,
      { ...kev, cveId: 'CVE-2021-42013' },
      port,
      { ...port, port: 23 },
      resolved,
      { ...resolved, findingId: 'x' },
    ];

    expect(changeSummaryParts(changes, '->')).toEqual(['4 new issues (1 critical, 2 high)', '2 newly exploited vulnerabilities', '2 new open ports', '2 issues resolved']);
  });

  it('names the most urgent certificate, and says when it has expired', () => {
    expect(changeSummaryParts([{ ...certificate, daysLeft: 1 }])).toEqual(['certificate expires in 1 day']);
    expect(changeSummaryParts([certificate, { ...certificate, daysLeft: -2, expired: true }])).toEqual(['certificate expired']);
  });
});

describe('alert SMS', () => {
  it('is one short GSM text with the product, domain, summary and report link', () => {
    const sms = alertSms({ productName: 'Rampart', domain, changes: [newIssue('a', 'medium'), gradeDown, newIssue('b', 'critical')], reportUrl });

    expect(sms).toBe(`Rampart: shop.example.com - 2 new issues (1 critical), grade B->C. ${reportUrl}`);
    expect(isGsm7(sms)).toBe(true);
    expect(smsLength(sms)).toEqual({ length: sms.length, limit: SMS_MAX_LENGTH });
    expect(sms.length).toBeLessThanOrEqual(160);
  });

  it('drops the least urgent parts to stay within 160 characters, and never cuts the link', () => {
    const shortLink = 'https://rampart.example/r/7d4f0c1e';

    const sms = alertSms({ productName: 'Rampart', domain, changes: everything, reportUrl: shortLink });
    const longer = alertSms({ productName: 'Rampart', domain: 'customer-portal.shop.example.com.au', changes: everything, reportUrl });

    expect(sms).toBe(`Rampart: shop.example.com - 2 new issues (1 critical), CVE-2021-41773 exploited in the wild and more. ${shortLink}`);
    expect(sms.length).toBeLessThanOrEqual(160);
    expect(longer).toBe(`Rampart: customer-portal.shop.example.com.au - 2 new issues (1 critical) and more. ${reportUrl}`);
    expect(longer.length).toBeLessThanOrEqual(160);
    expect(isGsm7(sms) && isGsm7(longer)).toBe(true);
  });

  it('keeps the most urgent part even when nothing makes it fit', () => {
    const longUrl = `https://rampart.example/results/${'x'.repeat(150)}`;

    const sms = alertSms({ productName: 'Rampart', domain, changes: everything, reportUrl: longUrl });

    expect(sms).toBe(`Rampart: shop.example.com - 2 new issues (1 critical) and more. ${longUrl}`);
  });

  it('tells of a newly exploited CVE alone', () => {
    expect(alertSms({ productName: 'Rampart', domain, changes: [kev], reportUrl })).toBe(`Rampart: shop.example.com - CVE-2021-41773 exploited in the wild. ${reportUrl}`);
  });

  it('counts by the alphabet the text needs: extension characters twice, 70 once outside GSM', () => {
    expect(smsLength('a[b]')).toEqual({ length: 6, limit: 160 });
    expect(smsLength('grade B→C')).toEqual({ length: 9, limit: 70 });
    expect(isGsm7('Café £5 @ 10:00')).toBe(true);
  });

  it('shortens further for a product name outside the GSM alphabet (70 per segment)', () => {
    const sms = alertSms({ productName: 'Rampart™', domain, changes: everything, reportUrl: 'https://r.example/x' });

    expect(sms).toBe('Rampart™: shop.example.com - 2 new issues (1 critical) and more. https://r.example/x');
    expect(smsLength(sms).limit).toBe(70);
  });

  it('refuses to make an alert of no changes', () => {
    expect(() => alertSms({ productName: 'Rampart', domain, changes: [], reportUrl })).toThrow(expect.objectContaining({ code: 'alert_without_changes' }));
  });
});

describe('alert email', () => {
  const mail = () => alertEmail({ productName: 'Rampart', domain, changes: everything, reportUrl, unsubscribeUrl });

  it('has the summary as its subject', () => {
    expect(alertEmail({ productName: 'Rampart', domain, changes: [newIssue('a', 'medium'), gradeDown, newIssue('b', 'critical')], reportUrl, unsubscribeUrl }).subject).toBe(
      'Rampart alert for shop.example.com: 2 new issues (1 critical), grade B→C',
    );
    expect(mail().subject.length).toBeLessThanOrEqual(120);
    expect(mail().subject).toMatch(/^Rampart alert for shop\.example\.com: 2 new issues \(1 critical\), .* and more$/);
  });

  it('opens with the summary line and groups the changes: new issues worst first, resolved, grade, certificate, ports, exploited CVEs', () => {
    const { text } = mail();

    const lines = text.split('\n');
    expect(lines[0]).toBe(
      'Changes on shop.example.com since the last scan: 2 new issues (1 critical), CVE-2021-41773 exploited in the wild, certificate expires in 12 days, port 3389 opened, grade B→C, 1 issue resolved.',
    );
    const headings = ['New issues (2)', 'Resolved (1)', 'Grade', 'Certificate', 'New open ports (1)', 'Exploited vulnerabilities (1)'];
    expect(headings.map((heading) => lines.indexOf(heading))).toEqual([...headings.map((heading) => lines.indexOf(heading))].sort((a, b) => a - b));
    expect(headings.every((heading) => lines.includes(heading))).toBe(true);
    expect(lines.slice(lines.indexOf('New issues (2)') + 1, lines.indexOf('New issues (2)') + 3)).toEqual(['- [Critical] Title http.a (Web Security)', '- [Medium] Title http.b (Web Security)']);
  });

  it('says what each change means in plain words', () => {
    const { text } = mail();

    expect(text).toContain('- HTTP TRACE is enabled (was medium)');
    expect(text).toContain('- The grade went down from B to C (score 84 → 72).');
    expect(text).toContain('- The TLS certificate for CN=shop.example.com on ports 443 and 8443 expires in 12 days, on 20 Dec 2026. Renew it before then.');
    expect(text).toContain('- Port 3389 (ms-wbt-server, high risk) is now open to the internet.');
    expect(text).toContain(
      "- CVE-2021-41773 in Apache HTTP Server 2.4.49 is now known to be exploited in the wild (CISA KEV, listed 3 Nov 2021). It is used in ransomware campaigns. Update Apache HTTP Server now. Apache HTTP Server comes from Debian packages, which may already carry the fix: check the distribution's security tracker.",
    );
  });

  it('says when the certificate has already expired', () => {
    const { text } = alertEmail({ productName: 'Rampart', domain, changes: [{ ...certificate, daysLeft: -1, expired: true, ports: [443], subject: null }], reportUrl, unsubscribeUrl });

    expect(text).toContain('- The TLS certificate on port 443 expired on 20 Dec 2026. Visitors see a security warning until it is replaced.');
  });

  it('links the report and the unsubscribe page in both versions, naming the settings that sent it', () => {
    const { text, html } = mail();
    const body = parseHtml(html);

    expect(text).toContain(`View the report: ${reportUrl}`);
    expect(text).toContain(`Change them or unsubscribe: ${unsubscribeUrl}`);
    expect(text).toContain("because 'Email alerts' and 'Security updates' are on in your Rampart notification settings");
    expect(Array.from(body.querySelectorAll('a')).map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['View the report', reportUrl],
      ['Unsubscribe or change your notification settings', unsubscribeUrl],
    ]);
  });

  it('names only security updates when the alert is only an exploited CVE', () => {
    const { text } = alertEmail({ productName: 'Rampart', domain, changes: [kev], reportUrl, unsubscribeUrl });

    expect(text).toContain("because 'Security updates' is on");
    expect(text).not.toContain('Email alerts');
  });

  it('escapes what came from scanned sites and loads nothing from outside', () => {
    const hostile = newIssue('http.x', 'high', '<img src=x onerror=alert(1)> & "quotes"');

    const { html } = alertEmail({ productName: 'Rampart', domain, changes: [hostile], reportUrl, unsubscribeUrl });
    const body = parseHtml(html);

    expect(body.querySelectorAll('img')).toHaveLength(0);
    expect(body.querySelector('li')!.textContent).toBe('High <img src=x onerror=alert(1)> & "quotes" (Web Security)');
    expect(allElements(body).filter((e) => ['img', 'script', 'link', 'iframe', 'style'].includes(e.localName))).toEqual([]);
    expect(html).not.toMatch(/url\(|src="/);
  });

  it('shows the HTML sections with the same headings and items as the text', () => {
    const body = parseHtml(mail().html);

    expect(Array.from(body.querySelectorAll('h2')).map((h) => h.textContent)).toEqual(['New issues (2)', 'Resolved (1)', 'Grade', 'Certificate', 'New open ports (1)', 'Exploited vulnerabilities (1)']);
    expect(body.querySelectorAll('li')).toHaveLength(everything.length);
  });

  it('refuses to make an alert of no changes', () => {
    expect(() => alertEmail({ productName: 'Rampart', domain, changes: [], reportUrl, unsubscribeUrl })).toThrow(expect.objectContaining({ code: 'alert_without_changes' }));
  });
});

describe('scan completed email', () => {
  const input = {
    productName: 'Rampart',
    domain,
    completedAt: '2026-11-22T03:00:00.000Z',
    grade: 'B' as const,
    score: 84,
    issues: { critical: 0, high: 1, medium: 1, low: 1 },
    changeCount: 0,
    reportUrl,
    unsubscribeUrl,
  };

  it('gives the grade, score, issues and whether anything changed, with the report and unsubscribe links', () => {
    const mail = scanCompletedEmail(input);

    expect(mail.subject).toBe('Rampart: scan of shop.example.com completed — grade B (84/100)');
    expect(mail.text.split('\n').slice(0, 4)).toEqual([
      'The scheduled scan of shop.example.com completed on 22 Nov 2026.',
      'Grade B, score 84/100.',
      'Issues: 3 (0 critical, 1 high, 1 medium, 1 low).',
      'Nothing changed since the previous scan.',
    ]);
    expect(mail.text).toContain(`View the report: ${reportUrl}`);
    expect(mail.text).toContain("'Scan completions' is on");
    expect(Array.from(parseHtml(mail.html).querySelectorAll('a')).map((a) => a.getAttribute('href'))).toEqual([reportUrl, unsubscribeUrl]);
  });

  it('counts the changes found, and says so when there is no grade', () => {
    const mail = scanCompletedEmail({ ...input, grade: null, score: null, changeCount: 3 });

    expect(mail.subject).toBe('Rampart: scan of shop.example.com completed — no grade');
    expect(mail.text).toContain('The scan produced no grade.');
    expect(mail.text).toContain('3 changes since the previous scan.');
  });

  it('escapes the product name in HTML', () => {
    const { html } = scanCompletedEmail({ ...input, productName: '<b>Shield</b>' });

    expect(html).not.toContain('<b>Shield</b>');
    expect(parseHtml(html).textContent).toContain('<b>Shield</b>');
  });
});

describe('alerts for a stored scan compared with the one before', () => {
  it('tell exactly what was planted, once by SMS and once by email', () => {
    const stored = JSON.parse(readFileSync(new URL('../fixtures/audits/range-wordpress.json', import.meta.url), 'utf8')) as Audit;
    const previous = { ...structuredClone(stored), id: 'before', grade: 'B' as const, score: 85, completedAt: '2026-11-21T03:00:00.000Z' };
    const current = { ...structuredClone(stored), id: 'after', grade: 'C' as const, score: 70, completedAt: '2026-11-22T03:00:00.000Z' };
    current.checks.find((c) => c.name === 'http')!.findings.push({
      id: 'http.cookies.no-secure',
      check: 'http',
      title: 'Session cookie sent without Secure',
      severity: 'critical',
      category: 'Web Security',
      description: 'Planted.',
      recommendation: 'Set Secure.',
    });

    const changes = diffScans({ previous, current });

    expect(alertSms({ productName: 'Rampart', domain: current.host, changes, reportUrl })).toBe(`Rampart: wp.example.test - 1 new issue (1 critical), grade B->C. ${reportUrl}`);
    expect(alertEmail({ productName: 'Rampart', domain: current.host, changes, reportUrl, unsubscribeUrl }).text.split('\n').slice(0, 5)).toEqual([
      'Changes on wp.example.test since the last scan: 1 new issue (1 critical), grade B→C.',
      '',
      'New issues (1)',
      '- [Critical] Session cookie sent without Secure (Web Security)',
      '',
    ]);
  });
});
