import { describe, expect, it } from 'vitest';
import { auditWith, rangeWordPressAudit, testFinding } from '../support/audit-fixtures.js';
import type { CheckResult, CveDetail } from '../../lambdas/domain/audit.js';
import { auditFindings, buildAuditView } from '../../lambdas/domain/audit-view.js';
import { PASSIVE_REASON } from '../../lambdas/domain/coverage.js';
import { fixAdvice } from '../../lambdas/domain/fix-advice.js';
import { riskScore } from '../../lambdas/domain/scoring.js';

/** Issue 29 items 7 and 8: the view's owner groups, plain-words fixes and not-checked reasons. */

const rangeAudit = rangeWordPressAudit();

const finding = testFinding;


const kev: CveDetail = { id: 'CVE-2021-41773', cvssScore: 7.5, severity: 'high', exploited: true, kevDateAdded: '2021-11-03', fixedIn: '2.4.50' };

describe('the owner groups of the range WordPress report (issue 29 item 7)', () => {
  const view = buildAuditView(rangeAudit);
  const groups = view.finding_groups!;
  const byId = Object.fromEntries(groups.groups.map((g) => [g.id, g]));

  it('puts high and medium issues under "Fix this month", low under "Good practice", observations apart', () => {
    expect(groups.groups.map((g) => [g.title, g.total, g.counts])).toEqual([
      ['Fix now', 0, { critical: 0, high: 0, medium: 0, low: 0 }],
      ['Fix this month', 20, { critical: 0, high: 7, medium: 13, low: 0 }],
      ['Good practice', 13, { critical: 0, high: 0, medium: 0, low: 13 }],
    ]);
    expect(groups.observations).toBe(7);
    expect(byId['fix-this-month']!.findingIds).toContain('http.csp.missing');
    expect(byId['good-practice']!.findingIds).toContain('http.xcto.missing');
  });

  it('has counts that add up to what the score formula counted', () => {
    const issues = auditFindings(rangeAudit).filter((f) => f.severity !== 'info');
    expect(groups.scoreInputs).toEqual({ critical: 0, highMediumLow: 33, deducted: 165 });
    expect(100 - groups.scoreInputs.deducted).toBe(-65);
    expect(riskScore(issues)).toBe(Math.max(0, 100 - groups.scoreInputs.deducted));
    expect(groups.groups.reduce((sum, g) => sum + g.total, 0)).toBe(view.counters.totalIssues);
    expect(groups.groups.flatMap((g) => g.findingIds).sort()).toEqual(view.vulnerability_summary.vulnerabilities.map((v) => v.id).sort());
  });
});

describe('a known-exploited vulnerability (KEV) is "Fix now" whatever its severity', () => {
  it('groups a high finding with a KEV CVE and a critical one under "Fix now", counted once, and matches the score', () => {
    // Prepare
    const audit = auditWith([
      {
        name: 'software',
        status: 'ok',
        findings: [finding('cve.apache_http_server', 'high', { check: 'software', cves: [kev.id], cveDetails: [kev] })],
        data: {},
      },
      { name: 'http', status: 'ok', findings: [finding('http.trace-enabled', 'critical'), finding('http.hsts', 'medium'), finding('http.xcto.missing', 'low'), finding('dns.resolve.no-ipv6', 'info')] },
    ]);

    // Act
    const view = buildAuditView(audit);
    const groups = view.finding_groups!;

    // Assess
    const [now, month, practice] = groups.groups;
    expect(now).toMatchObject({ id: 'fix-now', total: 2, exploited: 1, counts: { critical: 1, high: 1, medium: 0, low: 0 }, findingIds: ['http.trace-enabled', 'cve.apache_http_server'] });
    expect(month).toMatchObject({ id: 'fix-this-month', total: 1, exploited: 0, findingIds: ['http.hsts'] });
    expect(practice).toMatchObject({ id: 'good-practice', total: 1, findingIds: ['http.xcto.missing'] });
    expect(groups.observations).toBe(1);
    expect(groups.scoreInputs).toEqual({ critical: 1, highMediumLow: 3, deducted: 35 });
    expect(riskScore(auditFindings(audit))).toBe(100 - groups.scoreInputs.deducted);
  });
});

describe('fix advice in plain words first (issue 29 item 8)', () => {
  it('says what the CSP change does before its raw header value, which it keeps whole as the technical line', () => {
    const csp = buildAuditView(rangeAudit).vulnerability_summary.vulnerabilities.find((v) => v.id === 'http.csp.missing')!;
    expect(csp.fix!.plain).toBe('Tells visitors’ browsers to run only the scripts and content your site really uses, so a script an attacker slips into a page cannot run.');
    expect(csp.fix!.plain).not.toContain("'self'");
    expect(csp.fix!.technical).toBe(csp.recommendation);
    expect(csp.fix!.technical).toContain("default-src 'self'");
  });

  it('gives every range issue a plain sentence without raw values', () => {
    const view = buildAuditView(rangeAudit);
    for (const v of view.vulnerability_summary.vulnerabilities) expect({ id: v.id, plain: v.fix!.plain }).not.toMatchObject({ plain: expect.stringMatching(/`|'self'|=\S/) });
    const caa = view.observations.find((o) => o.id === 'dns.caa.missing')!;
    expect(caa.fix).toEqual({ plain: 'Lets only the certificate authority you chose issue certificates for your domain.', technical: caa.recommendation });
  });

  it('splits an unknown finding: sentences without raw values first, those with them as the technical line; plain advice has none', () => {
    expect(fixAdvice({ id: 'x.y', recommendation: 'Restrict it to the server itself (`Require local`). No website needs it.' })).toEqual({
      plain: 'No website needs it.',
      technical: 'Restrict it to the server itself (`Require local`).',
    });
    expect(fixAdvice({ id: 'x.y', recommendation: 'Renew the certificate now.' })).toEqual({ plain: 'Renew the certificate now.', technical: null });
    expect(fixAdvice({ id: 'x.y', recommendation: 'Add rua=mailto:dmarc@example.test.' })).toEqual({
      plain: 'Your web host or developer can make this change; the exact setting is below.',
      technical: 'Add rua=mailto:dmarc@example.test.',
    });
  });

  it('gives immediate recommendations the same plain sentence', () => {
    const view = buildAuditView(auditWith([{ name: 'http', status: 'ok', findings: [finding('http.csp.missing', 'medium', { recommendation: "Start from `default-src 'self'`." })] }]));
    const [first] = view.vulnerability_summary.recommendations;
    expect(first!.fix).toEqual({ plain: expect.stringMatching(/^Tells visitors’ browsers/), technical: "Start from `default-src 'self'`." });
  });
});

describe('not checked, by reason (issue 29 item 8)', () => {
  it('says a reason shared by ten items once, with the checks and parts under it', () => {
    // Prepare: a passive scan leaves four checks out and three parts of two others.
    const skipped = (name: string): CheckResult => ({ name, status: 'skipped', findings: [] });
    const audit = auditWith(
      [
        skipped('ports'),
        skipped('wordpress'),
        skipped('exposure'),
        skipped('breaches'),
        { name: 'dns', status: 'ok', findings: [], data: { notChecked: ['Zone transfer (AXFR)'] } },
        { name: 'subdomains', status: 'ok', findings: [], data: { notChecked: ['Which subdomains answer', 'Their TLS'] } },
        { name: 'software', status: 'timeout', findings: [] },
      ],
      { mode: 'passive' },
    );

    // Act
    const view = buildAuditView(audit);

    // Assess
    expect(view.coverage.notChecked).toHaveLength(8);
    expect(view.not_checked_groups).toEqual([
      {
        reason: PASSIVE_REASON,
        cause: 'passive',
        items: [
          { check: 'ports', title: 'Open ports and services' },
          { check: 'wordpress', title: 'WordPress' },
          { check: 'exposure', title: 'Exposed files' },
          { check: 'breaches', title: 'Password breaches' },
          { check: 'dns', title: 'DNS', part: 'Zone transfer (AXFR)' },
          { check: 'subdomains', title: 'Subdomains', part: 'Which subdomains answer' },
          { check: 'subdomains', title: 'Subdomains', part: 'Their TLS' },
        ],
      },
      { reason: 'It did not finish in time.', cause: 'timeout', items: [{ check: 'software', title: 'Software and known vulnerabilities' }] },
    ]);
  });
});
