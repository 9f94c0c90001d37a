import { describe, expect, it } from 'vitest';
import type { Audit, Finding, Grade } from '../../lambdas/domain/audit.js';
import {
  buildDomainMonthReport,
  buildMonthlyReport,
  domainSummaryLine,
  monthBounds,
  monthlyReportEmail,
  monthlyReportFileName,
  monthlyReportPlanOf,
  owesMonthlyReport,
  previousMonth,
} from '../../lambdas/domain/monthly-report.js';
import { monthLabel, monthlyReportFileSchema } from '../../lambdas/domain/monthly-report.contract.js';
import type { StoredSubscription } from '../../lambdas/domain/ports.js';

const DOMAIN = 'shop.example.com';
const NOW = new Date('2026-11-01T00:15:00.000Z');

const finding = (id: string, severity: Finding['severity']): Finding => ({
  id,
  check: 'http',
  title: `Title of ${id}`,
  severity,
  category: 'Web Security',
  description: 'Planted.',
  recommendation: 'Fix it.',
});

/** A completed scan of the domain: its issues in the http check, a certificate on 443 (and 8443 when given). */
function scan(id: string, completedAt: string, findings: Finding[], score: number, grade: Grade, notAfter = '2026-12-01T00:00:00.000Z'): Audit {
  return {
    id,
    host: DOMAIN,
    targetUrl: `https://${DOMAIN}/`,
    status: 'completed',
    createdAt: completedAt,
    completedAt,
    score,
    grade,
    checks: [
      // The landing page loaded (DECISIONS "Rescan target": only such a scan resolves anything).
      { name: 'http', status: 'ok', findings, data: { url: `https://${DOMAIN}/`, analyzed: 'https', observatory: { statusCode: 200 } } },
      { name: 'tls', status: 'ok', findings: [], data: { ports: [{ port: 443, certificate: { notAfter, subject: `CN=${DOMAIN}`, daysLeft: 99 } }] } },
    ],
  };
}

const A = finding('http.a', 'high');
const B = finding('http.b', 'medium');
const C = finding('http.c', 'critical');
const D = finding('http.d', 'low');
const INFO = finding('http.info', 'info');

const subscription = (extra: Partial<StoredSubscription>): StoredSubscription => ({
  planId: 'monitor-lite',
  status: 'active',
  currentPeriodStart: '2026-10-03T00:00:00.000Z',
  currentPeriodEnd: '2026-11-03T00:00:00.000Z',
  source: 'stripe',
  ...extra,
});

describe('monthly report: which month, for whom', () => {
  it('reports the calendar month (UTC) before the run, across a year end', () => {
    expect(previousMonth(new Date('2026-11-01T00:00:00.000Z'))).toBe('2026-10');
    expect(previousMonth(new Date('2027-01-15T12:00:00.000Z'))).toBe('2026-12');
    expect(previousMonth(new Date('2026-10-31T23:59:59.999Z'))).toBe('2026-09');
    expect(monthBounds('2026-12')).toEqual({ start: new Date('2026-12-01T00:00:00.000Z'), end: new Date('2027-01-01T00:00:00.000Z') });
    expect(monthLabel('2026-10')).toBe('October 2026');
  });

  it('is sent for active Monitor Lite and Plus subscriptions (the demo plan included), never a trial or an ended plan', () => {
    expect(monthlyReportPlanOf(subscription({}))).toEqual({ planId: 'monitor-lite', planName: 'Monitor Lite', maxDomains: 6 });
    expect(monthlyReportPlanOf(subscription({ planId: 'monitor-plus', source: 'demo' }))).toEqual({ planId: 'monitor-plus', planName: 'Monitor Plus', maxDomains: 12 });
    expect(monthlyReportPlanOf(undefined)).toBeUndefined();
    for (const status of ['cancelled', 'expired', 'inactive', 'trial'] as const) expect(monthlyReportPlanOf(subscription({ status }))).toBeUndefined();
  });

  it('is owed to an account that existed before the month ended, and always to the demo account', () => {
    expect(owesMonthlyReport({ createdAt: '2026-10-31T23:59:59.000Z' }, '2026-10')).toBe(true);
    expect(owesMonthlyReport({ createdAt: '2026-11-01T00:00:00.000Z' }, '2026-10')).toBe(false);
    expect(owesMonthlyReport({ createdAt: '2026-11-01T00:00:00.000Z', isDemo: true }, '2026-10')).toBe(true);
  });

  it('names the PDF after the product and month, and reads only {yyyy-mm}.pdf from the path', () => {
    expect(monthlyReportFileName('Rampart Security', '2026-10')).toBe('rampart-security-monthly-report-2026-10.pdf');
    expect(monthlyReportFileSchema.parse('2026-10.pdf')).toBe('2026-10');
    for (const bad of ['2026-13.pdf', '2026-10', '2026-1.pdf', '../2026-10.pdf', '2026-10.pdf.exe']) expect(monthlyReportFileSchema.safeParse(bad).success).toBe(false);
  });
});

describe('monthly report: one domain’s month', () => {
  const baseline = scan('sep-28', '2026-09-28T10:00:00.000Z', [A, B, INFO], 90, 'A');
  const early = scan('oct-05', '2026-10-05T10:00:00.000Z', [A, B, C], 70, 'C');
  const late = scan('oct-20', '2026-10-20T10:00:00.000Z', [B, D], 90, 'A', '2026-11-10T00:00:00.000Z');
  const newer = scan('nov-01', '2026-11-01T00:05:00.000Z', [B], 95, 'A', '2027-02-01T00:00:00.000Z');
  const alerts = [
    { domain: DOMAIN, sentAt: '2026-10-05T10:01:00.000Z', channel: 'email' as const, summary: '1 new critical issue' },
    { domain: DOMAIN, sentAt: '2026-10-05T10:01:01.000Z', channel: 'sms' as const, summary: '1 new critical issue' },
    { domain: 'other.example.com', sentAt: '2026-10-06T10:00:00.000Z', channel: 'email' as const, summary: 'not this domain' },
    { domain: DOMAIN, sentAt: '2026-09-30T10:00:00.000Z', channel: 'email' as const, summary: 'the month before' },
  ];

  it('marks the open issues their owner accepted or muted, with the reason, and counts them all the same', () => {
    // Act
    const report = buildDomainMonthReport({
      domain: DOMAIN,
      month: '2026-10',
      scans: [late],
      latest: newer,
      alerts: [],
      policies: [
        { findingId: 'http.b', action: 'mute', reason: 'Fixed in the next release', expiresAt: '2026-12-01T00:00:00.000Z' },
        { findingId: 'http.zzz', action: 'accept', reason: 'Not on this site' },
      ],
      now: NOW,
    });

    // Assess
    expect(report.openIssues).toEqual({
      asOf: '2026-11-01T00:05:00.000Z',
      counts: { critical: 0, high: 0, medium: 1, low: 0 },
      total: 1,
      listed: [{ title: 'Title of http.b', severity: 'medium', policy: { action: 'mute', reason: 'Fixed in the next release', expiresAt: '2026-12-01T00:00:00.000Z' } }],
    });
  });

  it('gives start and end scores, the month’s scans, issues found and resolved, its alerts, open issues, certificate and badge', () => {
    // Act
    const report = buildDomainMonthReport({
      domain: DOMAIN,
      month: '2026-10',
      baseline,
      // Out of order, and one from outside the month: it must be left out.
      scans: [late, early, scan('sep-15', '2026-09-15T00:00:00.000Z', [], 100, 'A')],
      latest: newer,
      alerts,
      badge: { eligible: false, reasons: ['Reach a score of 60 or more'] },
      now: NOW,
    });

    // Assess
    expect(report.start).toEqual({ auditId: 'sep-28', at: '2026-09-28T10:00:00.000Z', score: 90, grade: 'A' });
    expect(report.end).toEqual({ auditId: 'oct-20', at: '2026-10-20T10:00:00.000Z', score: 90, grade: 'A' });
    expect(report.scans.map((s) => [s.auditId, s.score, s.grade])).toEqual([
      ['oct-05', 70, 'C'],
      ['oct-20', 90, 'A'],
    ]);
    expect(report.issuesFound.map((e) => [e.findingId, e.severity, e.at])).toEqual([
      ['http.c', 'critical', '2026-10-05T10:00:00.000Z'],
      ['http.d', 'low', '2026-10-20T10:00:00.000Z'],
    ]);
    expect(report.issuesResolved.map((e) => [e.findingId, e.severity, e.at])).toEqual([
      ['http.c', 'critical', '2026-10-20T10:00:00.000Z'],
      ['http.a', 'high', '2026-10-20T10:00:00.000Z'],
    ]);
    expect(report.alerts).toEqual([
      { sentAt: '2026-10-05T10:01:00.000Z', channel: 'email', summary: '1 new critical issue' },
      { sentAt: '2026-10-05T10:01:01.000Z', channel: 'sms', summary: '1 new critical issue' },
    ]);
    // Open issues, certificate: the latest scan at the time of building, not the month's last.
    expect(report.openIssues).toEqual({ asOf: '2026-11-01T00:05:00.000Z', counts: { critical: 0, high: 0, medium: 1, low: 0 }, total: 1, listed: [{ title: 'Title of http.b', severity: 'medium' }] });
    expect(report.certificate).toEqual({ validTo: '2027-02-01T00:00:00.000Z', daysLeft: 91, expired: false, subject: `CN=${DOMAIN}`, ports: [443] });
    expect(report.badge).toEqual({ eligible: false, reasons: ['Reach a score of 60 or more'] });
  });

  it('takes the month’s first scan as the start when the domain had none before, with its issues as found', () => {
    const report = buildDomainMonthReport({ domain: DOMAIN, month: '2026-10', scans: [early, late], alerts: [], now: NOW });

    expect(report.start?.auditId).toBe('oct-05');
    expect(report.end?.auditId).toBe('oct-20');
    expect(report.issuesFound.map((e) => e.findingId)).toEqual(['http.c', 'http.a', 'http.b', 'http.d']);
    expect(report.issuesResolved.map((e) => e.findingId)).toEqual(['http.c', 'http.a']);
    // Without a newer scan the month's last one is "now"; its certificate expires in 9 days.
    expect(report.openIssues.counts).toEqual({ critical: 0, high: 0, medium: 1, low: 1 });
    expect(report.certificate).toMatchObject({ validTo: '2026-11-10T00:00:00.000Z', daysLeft: 8, expired: false });
    expect(report.badge).toBeNull();
  });

  it('keeps the start score as the end when nothing was scanned in the month', () => {
    const report = buildDomainMonthReport({ domain: DOMAIN, month: '2026-10', baseline, scans: [], alerts: [], now: NOW });

    expect(report.start?.auditId).toBe('sep-28');
    expect(report.end?.auditId).toBe('sep-28');
    expect([report.scans, report.issuesFound, report.issuesResolved]).toEqual([[], [], []]);
    expect(report.openIssues.total).toBe(2);
  });

  it('says so for a domain never scanned, and marks an expired certificate', () => {
    const never = buildDomainMonthReport({ domain: DOMAIN, month: '2026-10', scans: [], alerts: [], now: NOW });
    expect(never).toMatchObject({ start: null, end: null, scans: [], certificate: null, openIssues: { asOf: null, total: 0 } });

    const expired = buildDomainMonthReport({ domain: DOMAIN, month: '2026-10', scans: [scan('x', '2026-10-02T00:00:00.000Z', [], 100, 'A', '2026-10-30T00:00:00.000Z')], alerts: [], now: NOW });
    expect(expired.certificate).toMatchObject({ expired: true, daysLeft: -3 });
  });
});

describe('monthly report: the email', () => {
  const domain = buildDomainMonthReport({
    domain: DOMAIN,
    month: '2026-10',
    baseline: scan('sep-28', '2026-09-28T10:00:00.000Z', [A, B], 90, 'A'),
    scans: [scan('oct-05', '2026-10-05T10:00:00.000Z', [A, B, C], 70, 'C')],
    alerts: [{ domain: DOMAIN, sentAt: '2026-10-05T10:01:00.000Z', channel: 'email', summary: '1 new critical issue' }],
    now: NOW,
  });
  const report = buildMonthlyReport({ month: '2026-10', generatedAt: NOW.toISOString(), recipient: { name: 'Ada <Tester>', email: 'ada@example.com', company: '' }, planName: 'Monitor Lite', domains: [domain] });
  const input = { productName: 'Rampart', reportsUrl: 'https://rampart.example/dashboard/subscription', unsubscribeUrl: 'https://rampart.example/api/alerts/unsubscribe?token=v1.x.y', firstName: 'Ada', fileName: 'rampart-monthly-report-2026-10.pdf', report };

  it('summarises each domain in one line', () => {
    expect(domainSummaryLine(domain)).toBe(`${DOMAIN}: score 90 (A) -> 70 (C); 1 scan, 1 issue found, 0 resolved, 1 alert; open issues now: 1 critical, 1 high, 1 medium, 0 low.`);
  });

  it('names the month, the attachment, where the reports are, why it came and how to unsubscribe, in text and escaped HTML', () => {
    const email = monthlyReportEmail(input);

    expect(email.subject).toBe('Rampart monthly security report: October 2026');
    expect(email.text).toContain('Your Rampart security report for October 2026 is attached (rampart-monthly-report-2026-10.pdf).');
    expect(email.text).toContain(domainSummaryLine(domain));
    expect(email.text).toContain(`Your monthly reports are also in your dashboard: ${input.reportsUrl}`);
    expect(email.text).toContain(`You get this email because 'Email alerts' is on in your Rampart notification settings. Change your notification settings or unsubscribe: ${input.unsubscribeUrl}`);
    expect(email.html).toContain(`href="${input.unsubscribeUrl}"`);
    expect(email.html).toContain('score 90 (A) -&gt; 70 (C)');
  });

  it("quotes an IT provider's name in the body and keeps it out of the subject", () => {
    const email = monthlyReportEmail({ ...input, preparedBy: 'Microsoft 365 Security: verify at https://evil.example' });
    expect(email.subject).toBe('Rampart monthly security report: October 2026');
    expect(email.text).toContain('Your security report for October 2026, prepared by your IT provider "Microsoft 365 Security: verify at https://evil.example", is attached');
  });

  it('says when no domain was monitored', () => {
    const email = monthlyReportEmail({ ...input, report: { ...report, domains: [] } });
    expect(email.text).toContain('No verified domain was monitored in October 2026.');
  });
});
