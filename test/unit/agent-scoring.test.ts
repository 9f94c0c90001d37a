import { describe, expect, it } from 'vitest';
import { AGENT_CHECK_SEVERITY, AGENT_CHECKS, configurationChecks, scoreAgentReport } from '../../lambdas/agents/agent-scoring.js';
import { isDistributionPackage, productOfPackage, upstreamVersion } from '../../lambdas/agents/package-products.js';
import { AGENT_PROBLEMS, generateAgentReport, type GenerateOptions } from '../../lambdas/agents/report-generator.js';
import { type AgentReport, type AgentReportInput, agentReportSchema } from '../../lambdas/domain/agents.contract.js';
import { findingSeverity, matchVulnerabilities } from '../../lambdas/scanner/vulndb/index.js';

const AGENT_ID = 'agt_abcdefghijklmnopqrstuvwxyz';
const base = { agentId: AGENT_ID, clientDomain: 'shop.example.test', timestamp: '2026-01-20T10:00:00.000Z' } as const;
const report = (options: Partial<GenerateOptions> & Pick<GenerateOptions, 'platform'>) => generateAgentReport({ seed: 1, ...base, ...options });
const parse = (input: AgentReportInput): AgentReport => agentReportSchema.parse(input);
const edit = (input: AgentReportInput, change: (results: AgentReportInput['results']) => void): AgentReport => {
  const copy = structuredClone(input);
  change(copy.results);
  return parse(copy);
};

describe('installed packages → knowledge-base products', () => {
  it.each([
    ['openssh-server', 'deb_packages', 'openssh'],
    ['libssl3', 'deb_packages', 'openssl'],
    ['openssl-libs', 'rpm_packages', 'openssl'],
    ['httpd', 'rpm_packages', 'apache_http_server'],
    ['php8.1-fpm', 'deb_packages', 'php'],
    ['mysql-server-8.0', 'deb_packages', 'mysql'],
    ['postgresql-15', 'deb_packages', 'postgresql'],
    ['exim4-daemon-light', 'deb_packages', 'exim'],
    ['openssl@3', 'homebrew_packages', 'openssl'],
    ['MySQL Server 8.0', 'programs', 'mysql'],
    ['Win64 OpenSSL v3.0.8 Light', 'programs', 'openssl'],
    ['Apache Tomcat 9.0 Tomcat9 (remove only)', 'programs', 'tomcat'],
    ['Microsoft Exchange Server 2019 Cumulative Update 14', 'programs', 'exchange'],
    ['jquery', 'npm_packages', 'jquery'],
  ] as const)('maps %s (%s) to %s', (name, source, product) => {
    expect(productOfPackage({ name, source })).toBe(product);
  });

  it.each([
    ['openssh-sftp-server-docs', 'deb_packages'],
    ['curl', 'deb_packages'],
    ['python3-openssl', 'deb_packages'],
    ['Node.js', 'programs'],
    ['express', 'npm_packages'],
    ['php', 'programs'],
  ] as const)('does not guess a product for %s (%s)', (name, source) => {
    expect(productOfPackage({ name, source })).toBeUndefined();
  });

  it('reads the upstream version: Debian epochs dropped, the revision left for the matcher to ignore', () => {
    expect(upstreamVersion('1:8.9p1-3ubuntu0.6')).toBe('8.9p1-3ubuntu0.6');
    expect(upstreamVersion('5:6.0.16-1ubuntu1')).toBe('6.0.16-1ubuntu1');
    expect(upstreamVersion('8.0.36 (x64)')).toBe('8.0.36');
    expect(matchVulnerabilities('openssh', upstreamVersion('1:8.9p1-3ubuntu0.6')).matchedVersion).toBe('8.9p1');
    expect([isDistributionPackage('deb_packages'), isDistributionPackage('rpm_packages'), isDistributionPackage('programs')]).toEqual([true, true, false]);
  });
});

describe('scoreAgentReport', () => {
  it.each(['windows', 'linux', 'macos'] as const)('gives a well-kept %s machine 100, grade A, low risk, every check passed', (platform) => {
    const score = scoreAgentReport(parse(report({ platform }).report));

    expect(score).toMatchObject({ vulnerability_count: 0, vulnerabilities: [], cis_fail_count: 0, security_score: 100, security_grade: 'A', risk_level: 'low' });
    expect(score.cis_checks.every((check) => check.passed)).toBe(true);
    // Linux has no antivirus check; every platform here reports its firewall.
    expect(score.cis_checks.map((check) => check.id)).toEqual(
      platform === 'linux'
        ? [AGENT_CHECKS.diskEncryption, AGENT_CHECKS.firewall, AGENT_CHECKS.adminUsers, AGENT_CHECKS.riskyPorts, AGENT_CHECKS.persistence]
        : Object.values(AGENT_CHECKS),
    );
  });

  it.each(['windows', 'linux', 'macos'] as const)('finds every problem planted on %s, with the knowledge base’s exact CVE count and the formula’s score', (platform) => {
    const generated = report({ platform, problems: AGENT_PROBLEMS });
    const score = scoreAgentReport(parse(generated.report));

    const matches = generated.planted.vulnerablePackages.map((p) => matchVulnerabilities(p.product, p.upstreamVersion).vulnerabilities);
    expect(matches.every((m) => m.length > 0)).toBe(true);
    expect(score.vulnerability_count).toBe(matches.reduce((sum, m) => sum + m.length, 0));
    expect(score.cis_checks.filter((c) => !c.passed).map((c) => c.id)).toEqual(generated.planted.failedChecks);
    expect(score.cis_fail_count).toBe(platform === 'linux' ? 5 : 6);

    const confidence = platform === 'linux' ? 'backport-possible' : 'version-match';
    const severities = [...matches.map((m) => findingSeverity(m, confidence)), ...generated.planted.failedChecks.map((id) => AGENT_CHECK_SEVERITY[id])];
    const expected = Math.max(0, 100 - severities.reduce((sum, s) => sum + (s === 'critical' ? 20 : 5), 0));
    expect(score.security_score).toBe(expected);
    expect(score.security_grade).toBe('F');
    expect(score.risk_level).toBe('high');
  });

  it('counts the OpenSSL tool and its library at one version once, and marks distribution packages as possibly backported', () => {
    const generated = report({ platform: 'linux', problems: ['vulnerable-packages'] });
    const packages = generated.report.results.installed_packages;
    expect(packages.filter((p) => p.name === 'openssl' || p.name === 'libssl3').length).toBe(2);

    const score = scoreAgentReport(parse(generated.report));

    const openssl = matchVulnerabilities('openssl', '3.0.2').vulnerabilities.length;
    expect(score.vulnerabilities.filter((v) => v.package_name === 'openssl' || v.package_name === 'libssl3').length).toBe(openssl);
    expect(score.vulnerabilities.every((v) => v.backport_possible)).toBe(true);
    const ssh = score.vulnerabilities.find((v) => v.package_name === 'openssh-server')!;
    expect(ssh).toMatchObject({ installed_version: '1:8.9p1-3ubuntu0.6', backport_possible: true });
    expect(ssh.cve).toMatch(/^CVE-\d{4}-\d+$/);
  });

  it('lists known exploited vulnerabilities first, then by score', () => {
    const score = scoreAgentReport(parse(report({ platform: 'windows', problems: ['vulnerable-packages'] }).report));

    const kev = score.vulnerabilities.filter((v) => v.kev);
    expect(kev.length).toBeGreaterThan(0);
    expect(score.vulnerabilities.slice(0, kev.length).every((v) => v.kev)).toBe(true);
    const rest = score.vulnerabilities.slice(kev.length).map((v) => v.score);
    expect(rest).toEqual([...rest].sort((a, b) => b - a));
    expect(score.vulnerabilities.find((v) => v.package_name.startsWith('Apache Tomcat'))).toMatchObject({ installed_version: '9.0.30', backport_possible: false });
  });

  it('passes risky ports that listen on loopback only, and fails them on any other address', () => {
    const clean = report({ platform: 'linux' }).report;
    expect(clean.results.listening_ports.some((p) => p.port === '21' && p.address === '127.0.0.1')).toBe(true);
    const check = (r: AgentReport) => configurationChecks(r).find((c) => c.id === AGENT_CHECKS.riskyPorts)!;
    expect(check(parse(clean)).passed).toBe(true);

    const exposed = edit(clean, (results) => {
      results.listening_ports.push({ port: '3389', protocol: '6', address: '10.0.0.5', name: 'xrdp' });
    });
    expect(check(exposed)).toMatchObject({ passed: false, detail: 'Listening: 3389 RDP (xrdp) on 10.0.0.5' });
  });

  it('leaves the firewall out when the platform did not report it, and does not count built-in administrators', () => {
    const unknownFirewall = edit(report({ platform: 'windows' }).report, (results) => {
      results.system_info[0]!.firewall_enabled = '';
    });
    const checks = configurationChecks(unknownFirewall);
    expect(checks.map((c) => c.id)).not.toContain(AGENT_CHECKS.firewall);
    // Built-in Administrator (RID 500) + one person.
    expect(checks.find((c) => c.id === AGENT_CHECKS.adminUsers)).toMatchObject({ passed: true });
    expect(unknownFirewall.results.admin_users.map((a) => a.uid)).toEqual(['500', '1001']);
  });

  it('fails the antivirus check when the only product is not running, naming its state', () => {
    const stopped = parse(report({ platform: 'windows', problems: ['no-antivirus'] }).report);
    expect(configurationChecks(stopped).find((c) => c.id === AGENT_CHECKS.antivirus)).toEqual({
      id: AGENT_CHECKS.antivirus,
      title: 'An antivirus is running',
      passed: false,
      detail: 'No antivirus running (Microsoft Defender Antivirus: stopped)',
    });
  });

  it('takes the first routable IPv4 address and the OS name with its version', () => {
    const score = scoreAgentReport(parse(report({ platform: 'linux' }).report));
    expect(score.ip).toMatch(/^172\.31\.\d+\.\d+$/);
    expect(score.os_version).toBe('Ubuntu 22.04.4 LTS (Jammy Jellyfish)');
  });
});

describe('generateAgentReport', () => {
  it('is deterministic: the same seed gives the same report, another seed another machine', () => {
    const a = generateAgentReport({ platform: 'windows', seed: 'x', ...base, problems: AGENT_PROBLEMS });
    const b = generateAgentReport({ platform: 'windows', seed: 'x', ...base, problems: AGENT_PROBLEMS });
    const c = generateAgentReport({ platform: 'windows', seed: 'y', ...base, problems: AGENT_PROBLEMS });
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(c.report.results.system_info[0]!.hostname).not.toBe(a.report.results.system_info[0]!.hostname);
  });

  it('produces payloads the API accepts, osquery-shaped (every column text), large ones included', () => {
    for (const platform of ['windows', 'linux', 'macos'] as const) {
      const { report: input } = generateAgentReport({ platform, seed: platform, ...base, problems: AGENT_PROBLEMS, extraPackages: 3000 });
      expect(agentReportSchema.safeParse(input).success).toBe(true);
      expect(input.results.installed_packages.length).toBeGreaterThan(3000);
      const columns = input.results.listening_ports.flatMap((row) => Object.values(row));
      expect(columns.every((value) => typeof value === 'string')).toBe(true);
    }
  });

  it('says which checks fail: Linux has no antivirus check', () => {
    expect(generateAgentReport({ platform: 'linux', seed: 1, ...base, problems: ['no-antivirus', 'firewall-off'] }).planted.failedChecks).toEqual([AGENT_CHECKS.firewall]);
    expect(generateAgentReport({ platform: 'windows', seed: 1, ...base, problems: ['no-antivirus', 'firewall-off'] }).planted.failedChecks).toEqual([AGENT_CHECKS.antivirus, AGENT_CHECKS.firewall]);
  });
});
