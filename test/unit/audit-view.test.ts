import { describe, expect, it } from 'vitest';
import { auditWith, rangeWordPressAudit, testFinding } from '../support/audit-fixtures.js';
import type { CveDetail, Finding } from '../../lambdas/domain/audit.js';
import { auditFindings, buildAuditView, immediateRecommendations, LONG_TERM_RECOMMENDATIONS } from '../../lambdas/domain/audit-view.js';
import { isSampleAuditId, SAMPLE_BUSINESS_NAME, sampleAudit } from '../../lambdas/domain/sample-report.js';
import { grade, riskLevel, riskScore } from '../../lambdas/domain/scoring.js';

/** A completed scan of the range's WordPress site (wp.example.test), captured and trimmed of bulk (ciphers, banners, headers). */
const rangeAudit = rangeWordPressAudit();

const finding = (id: string, severity: Finding['severity'], extra: Partial<Finding> = {}): Finding => testFinding(id, severity, { recommendation: `Fix ${id}`, ...extra });


describe('the audit view of a completed scan (range WordPress site)', () => {
  const view = buildAuditView(rangeAudit, { businessName: 'Example Test Pty Ltd' });

  it('counts issues and observations by severity: info findings are observations, not issues', () => {
    expect(view.finding_counts).toEqual({ critical: 0, high: 7, medium: 13, low: 13, info: 7 });
    expect(view.counters).toEqual({ totalIssues: 33, criticalIssues: 0, openPorts: 3, subdomains: 8 });
    expect(view.vulnerability_summary).toMatchObject({ totalIssues: 33, criticalIssues: 0, subdomainsScanned: 8, overallRisk: 'high' });
    expect(view.vulnerability_summary.vulnerabilities).toHaveLength(33);
    expect(view.vulnerability_summary.vulnerabilities.every((v) => v.severity !== ('info' as string))).toBe(true);
    expect(view.observations.map((o) => o.id).sort()).toEqual([
      'breaches.not-configured',
      'dns.caa.missing',
      'dns.resolve.no-ipv6',
      'email.dkim.not-found',
      'email.mx.certificate-untrusted',
      'exposure.security-txt-missing',
      'wordpress.readme-exposed',
    ]);
  });

  it('keeps the spec record fields in snake_case with the measured values', () => {
    expect(view).toMatchObject({
      id: '3f9c2a1e-7b4d-4c8e-9a2f-5d6e7f8a9b0c',
      target_url: 'https://wp.example.test/',
      audit_status: 'completed',
      error_message: null,
      created_at: '2026-11-22T13:19:10.000Z',
      completed_at: '2026-11-22T13:19:12.900Z',
      risk_level: 'high',
      risk_score: 0,
      grade: 'F',
      host: 'wp.example.test',
      business_name: 'Example Test Pty Ltd',
    });
    expect(view.dns_results).toEqual({
      status: 'completed',
      subdomainsFound: 8,
      totalSubdomains: 8,
      activeSubdomains: 5,
      completedAt: '2026-11-22T13:19:12.900Z',
    });
    expect(view.port_scan_results).toEqual([
      { port_number: 80, service_name: 'http', port_status: 'open', risk_level: 'info', product: 'Apache', version: '2.4.71' },
      { port_number: 443, service_name: 'https', port_status: 'open', risk_level: 'info', product: 'Apache', version: '2.4.71' },
      { port_number: 3306, service_name: 'mysql', port_status: 'open', risk_level: 'high', product: 'MariaDB', version: '10.11.19' },
    ]);
  });

  it('lists vulnerabilities worst first, with evidence, CVSS and CVEs where the finding has them', () => {
    const vulns = view.vulnerability_summary.vulnerabilities;
    expect(vulns.slice(0, 7).map((v) => v.severity)).toEqual(Array(7).fill('high'));
    expect(vulns.slice(7, 20).every((v) => v.severity === 'medium')).toBe(true);
    // Among the mediums, the CVE finding with CVSS 8.8 comes first.
    expect(vulns[7]).toMatchObject({ id: 'cve.openssl', cvssScore: 8.8, category: 'Vulnerabilities' });
    expect(vulns[7]!.cves).toContain('CVE-2026-45447');
    expect(vulns.find((v) => v.id === 'ports.database.exposed')).toMatchObject({
      title: 'Database is open to the internet',
      evidence: '127.0.0.3: 3306/tcp mysql (MariaDB 10.11.19)',
    });
  });

  it('recommends the 4 most important distinct actions, then the 4 fixed long-term items', () => {
    const recommendations = view.vulnerability_summary.recommendations;
    expect(recommendations).toHaveLength(8);
    const immediate = recommendations.filter((r) => r.priority === 'immediate');
    expect(immediate).toHaveLength(4);
    expect(immediate.every((r) => r.severity === 'high')).toBe(true);
    expect(new Set(immediate.map((r) => r.action)).size).toBe(4);
    expect(immediate.map((r) => r.findingId)).toEqual(view.vulnerability_summary.vulnerabilities.slice(0, 4).map((v) => v.id));
    expect(recommendations.slice(4)).toEqual(LONG_TERM_RECOMMENDATIONS);
  });

  it('names the risk factors per area, worst area first', () => {
    expect(view.vulnerability_summary.riskFactors).toEqual([
      'SSL/TLS: 10 issues (5 high, 4 medium, 1 low)',
      'Infrastructure: 4 issues (1 high, 3 low)',
      'Network Security: 2 issues (1 high, 1 low)',
      'Web Security: 8 issues (4 medium, 4 low)',
      'Vulnerabilities: 3 issues (2 medium, 1 low)',
      'WordPress: 3 issues (2 medium, 1 low)',
      'Email Security: 3 issues (1 medium, 2 low)',
    ]);
  });

  it('summarises grades, TLS, email security, the network, technologies and the breaches card', () => {
    expect(view.grades).toEqual({ tls: 'T', httpObservatory: { grade: 'F', score: 10 } });
    expect(view.breaches).toEqual({ status: 'not-configured', checked: null, breached: null });
    expect(view.network).toEqual({ status: 'completed', address: '127.0.0.3', portsScanned: 100, closed: 97, filtered: 0, firewall: 'none' });
    expect(view.tls).toMatchObject({ status: 'completed', grade: 'T', hsts: { enabled: false, maxAge: null }, httpsRedirect: false });
    expect(view.tls.ports[0]).toMatchObject({
      port: 443,
      protocols: ['TLSv1', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'],
      certificate: { subject: 'CN=old-shop.invalid, O=Old Shop', expired: true, selfSigned: true, trusted: false, hostnameMatch: false, keySize: 1024 },
    });
    expect(view.email_security).toMatchObject({
      domain: 'example.test',
      spf: { record: 'v=spf1 mx ~all', allQualifier: '~' },
      dmarc: { record: 'v=DMARC1; p=none', policy: 'none' },
      dkim: { selectorsFound: [] },
      mx: [{ host: 'mail.example.test', preference: 10, starttls: true, tlsVersion: 'TLSv1.3' }],
    });
    expect(view.technologies.map((t) => [t.name, t.version, t.knownVulnerabilities])).toEqual([
      ['Apache HTTP Server', '2.4.71', 0],
      ['MariaDB', '10.11.19', 2],
      ['OpenSSL', '3.0.19', 16],
      ['PHP', '8.2.36', 0],
      ['Postfix', '3.7.11', 0],
      ['WordPress', '6.1.9', 4],
    ]);
    const openssl = view.technologies.find((t) => t.name === 'OpenSSL')!;
    expect(openssl).toMatchObject({ fixedVersion: '3.0.21' });
    expect(openssl.cves).toHaveLength(16);
    expect(openssl.cves[0]).toEqual({
      id: 'CVE-2026-45447',
      cvssScore: 8.8,
      cvssVector: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:H',
      severity: 'high',
      exploited: false,
      fixedIn: '3.0.21',
    });
  });

  it('gives the public no contact details: no leads block, no lead reference', () => {
    expect(view.leads).toBeUndefined();
    expect(JSON.stringify(view)).not.toContain('leadId');
  });

  it('adds the leads block only for the owner', () => {
    const owner = { firstName: 'Ada', lastName: 'Lovelace', businessName: 'Analytical Engines', webUrl: 'https://wp.example.test/', email: 'ada@example.test' };
    expect(buildAuditView(rangeAudit, { businessName: owner.businessName, owner }).leads).toEqual({
      first_name: 'Ada',
      last_name: 'Lovelace',
      business_name: 'Analytical Engines',
      web_url: 'https://wp.example.test/',
      email: 'ada@example.test',
    });
  });
});

describe('the audit view while a scan runs or when data is missing', () => {
  it('shows an audit in progress without a score, risk or counts it has not measured yet', () => {
    const audit = auditWith([{ name: 'dns', status: 'ok', findings: [finding('dns.caa.missing', 'info')], data: {} }], {
      status: 'in_progress',
      completedAt: undefined,
    });
    const view = buildAuditView(audit);
    expect(view).toMatchObject({ audit_status: 'in_progress', risk_level: null, risk_score: null, grade: null, completed_at: null, business_name: null });
    expect(view.counters).toEqual({ totalIssues: 0, criticalIssues: 0, openPorts: null, subdomains: null });
    expect(view.dns_results).toEqual({ status: 'pending', subdomainsFound: null, totalSubdomains: null, activeSubdomains: null, completedAt: null });
    expect(view.breaches).toEqual({ status: 'pending', checked: null, breached: null });
  });

  it('reports active subdomains as measured, and null (never 80% of the total) when not measured', () => {
    const measured = buildAuditView(auditWith([{ name: 'subdomains', status: 'ok', findings: [], data: { subdomainsFound: 10, activeSubdomains: 3 } }]));
    const unmeasured = buildAuditView(auditWith([{ name: 'subdomains', status: 'ok', findings: [], data: { subdomainsFound: 10 } }]));
    const failed = buildAuditView(auditWith([{ name: 'subdomains', status: 'timeout', reason: 'budget', findings: [] }]));
    expect(measured.dns_results).toMatchObject({ subdomainsFound: 10, totalSubdomains: 10, activeSubdomains: 3 });
    expect(unmeasured.dns_results).toMatchObject({ subdomainsFound: 10, activeSubdomains: null });
    expect(failed.dns_results).toMatchObject({ status: 'failed', subdomainsFound: null, activeSubdomains: null });
  });

  it('counts only issues: a site with observations alone has no issues and only the long-term advice', () => {
    const view = buildAuditView(auditWith([{ name: 'http', status: 'ok', findings: [finding('a', 'info'), finding('b', 'info')] }], { score: 100, grade: 'A', riskLevel: 'low' }));
    expect(view.counters).toMatchObject({ totalIssues: 0, criticalIssues: 0 });
    expect(view.vulnerability_summary.vulnerabilities).toEqual([]);
    expect(view.observations.map((o) => o.id)).toEqual(['a', 'b']);
    expect(view.vulnerability_summary.recommendations).toEqual(LONG_TERM_RECOMMENDATIONS);
    expect(view.vulnerability_summary.riskFactors).toEqual([]);
  });

  it('reads a breaches card that checked addresses, and one whose check failed', () => {
    const ok = buildAuditView(auditWith([{ name: 'breaches', status: 'ok', findings: [], data: { status: 'ok', checked: 5, breached: 2 } }]));
    const failed = buildAuditView(auditWith([{ name: 'breaches', status: 'error', reason: 'rate-limited', findings: [] }]));
    expect(ok.breaches).toEqual({ status: 'ok', checked: 5, breached: 2 });
    expect(failed.breaches).toEqual({ status: 'error', checked: null, breached: null });
  });

  it("says whether the host is on the browsers' HSTS preload list, and says nothing for a report from before the list", () => {
    const tls = (data: Record<string, unknown>) => buildAuditView(auditWith([{ name: 'tls', status: 'ok', findings: [], data }])).tls;

    expect(tls({ hstsPreload: { name: 'dev', includeSubDomains: true } }).hstsPreload).toEqual({ entry: 'dev', includeSubDomains: true });
    expect(tls({ hstsPreload: null }).hstsPreload).toBeNull();
    expect('hstsPreload' in tls({})).toBe(false);
  });

  it('de-duplicates immediate actions and skips observations when choosing them', () => {
    const picked = immediateRecommendations([
      finding('low.one', 'low'),
      finding('info.one', 'info'),
      finding('crit.one', 'critical', { recommendation: 'Patch now' }),
      finding('crit.two', 'critical', { recommendation: 'Patch now' }),
      finding('high.one', 'high', { cvssScore: 5 }),
      finding('high.two', 'high', { cvssScore: 9.8 }),
      finding('medium.one', 'medium'),
    ]);
    expect(picked.map((r) => r.findingId)).toEqual(['crit.one', 'high.two', 'high.one', 'medium.one']);
  });

  it('keeps one copy of a finding reported twice under the same id', () => {
    const twice = finding('dup', 'high');
    expect(auditFindings(auditWith([{ name: 'a', status: 'ok', findings: [twice] }, { name: 'b', status: 'ok', findings: [twice] }]))).toHaveLength(1);
  });
});

describe('per-CVE detail in the view (DECISIONS "Per-CVE detail")', () => {
  const softwareFinding = (cveDetails?: CveDetail[]): Finding =>
    finding('cve.apache_http_server', 'critical', {
      check: 'software',
      category: 'Vulnerabilities',
      cvssScore: 9.8,
      cves: ['CVE-2021-41773', 'CVE-2026-44631'],
      ...(cveDetails ? { cveDetails } : {}),
    });
  const exploited: CveDetail = {
    id: 'CVE-2021-41773',
    cvssScore: 9.8,
    severity: 'critical',
    exploited: true,
    kevDateAdded: '2021-11-03',
    ransomware: true,
    epss: 0.99992,
    epssPercentile: 0.99986,
    fixedIn: '2.4.50',
    summary: 'A flaw was found in a change made to path normalization in Apache HTTP Server 2.4.49.',
  };
  const unexploited: CveDetail = {
    id: 'CVE-2026-44631',
    cvssScore: 9.8,
    cvssVector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H',
    severity: 'critical',
    exploited: false,
    fixedIn: '2.4.68',
    summary: 'Buffer Underwrite vulnerability in Apache HTTP Server on crafted regular expressions in the configuration.',
  };
  const softwareData = {
    technologies: [{ name: 'Apache HTTP Server', version: '2.4.49', category: 'web-server', knownVulnerabilities: 2, findingId: 'cve.apache_http_server' }],
    vulnerabilities: [{ findingId: 'cve.apache_http_server', product: 'apache_http_server', version: '2.4.49', fixedVersion: '2.4.68', exploited: 1 }],
  };

  it("carries a software finding's CVEs as objects, known exploited first, in the vulnerability list and the technology", () => {
    // Prepare: stored in the wrong order, to see the view order them.
    const audit = auditWith([{ name: 'software', status: 'ok', findings: [softwareFinding([unexploited, exploited])], data: softwareData }]);

    // Act
    const view = buildAuditView(audit);

    // Assess
    const [vulnerability] = view.vulnerability_summary.vulnerabilities;
    expect(vulnerability!.cves).toEqual(['CVE-2021-41773', 'CVE-2026-44631']);
    expect(vulnerability!.cveDetails).toEqual([exploited, unexploited]);
    expect(view.technologies).toEqual([
      { name: 'Apache HTTP Server', version: '2.4.49', category: 'web-server', knownVulnerabilities: 2, fixedVersion: '2.4.68', cves: [exploited, unexploited] },
    ]);
  });

  it('reads the detail of a report stored before findings carried it from the check data, and claims none for bare ids', () => {
    // Act: the range fixture is such a report (records in data, no summaries kept).
    const view = buildAuditView(rangeAudit);

    // Assess
    const openssl = view.vulnerability_summary.vulnerabilities.find((v) => v.id === 'cve.openssl')!;
    expect(openssl.cveDetails!.map((c) => c.id)).toEqual(openssl.cves);
    expect(openssl.cveDetails![0]).toEqual({
      id: 'CVE-2026-45447',
      cvssScore: 8.8,
      cvssVector: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:H',
      severity: 'high',
      exploited: false,
      fixedIn: '3.0.21',
    });
    const tls10 = view.vulnerability_summary.vulnerabilities.find((v) => v.id === 'tls.protocol.tls10')!;
    expect([tls10.cves, 'cveDetails' in tls10]).toEqual([['CVE-2011-3389'], false]);
  });

  it('reads stored records defensively: no id, no record; an unknown severity is unknown; a wrong-typed fact is left out', () => {
    // Prepare
    const odd = [{ cvssScore: 5 }, 'CVE-2020-0001', { id: 'CVE-2020-0002', severity: 'dreadful', exploited: 'yes', epss: '0.5', kevDateAdded: 20200101 }];
    const audit = auditWith([{ name: 'software', status: 'ok', findings: [softwareFinding(odd as unknown as CveDetail[])], data: softwareData }]);

    // Act
    const [vulnerability] = buildAuditView(audit).vulnerability_summary.vulnerabilities;

    // Assess
    expect(vulnerability!.cveDetails).toEqual([{ id: 'CVE-2020-0002', severity: 'unknown', exploited: false }]);
  });
});

describe('the sample report', () => {
  it.each([
    ['demo_landing', true],
    ['audit_123', true],
    ['demo_', false],
    ['audit-123', false],
    ['5b0f7a8e-2c4d-4e6f-9a1b-3c5d7e9f1a2b', false],
    ['demo_../../x', false],
  ])('recognises %s as a sample id: %s', (id, expected) => {
    expect(isSampleAuditId(id)).toBe(expected);
  });

  it('has numbers the scoring formula produces: 5 issues, none critical → 75, grade C, risk medium', () => {
    const audit = sampleAudit('demo_landing');
    const findings = audit.checks.flatMap((c) => c.findings);
    const score = riskScore(findings);
    expect([audit.score, audit.grade, audit.riskLevel]).toEqual([score, grade(score), riskLevel(score)]);
    expect([score, audit.grade, audit.riskLevel]).toEqual([75, 'C', 'medium']);

    const view = buildAuditView(audit, { businessName: SAMPLE_BUSINESS_NAME, sample: true });
    expect(view).toMatchObject({ id: 'demo_landing', sample: true, risk_score: 75, grade: 'C', risk_level: 'medium', business_name: SAMPLE_BUSINESS_NAME });
    expect(view.counters).toEqual({ totalIssues: 5, criticalIssues: 0, openPorts: 3, subdomains: 12 });
    expect(view.dns_results).toMatchObject({ subdomainsFound: 12, activeSubdomains: 9 });
    expect(view.finding_counts).toEqual({ critical: 0, high: 2, medium: 2, low: 1, info: 3 });
  });

  it('is a fresh copy each time, so one reader cannot change another reader’s sample', () => {
    const first = sampleAudit('demo_a');
    first.checks[0]!.findings.length = 0;
    expect(sampleAudit('demo_b').checks[0]!.findings).toHaveLength(1);
  });
});
