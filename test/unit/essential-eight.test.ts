import { describe, expect, it } from 'vitest';
import { agentOsSupport } from '../../lambdas/agents/os-lifecycle.js';
import type { AgentCisCheckView, AgentVulnerabilityView } from '../../lambdas/domain/agents.contract.js';
import type { CheckResult, CveDetail, Finding } from '../../lambdas/domain/audit.js';
import { ESSENTIAL_EIGHT_DISCLAIMER, type EssentialEightStrategyId, essentialEightStrategyIds } from '../../lambdas/domain/essential-eight.contract.js';
import {
  cveFirstSeen,
  cveKey,
  ESSENTIAL_EIGHT,
  type EssentialEightAgent,
  type EssentialEightInput,
  essentialEightView,
  statusOf,
} from '../../lambdas/domain/essential-eight.js';

const NOW = new Date('2026-11-27T00:00:00.000Z');
const SCANNED = '2026-11-26T03:00:00.000Z';

const check = (name: string, findings: Finding[] = [], data?: Record<string, unknown>, status: CheckResult['status'] = 'ok'): CheckResult => ({
  name,
  status,
  findings,
  ...(data ? { data } : {}),
});

const finding = (id: string, title: string, check = id.split('.')[0]!): Finding => ({
  id,
  check,
  title,
  severity: 'high',
  category: 'Network Security',
  evidence: '203.0.113.10: 3389/tcp ms-wbt-server',
  description: 'd',
  recommendation: 'r',
});

const cve = (id: string, extra: Partial<CveDetail> = {}): CveDetail => ({ id, severity: 'high', exploited: false, summary: 's', ...extra });

const cveFinding = (product: string, details: CveDetail[]): Finding => ({
  ...finding(`cve.${product.toLowerCase().replace(/\s+/g, '-')}`, `${product} has ${details.length} known vulnerabilities`, 'software'),
  category: 'Vulnerabilities',
  cves: details.map((d) => d.id),
  cveDetails: details,
});

const technologies = [
  { name: 'nginx', version: '1.26.2', confidence: 'high' },
  { name: 'PHP', version: '8.3.4', confidence: 'high' },
  { name: 'jQuery', version: '3.7.1', confidence: 'low' },
];

const software = (findings: Finding[] = [], data: Record<string, unknown> = {}, status: CheckResult['status'] = 'ok') =>
  check('software', findings, { technologies, vulnerabilities: [], endOfLife: [], ...data }, status);

/** The http check of a scan whose landing page loaded (DECISIONS "Rescan target": only such a scan counts for a strategy). */
const landing = (status = 200): CheckResult => check('http', [], { url: 'https://shop.example.com/', analyzed: 'https', observatory: { statusCode: status } });

/** A completed scan of shop.example.com with these checks; its landing page loaded unless `checks` has its own http check. */
const audit = (checks: CheckResult[], completedAt = SCANNED) => ({
  id: 'a1',
  targetUrl: 'https://shop.example.com/',
  completedAt,
  checks: checks.some((c) => c.name === 'http') ? checks : [landing(), ...checks],
});

const input = (extra: Partial<EssentialEightInput> = {}): EssentialEightInput => ({ domain: 'shop.example.com', agents: [], now: NOW, ...extra });

const passed = (id: string, detail: string, ok = true): AgentCisCheckView => ({ id, title: id, passed: ok, detail });

const agent = (extra: Partial<EssentialEightAgent> = {}): EssentialEightAgent => ({
  hostname: 'FRONT-DESK',
  platform: 'windows',
  osVersion: 'Microsoft Windows 11 Pro 10.0.26100',
  reportedAt: '2026-11-26T22:00:00.000Z',
  osSupport: { name: 'Windows 11 24H2 (W)', eol: '2026-10-13', ended: false },
  vulnerabilities: [],
  vulnerabilityCount: 0,
  cisChecks: [],
  ...extra,
});

const vulnerability = (extra: Partial<AgentVulnerabilityView>): AgentVulnerabilityView => ({
  cve: 'CVE-2024-0001',
  severity: 'high',
  score: 8.1,
  title: 't',
  package_name: '7-Zip',
  installed_version: '23.01',
  fixed_version: '24.07',
  kev: false,
  backport_possible: false,
  ...extra,
});

function strategy(id: EssentialEightStrategyId, given: EssentialEightInput) {
  return essentialEightView(given).strategies.find((s) => s.id === id)!;
}

describe('Essential Eight mapping: the view', () => {
  it('gives the Eight in the ACSC order, each with exactly one status, its ML1 requirement, how-to-check steps and the fixed disclaimer', () => {
    // Act
    const view = essentialEightView(input());

    // Assess
    expect(view.strategies.map((s) => s.id)).toEqual([...essentialEightStrategyIds]);
    expect(view.maturityLevel).toBe('ML1');
    expect(view.disclaimer).toBe(ESSENTIAL_EIGHT_DISCLAIMER);
    expect(view.disclaimer).toContain('not an Essential Eight assessment or a statement of compliance');
    expect(view.sources).toEqual({ webScan: null, agents: { reporting: 0, total: 0 } });
    for (const s of view.strategies) {
      expect(s.status).toBe('not-assessable');
      expect(s.statusLabel).toBe('Cannot be assessed from outside');
      expect(s.howToCheck.length).toBeGreaterThanOrEqual(3);
      expect(s.requirement.length).toBeGreaterThan(40);
    }
  });

  it('never words anything as compliance or certification outside the disclaimer, even with evidence for', () => {
    // Prepare
    const given = input({ audit: audit([software()]), agents: [agent({ cisChecks: [passed('cis.admin-users', 'No administrator accounts besides the built-in ones')] })] });

    // Act
    const { disclaimer, ...rest } = essentialEightView(given);
    const text = JSON.stringify(rest) + JSON.stringify(ESSENTIAL_EIGHT);

    // Assess
    expect(disclaimer).toBe(ESSENTIAL_EIGHT_DISCLAIMER);
    expect(rest.strategies.filter((s) => s.status === 'evidence-for').map((s) => s.id)).toEqual(['patch-applications', 'patch-operating-systems', 'restrict-administrative-privileges']);
    expect(text).not.toMatch(/complian|complies|certif|compliant|meets (?:the )?(?:ML1|maturity)/i);
  });

  it('decides against over for, for over neutral, and neutral alone is not assessable', () => {
    expect(statusOf([{ effect: 'for' }, { effect: 'against' }, { effect: 'neutral' }])).toBe('evidence-against');
    expect(statusOf([{ effect: 'neutral' }, { effect: 'for' }])).toBe('evidence-for');
    expect(statusOf([{ effect: 'neutral' }])).toBe('not-assessable');
    expect(statusOf([])).toBe('not-assessable');
  });

  it('reads nothing from a scan that has not completed or checks that did not finish', () => {
    // Prepare
    const rdp = finding('ports.remote-access.rdp', 'Remote Desktop (RDP) is open to the internet');
    const unfinished = { ...audit([check('ports', [rdp])]), completedAt: undefined };
    const skipped = audit([check('ports', [rdp], undefined, 'skipped'), software([], {}, 'timeout')]);

    // Act
    const a = essentialEightView(input({ audit: unfinished }));
    const b = essentialEightView(input({ audit: skipped }));

    // Assess
    expect(a.sources.webScan).toBeNull();
    expect(a.strategies.every((s) => s.status === 'not-assessable')).toBe(true);
    expect(b.sources.webScan).toEqual({ auditId: 'a1', completedAt: SCANNED });
    expect(b.strategies.every((s) => s.status === 'not-assessable')).toBe(true);
  });
});

describe('Essential Eight mapping: patch applications', () => {
  it('is evidence for when the scan read versions and none is past a patch window or out of support', () => {
    // Act
    const s = strategy('patch-applications', input({ audit: audit([software()]) }));

    // Assess
    expect(s.status).toBe('evidence-for');
    expect(s.evidence).toHaveLength(1);
    expect(s.evidence[0]).toMatchObject({ effect: 'for', source: 'web-scan', seenAt: SCANNED });
    // The low-confidence jQuery reading is not presented as a version seen.
    expect(s.evidence[0]!.what).toBe('Versions seen on the site: nginx 1.26.2, PHP 8.3.4. None is past ML1\'s patch windows for a known vulnerability or out of vendor support.');
    expect(s.evidence[0]!.where).toBe('Web scan of shop.example.com on 2026-11-26');
  });

  it('is never evidence for from a scan whose landing page did not load (DECISIONS "Rescan target"): a neutral note says why', () => {
    // Prepare: the scan asked for https:// of a site whose page answered 503; its software check read only banners.
    const down = audit([landing(503), software()]);

    // Act
    const s = strategy('patch-applications', input({ audit: down }));

    // Assess
    expect(s.status).toBe('not-assessable');
    expect(s.evidence.map((e) => `${e.source} ${e.effect}`)).toEqual(['web-scan neutral']);
    expect(s.evidence[0]!.what).toBe("This scan could not load the site's landing page (it answered 503), so nothing it did not see counts for patching.");
    const ubuntu = [{ product: 'ubuntu', version: '1', cycle: '1', name: 'Ubuntu 22.04', eol: '2027-04-01', ended: false }];
    expect(strategy('patch-operating-systems', input({ audit: audit([landing(503), software([], { endOfLife: ubuntu })]) })).status).toBe('not-assessable');
    expect(strategy('patch-operating-systems', input({ audit: audit([software([], { endOfLife: ubuntu })]) })).status).toBe('evidence-for');
  });

  it('is never evidence for from a software check that ran limited, but what it saw against still counts', () => {
    const limited = software([], { notChecked: [{ part: 'The page’s scripts', cause: 'rate_limited', reason: 'They answered 429.' }] });
    expect(strategy('patch-applications', input({ audit: audit([limited]) })).status).toBe('not-assessable');
    const kev = cveFinding('Apache HTTP Server 2.4.49', [cve('CVE-2021-41773', { exploited: true, kevDateAdded: '2021-11-03' })]);
    const against = software([kev], { notChecked: ['The server’s default error page (a request for a page that does not exist)'] });
    expect(strategy('patch-applications', input({ audit: audit([landing(503), against]) })).status).toBe('evidence-against');
  });

  it('is evidence against for a known exploited (KEV) CVE listed more than 48 hours before the scan', () => {
    // Prepare
    const f = cveFinding('Apache HTTP Server 2.4.49', [cve('CVE-2021-41773', { exploited: true, kevDateAdded: '2026-11-20' }), cve('CVE-2021-0002')]);

    // Act
    const s = strategy('patch-applications', input({ audit: audit([software([f])]) }));

    // Assess
    expect(s.status).toBe('evidence-against');
    expect(s.evidence.map((e) => e.effect)).toEqual(['against']);
    expect(s.evidence[0]!.what).toBe('Apache HTTP Server 2.4.49 is unpatched more than 48 hours after a working exploit was known: CVE-2021-41773 (known exploited since 2026-11-20).');
    expect(s.evidence[0]!.findingId).toBe(f.id);
  });

  it('leaves a KEV CVE listed within the last 48 hours inside its window (neutral, with the date to patch by)', () => {
    // Prepare: listed 2026-11-25, so due 2026-11-27T00:00Z, after the scan of 2026-11-26T03:00Z
    const f = cveFinding('WordPress 6.4.1', [cve('CVE-2026-1111', { exploited: true, kevDateAdded: '2026-11-25' })]);

    // Act
    const s = strategy('patch-applications', input({ audit: audit([software([f])]) }));

    // Assess
    expect(s.status).toBe('evidence-for');
    const neutral = s.evidence.find((e) => e.effect === 'neutral')!;
    expect(neutral.what).toBe('WordPress 6.4.1 is still inside ML1\'s patch window: CVE-2026-1111 became known exploited on 2026-11-25: patch by 2026-11-27 (48 hours).');
    expect(s.evidence.some((e) => e.effect === 'against')).toBe(false);
  });

  it('counts a KEV CVE without a listing date as overdue (the catalogue entries are almost always older)', () => {
    const f = cveFinding('OpenSSL 3.0.1', [cve('CVE-2022-0001', { exploited: true })]);
    expect(strategy('patch-applications', input({ audit: audit([software([f])]) })).status).toBe('evidence-against');
  });

  it('keeps a non-KEV CVE seen for under two weeks neutral, and calls it against once it has been seen for more than two weeks', () => {
    // Prepare
    const f = cveFinding('PHP 8.3.4', [cve('CVE-2026-2222')]);
    const recent = new Map([[cveKey(f.id, 'CVE-2026-2222'), '2026-11-20T03:00:00.000Z']]);
    const old = new Map([[cveKey(f.id, 'CVE-2026-2222'), '2026-11-11T03:00:00.000Z']]);

    // Act
    const inWindow = strategy('patch-applications', input({ audit: audit([software([f])]), cveFirstSeen: recent }));
    const onlyOnce = strategy('patch-applications', input({ audit: audit([software([f])]) }));
    const overdue = strategy('patch-applications', input({ audit: audit([software([f])]), cveFirstSeen: old }));

    // Assess
    expect(inWindow.status).toBe('evidence-for');
    expect(inWindow.evidence.find((e) => e.effect === 'neutral')!.what).toBe(
      'PHP 8.3.4 is still inside ML1\'s patch window: 1 known vulnerability first seen on 2026-11-20: patch by 2026-12-04 (two weeks).',
    );
    expect(onlyOnce.evidence.find((e) => e.effect === 'neutral')!.what).toContain('first seen on 2026-11-26: patch by 2026-12-10');
    expect(overdue.status).toBe('evidence-against');
    expect(overdue.evidence[0]!.what).toBe('PHP 8.3.4 has had 1 known vulnerability unpatched since 2026-11-11, more than two weeks before this scan (CVE-2026-2222).');
  });

  it('treats a version match on a distribution package (backport possible) as neutral, never against', () => {
    // Prepare
    const f = cveFinding('OpenSSH 9.2p1', [cve('CVE-2024-6387', { exploited: true, kevDateAdded: '2024-07-01' })]);
    const data = { vulnerabilities: [{ findingId: f.id, confidence: 'backport-possible' }] };

    // Act
    const s = strategy('patch-applications', input({ audit: audit([software([f], data)]) }));

    // Assess
    expect(s.evidence.map((e) => e.effect)).toEqual(['for', 'neutral']);
    expect(s.status).toBe('evidence-for');
  });

  it('calls out-of-support application software against, and leaves an unsupported OS to patch operating systems', () => {
    // Prepare
    const php = { ...finding('eol.php', 'PHP 7.4 reached end of life on 2022-11-28: no security fixes since', 'software'), category: 'Vulnerabilities' };
    const debian = { ...finding('eol.debian', 'Debian 10 reached end of life on 2022-09-10: no security fixes since', 'software'), category: 'Vulnerabilities' };
    const endOfLife = [
      { product: 'php', version: '7.4.33', cycle: '7.4', name: 'PHP 7.4', eol: '2022-11-28', ended: true, findingId: 'eol.php' },
      { product: 'debian', version: '10', cycle: '10', name: 'Debian 10', eol: '2022-09-10', ended: true, findingId: 'eol.debian' },
    ];

    // Act
    const s = strategy('patch-applications', input({ audit: audit([software([php, debian], { endOfLife })]) }));

    // Assess
    expect(s.status).toBe('evidence-against');
    expect(s.evidence.map((e) => e.findingId)).toEqual(['eol.php']);
  });

  it('reads agents: a KEV vulnerability in installed software is against, a clean report is for, others are neutral', () => {
    // Prepare
    const kev = agent({ hostname: 'PC-1', vulnerabilities: [vulnerability({ kev: true, cve: 'CVE-2023-38831', package_name: 'WinRAR', installed_version: '6.22' })], vulnerabilityCount: 1 });
    const clean = agent({ hostname: 'PC-2' });
    const some = agent({ hostname: 'PC-3', vulnerabilities: [vulnerability({})], vulnerabilityCount: 4 });

    // Act
    const against = strategy('patch-applications', input({ agents: [kev, clean] }));
    const forIt = strategy('patch-applications', input({ agents: [clean, some] }));
    const neutral = strategy('patch-applications', input({ agents: [some] }));

    // Assess
    expect(against.status).toBe('evidence-against');
    expect(against.evidence[0]).toMatchObject({ effect: 'against', source: 'agent', seenAt: kev.reportedAt });
    expect(against.evidence[0]!.what).toContain('CVE-2023-38831 in WinRAR 6.22');
    expect(against.evidence[0]!.where).toBe('Agent on PC-1 (Microsoft Windows 11 Pro 10.0.26100), report of 2026-11-26');
    expect(forIt.status).toBe('evidence-for');
    expect(neutral.status).toBe('not-assessable');
  });

  it('is not assessable with no scan and no agent, or a scan whose software check did not finish', () => {
    expect(strategy('patch-applications', input()).status).toBe('not-assessable');
    expect(strategy('patch-applications', input({ audit: audit([software([], {}, 'error')]) })).status).toBe('not-assessable');
  });
});

describe('Essential Eight mapping: the CVEs\' first sighting', () => {
  it('follows each CVE back through the unbroken run of scans that showed it', () => {
    // Prepare (newest first)
    const both = cveFinding('PHP 8.3.4', [cve('CVE-1'), cve('CVE-2')]);
    const one = cveFinding('PHP 8.3.4', [cve('CVE-1')]);
    const scans = [
      { completedAt: '2026-11-26T00:00:00.000Z', checks: [software([both])] },
      { completedAt: '2026-11-19T00:00:00.000Z', checks: [software([one])] },
      { completedAt: '2026-11-12T00:00:00.000Z', checks: [software([one])] },
      { completedAt: '2026-11-05T00:00:00.000Z', checks: [software([])] },
      { completedAt: '2026-10-29T00:00:00.000Z', checks: [software([both])] },
    ];

    // Act
    const seen = cveFirstSeen(scans);

    // Assess
    expect(seen.get(cveKey(both.id, 'CVE-1'))).toBe('2026-11-12T00:00:00.000Z');
    expect(seen.get(cveKey(both.id, 'CVE-2'))).toBe('2026-11-26T00:00:00.000Z');
    expect(seen.size).toBe(2);
  });
});

describe('Essential Eight mapping: patch operating systems', () => {
  const endOfLife = (name: string, product: string, ended: boolean, eol: string) => [{ product, version: '1', cycle: '1', name, eol, ended, ...(ended ? { findingId: `eol.${product}` } : {}) }];

  it('is evidence against for an operating system out of support, seen in banners', () => {
    // Prepare
    const f = { ...finding('eol.debian', 'Debian 10 reached end of life on 2022-09-10: no security fixes since', 'software') };

    // Act
    const s = strategy('patch-operating-systems', input({ audit: audit([software([f], { endOfLife: endOfLife('Debian 10', 'debian', true, '2022-09-10') })]) }));

    // Assess
    expect(s.status).toBe('evidence-against');
    expect(s.evidence[0]!.what).toBe('Debian 10, seen in the server\'s banners, is out of security support since 2022-09-10: ML1 replaces operating systems the vendor no longer supports.');
    expect(s.evidence[0]!.findingId).toBe('eol.debian');
  });

  it('is evidence for a supported operating system, saying that installing updates on time is checked on the machine', () => {
    const s = strategy('patch-operating-systems', input({ audit: audit([software([], { endOfLife: endOfLife('Ubuntu 22.04', 'ubuntu', false, '2027-04-01') })]) }));
    expect(s.status).toBe('evidence-for');
    expect(s.evidence[0]!.what).toBe('Ubuntu 22.04, seen in the server\'s banners, still gets security fixes (until 2027-04-01). Whether they are installed on time can only be checked on the server.');
  });

  it('ignores applications\' end of life, and is not assessable without an OS seen', () => {
    const s = strategy('patch-operating-systems', input({ audit: audit([software([], { endOfLife: endOfLife('PHP 7.4', 'php', true, '2022-11-28') })]) }));
    expect(s.status).toBe('not-assessable');
  });

  it('reads the agents\' operating systems: ended is against, supported for, unknown neutral', () => {
    // Prepare
    const old = agent({ hostname: 'OLD', osVersion: 'Microsoft Windows 10 Pro 10.0.19045', osSupport: { name: 'Windows 10 22H2', eol: '2025-10-14', ended: true } });
    const mac = agent({ hostname: 'MAC', platform: 'macos', osVersion: 'macOS 14.5' });
    delete (mac as Partial<EssentialEightAgent>).osSupport;

    // Act
    const against = strategy('patch-operating-systems', input({ agents: [agent(), old] }));
    const unknown = strategy('patch-operating-systems', input({ agents: [mac] }));

    // Assess
    expect(against.status).toBe('evidence-against');
    expect(against.evidence.map((e) => e.effect)).toEqual(['against', 'for']);
    expect(against.evidence[0]!.what).toBe('Windows 10 22H2 is out of security support since 2025-10-14: ML1 replaces operating systems the vendor no longer supports.');
    expect(unknown.status).toBe('not-assessable');
    expect(unknown.evidence[0]!.effect).toBe('neutral');
  });

  it('looks agents\' operating systems up in the end-of-life data by name and build', () => {
    const today = '2026-11-27';
    expect(agentOsSupport('windows', 'Microsoft Windows 10 Pro 10.0.19045', today)).toEqual({ name: 'Windows 10 22H2', eol: '2025-10-14', ended: true });
    expect(agentOsSupport('windows', 'Microsoft Windows 11 Enterprise 10.0.22631', today)).toEqual({ name: 'Windows 11 23H2 (E)', eol: '2026-11-10', ended: true });
    expect(agentOsSupport('windows', 'Microsoft Windows 11 Pro 10.0.26100', today)).toEqual({ name: 'Windows 11 24H2 (W)', eol: '2026-10-13', ended: true });
    expect(agentOsSupport('windows', 'Microsoft Windows 11 Pro 10.0.26200', today)).toEqual({ name: 'Windows 11 25H2 (W)', eol: '2027-10-12', ended: false });
    expect(agentOsSupport('windows', 'Microsoft Windows Server 2012 R2 Standard 6.3.9600', today)).toMatchObject({ name: 'Windows Server 2012 R2', ended: true });
    expect(agentOsSupport('windows', 'Microsoft Windows Server 2022 Datacenter 10.0.20348', today)).toMatchObject({ eol: '2031-10-14', ended: false });
    expect(agentOsSupport('linux', 'Ubuntu 22.04.4 LTS', today)).toMatchObject({ name: 'Ubuntu 22.04', ended: false });
    expect(agentOsSupport('linux', 'Debian GNU/Linux 11 (bullseye)', today)).toMatchObject({ name: 'Debian 11', ended: true });
    expect(agentOsSupport('macos', 'macOS 14.5', today)).toBeUndefined();
    expect(agentOsSupport('linux', 'Arch Linux', today)).toBeUndefined();
  });
});

describe('Essential Eight mapping: multi-factor authentication', () => {
  it('is evidence against when a password-only service answers on the internet (RDP, Telnet, FTP, VNC, WordPress XML-RPC)', () => {
    for (const [id, title] of [
      ['ports.remote-access.rdp', 'Remote Desktop (RDP) is open to the internet'],
      ['ports.remote-access.telnet', 'Telnet is open to the internet'],
      ['ports.cleartext.ftp', 'FTP is open to the internet'],
      ['ports.remote-access.vnc', 'VNC remote control is open to the internet'],
      ['wordpress.xmlrpc-enabled', 'XML-RPC is enabled'],
    ] as const) {
      const s = strategy('multi-factor-authentication', input({ audit: audit([check(id.split('.')[0]!, [finding(id, title)])]) }));
      expect(s.status, id).toBe('evidence-against');
      expect(s.evidence[0]!.findingId).toBe(id);
      expect(s.evidence[0]!.what.startsWith(`${title}. `)).toBe(true);
    }
  });

  it('is never evidence for from outside: a clean scan and SSH alone leave it not assessable', () => {
    const ssh = finding('ports.remote-access.ssh', 'SSH is reachable from the internet');
    const s = strategy('multi-factor-authentication', input({ audit: audit([check('ports', [ssh]), software()]), agents: [agent()] }));
    expect(s.status).toBe('not-assessable');
    expect(s.evidence.map((e) => e.effect)).toEqual(['neutral']);
    expect(ESSENTIAL_EIGHT['multi-factor-authentication'].findings.some((rule) => rule.effect === 'for')).toBe(false);
  });
});

describe('Essential Eight mapping: restrict administrative privileges', () => {
  it('is evidence for when the agents see at most one administrator, against when they see several', () => {
    // Prepare
    const one = agent({ cisChecks: [passed('cis.admin-users', '1 administrator: alice')] });
    const many = agent({ hostname: 'SHARED-PC', cisChecks: [passed('cis.admin-users', '3 administrators: alice, bob, carol', false)] });

    // Act
    const forIt = strategy('restrict-administrative-privileges', input({ agents: [one] }));
    const against = strategy('restrict-administrative-privileges', input({ agents: [one, many] }));

    // Assess
    expect(forIt.status).toBe('evidence-for');
    expect(against.status).toBe('evidence-against');
    expect(against.evidence[0]!.what).toBe('3 administrators: alice, bob, carol. Several accounts hold administrator rights: ML1 expects them only for approved, separate administrator accounts.');
    expect(against.evidence[0]!.where).toContain('SHARED-PC');
  });

  it('is evidence against for an unauthenticated Docker API, and not assessable with nothing seen', () => {
    const docker = finding('ports.remote-access.docker', 'Docker API without TLS is open to the internet');
    expect(strategy('restrict-administrative-privileges', input({ audit: audit([check('ports', [docker])]) })).status).toBe('evidence-against');
    expect(strategy('restrict-administrative-privileges', input({ audit: audit([software()]) })).status).toBe('not-assessable');
  });
});

describe('Essential Eight mapping: application control', () => {
  it('is evidence against when an unsigned program starts from a user profile on a Windows agent; other unsigned entries are neutral', () => {
    // Prepare
    const fromProfile = agent({
      cisChecks: [passed('cis.persistence-signatures', '1 unsigned or unknown: updater (C:\\Users\\sam\\AppData\\Roaming\\updater.exe)', false)],
    });
    const elsewhere = agent({ cisChecks: [passed('cis.persistence-signatures', '1 unsigned or unknown: tool (C:\\Tools\\tool.exe)', false)] });
    const linux = agent({ platform: 'linux', cisChecks: [passed('cis.persistence-signatures', '1 unsigned or unknown: x (/home/sam/\\Users\\x\\AppData\\y)', false)] });

    // Act
    const against = strategy('application-control', input({ agents: [fromProfile] }));
    const neutral = strategy('application-control', input({ agents: [elsewhere, linux] }));

    // Assess
    expect(against.status).toBe('evidence-against');
    expect(against.evidence.map((e) => e.effect)).toEqual(['against', 'neutral']);
    expect(neutral.status).toBe('not-assessable');
  });

  it('is never evidence for: signed startup programs do not show a policy is in force', () => {
    const signed = agent({ cisChecks: [passed('cis.persistence-signatures', '12 startup entries, all signed')] });
    expect(strategy('application-control', input({ agents: [signed], audit: audit([software()]) })).status).toBe('not-assessable');
  });
});

describe('Essential Eight mapping: what cannot be seen from outside', () => {
  it('leaves Office macros and user application hardening not assessable whatever the scan and agents show, with steps to check', () => {
    // Prepare: everything the other strategies read, for and against
    const given = input({
      audit: audit([software(), check('ports', [finding('ports.remote-access.rdp', 'Remote Desktop (RDP) is open to the internet')])]),
      agents: [agent({ cisChecks: [passed('cis.admin-users', '3 administrators: a, b, c', false)] })],
    });

    // Act
    const macros = strategy('office-macros', given);
    const hardening = strategy('user-application-hardening', given);

    // Assess
    expect([macros.status, hardening.status]).toEqual(['not-assessable', 'not-assessable']);
    expect(macros.evidence).toEqual([]);
    expect(hardening.evidence).toEqual([]);
    expect(macros.howToCheck.join(' ')).toContain('Block macros from running in Office files from the Internet');
    expect(hardening.howToCheck.join(' ')).toContain('Internet Explorer 11');
  });
});

describe('Essential Eight mapping: regular backups', () => {
  it('is evidence against when a backup or database dump can be downloaded from the site, else not assessable', () => {
    const dump = finding('exposure.sql-dump', 'A database dump is publicly downloadable', 'exposure');
    const backup = finding('exposure.backup-file', 'A backup file is publicly downloadable', 'exposure');
    const against = strategy('regular-backups', input({ audit: audit([check('exposure', [dump, backup])]) }));
    expect(against.status).toBe('evidence-against');
    expect(against.evidence.map((e) => e.findingId)).toEqual(['exposure.sql-dump', 'exposure.backup-file']);
    expect(strategy('regular-backups', input({ audit: audit([check('exposure', [])]), agents: [agent()] })).status).toBe('not-assessable');
  });
});
