import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeSoftware, type ProbedResponse, type SoftwareData } from '../../../lambdas/scanner/checks/software.check.js';
import { endOfLifeFindings, endOfLifeSubjects, operatingSystemOf, timeSince } from '../../../lambdas/scanner/checks/software/end-of-life.js';
import type { Technology } from '../../../lambdas/scanner/checks/software/types.js';
import { cycleOf, hasEnded, releaseCycles, upgradeTargets } from '../../../lambdas/scanner/vulndb/eol.js';
import { probeOf } from './software-support.js';

const technology = (parts: Partial<Technology> & Pick<Technology, 'name' | 'version'>): Technology => ({
  category: 'web-server',
  confidence: 'high',
  source: 'server-header',
  evidence: [],
  seenIn: ['Server header on https://shop.example/'],
  ...parts,
});

describe('end-of-life software in the software check', () => {
  it('dates PHP 7.4 against the scan date, with the smallest supported step and the newest release', () => {
    // Prepare: what a page's X-Powered-By says, scanned on 2026-11-27.
    const page: ProbedResponse = { url: 'https://shop.example/', status: 200, headers: { 'x-powered-by': ['PHP/7.4.33'], 'content-type': ['text/html'] }, body: '<p>Shop</p>', redirects: [] };

    // Act
    const output = analyzeSoftware(probeOf({ page }), { today: '2026-11-27' });

    // Assess
    const php = output.findings.find((f) => f.id === 'eol.php')!;
    expect(php).toMatchObject({
      check: 'software',
      category: 'Vulnerabilities',
      severity: 'medium',
      title: 'PHP 7.4 reached end of life on 2022-11-28: no security fixes since',
      evidence: 'PHP 7.4.33 (seen in X-Powered-By header on https://shop.example/); PHP 7.4: end of security support 2022-11-28 per endoflife.date',
      recommendation:
        'Upgrade to a supported release: PHP 8.2 (latest 8.2.33, security fixes until 2026-12-31) at least, or better the newest, PHP 8.5 (latest 8.5.9, security fixes until 2029-12-31).',
    });
    expect(php.description).toContain('PHP 7.4 is out of security support since 2022-11-28 (3 years and 11 months before this scan of 2026-11-27)');
    expect((output.data as unknown as SoftwareData).endOfLife).toEqual([{ product: 'php', version: '7.4.33', cycle: '7.4', name: 'PHP 7.4', eol: '2022-11-28', ended: true, findingId: 'eol.php' }]);
  });

  it('says nothing before the date, and judges nothing without a scan date', () => {
    const page: ProbedResponse = { url: 'https://shop.example/', status: 200, headers: { 'x-powered-by': ['PHP/7.4.33'] }, body: '', redirects: [] };

    const before = analyzeSoftware(probeOf({ page }), { today: '2022-11-27' });
    const on = analyzeSoftware(probeOf({ page }), { today: '2022-11-28' });
    const undated = analyzeSoftware(probeOf({ page }));

    expect(before.findings.map((f) => f.id)).not.toContain('eol.php');
    expect((before.data as unknown as SoftwareData).endOfLife).toEqual([{ product: 'php', version: '7.4.33', cycle: '7.4', name: 'PHP 7.4', eol: '2022-11-28', ended: false }]);
    expect(on.findings.find((f) => f.id === 'eol.php')?.description).toContain('(0 days before this scan of 2022-11-28)');
    expect(undated.findings.map((f) => f.id)).not.toContain('eol.php');
    expect((undated.data as unknown as SoftwareData).endOfLifeDate).toBeNull();
  });

  it('reads the operating system from banners: Debian from deb11u, Ubuntu from the package OpenSSH only one release shipped, RHEL from el7', () => {
    const ssh = technology({ name: 'OpenSSH', product: 'openssh', version: '8.4p1', category: 'ssh-server', source: 'ssh-banner', backportHint: 'Debian-5+deb11u3', evidence: ['SSH banner on port 22: SSH-2.0-OpenSSH_8.4p1 Debian-5+deb11u3'], seenIn: ['SSH banner on port 22'] });
    const ubuntu = technology({ name: 'OpenSSH', product: 'openssh', version: '7.6p1', category: 'ssh-server', backportHint: 'Ubuntu-4ubuntu0.7', evidence: ['SSH banner on port 22: SSH-2.0-OpenSSH_7.6p1 Ubuntu-4ubuntu0.7'] });
    const php = technology({ name: 'PHP', product: 'php', version: '8.1.2', backportHint: '-1ubuntu2.14', evidence: ['X-Powered-By: PHP/8.1.2-1ubuntu2.14'] });
    const centos = technology({ name: 'Apache HTTP Server', product: 'apache_http_server', version: '2.4.6', backportHint: '(CentOS)', evidence: ['Server header: Apache/2.4.6 (CentOS)'] });
    const el = technology({ name: 'PHP', product: 'php', version: '5.4.16', backportHint: '-48.el7', evidence: ['X-Powered-By: PHP/5.4.16-48.el7'] });

    expect(operatingSystemOf(ssh)).toEqual({ product: 'debian', version: '11', how: 'the package version deb11u3' });
    expect(operatingSystemOf(ubuntu)).toEqual({ product: 'ubuntu', version: '18.04', how: 'OpenSSH 7.6p1, which only that release shipped' });
    // "1ubuntu2.14" names no release.
    expect(operatingSystemOf(php)).toBeUndefined();
    expect(operatingSystemOf(centos)).toEqual({ product: 'centos', version: '7', how: 'Apache HTTP Server 2.4.6, which only that release shipped' });
    expect(operatingSystemOf(el)).toEqual({ product: 'rhel', version: '7', how: 'the package release el7' });

    const { findings } = endOfLifeFindings(endOfLifeSubjects([ssh]), '2026-11-27');
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      id: 'eol.debian',
      severity: 'medium',
      title: 'Debian 11 reached end of life on 2024-08-14: no security fixes since',
      evidence: 'OpenSSH 8.4p1 (the package version deb11u3) (seen in SSH banner on port 22); Debian 11: end of security support 2024-08-14 per endoflife.date',
      recommendation: 'Upgrade to a supported release: Debian 13 (latest 13.6, security fixes until 2028-08-09).',
    });
    expect(findings[0]!.description).toContain('Debian LTS may extend security support');
  });

  it('names the Windows Server release behind IIS 8.5, and nothing for IIS 10.0 while any release that ships it is supported', () => {
    const iis = (version: string) => technology({ name: 'Microsoft IIS', product: 'iis', version });

    const old = endOfLifeFindings(endOfLifeSubjects([iis('8.5')]), '2026-11-27');
    const current = endOfLifeFindings(endOfLifeSubjects([iis('10.0')]), '2026-11-27');

    expect(old.findings.map((f) => [f.id, f.title])).toEqual([['eol.windows-server', 'Windows Server 2012 R2 reached end of life on 2023-10-10: no security fixes since']]);
    expect(old.findings[0]!.evidence).toMatch(/^Microsoft IIS 8\.5, which ships with this Windows Server release/);
    expect(old.findings[0]!.description).toContain('Microsoft sells Extended Security Updates');
    expect(current.findings).toEqual([]);
    expect(current.statuses).toEqual([{ product: 'windows-server', version: '2016', cycle: '2016', name: 'Microsoft Windows Server 2016', eol: '2027-01-12', ended: false }]);
  });

  it('lowers a distribution package to low (the distribution may patch it), keeps browser libraries low, and reads Exchange by build', () => {
    const nginx = technology({ name: 'nginx', product: 'nginx', version: '1.18.0', backportHint: '(Ubuntu)', distribution: 'Ubuntu' });
    const jquery = technology({ name: 'jQuery', product: 'jquery', version: '1.12.4', category: 'javascript-library', source: 'script-content' });
    const exchange = technology({ name: 'Microsoft Exchange Server', product: 'exchange', version: '15.1.2507.6', category: 'mail-server' });

    const { findings } = endOfLifeFindings(endOfLifeSubjects([nginx, jquery, exchange]), '2026-11-27');

    expect(findings.map((f) => [f.id, f.severity, f.title])).toEqual([
      ['eol.nginx', 'low', 'nginx 1.18 reached end of life on 2021-04-20: no security fixes since'],
      ['eol.jquery', 'low', 'jQuery 1 has reached end of life: no security fixes'],
      ['eol.exchange', 'medium', '2016 CU23 SU19 reached end of life on 2025-10-14: no security fixes since'],
    ]);
    expect(findings[0]!.description).toContain('The banner shows a Ubuntu package: distributions keep patching');
    expect(findings[1]!.recommendation).toBe('Upgrade to a supported release: jQuery 3 (latest 3.7.1) at least, or better the newest, jQuery 4 (latest 4.0.0).');
  });

  it('gives two copies of one product each their finding', () => {
    const older = technology({ name: 'jQuery', product: 'jquery', version: '1.12.4', category: 'javascript-library' });
    const newer = technology({ name: 'jQuery', product: 'jquery', version: '2.2.4', category: 'javascript-library' });

    expect(endOfLifeFindings(endOfLifeSubjects([older, newer]), '2026-11-27').findings.map((f) => f.id)).toEqual(['eol.jquery-1', 'eol.jquery-2']);
  });

  it('counts the time since as a person would', () => {
    expect(timeSince('2022-11-28', '2026-11-27')).toBe('3 years and 11 months');
    expect(timeSince('2022-11-28', '2026-11-28')).toBe('4 years');
    expect(timeSince('2026-06-10', '2026-11-27')).toBe('5 months');
    expect(timeSince('2026-11-15', '2026-11-27')).toBe('12 days');
  });
});

describe('release cycles in the knowledge base', () => {
  it('finds a version\'s cycle by its longest prefix at a dot', () => {
    expect(cycleOf('php', '8.2.4')?.cycle).toBe('8.2');
    expect(cycleOf('nginx', '1.26.3')?.cycle).toBe('1.26');
    expect(cycleOf('nginx', '1.2.9')?.cycle).toBe('1.2');
    expect(cycleOf('bootstrap', '3.3.7')?.cycle).toBe('3');
    expect(cycleOf('mariadb', '10.11.6')?.cycle).toBe('10.11');
    expect(cycleOf('ubuntu', '22.04')?.cycle).toBe('22.04');
    expect(cycleOf('exchange', '15.2.1544.36')?.cycle).toBe('2019');
    expect(cycleOf('exchange', '15.2.2562.1')?.cycle).toBe('subscription');
    expect(cycleOf('php', '9.0.0')).toBeUndefined();
    expect(cycleOf('no-such-product', '1.0')).toBeUndefined();
    expect(releaseCycles('constructor')).toEqual([]);
  });

  it('takes eol true as ended and a date as ended on that day', () => {
    expect(hasEnded({ eol: true }, '2000-01-01')).toBe(true);
    expect(hasEnded({ eol: false }, '2100-01-01')).toBe(false);
    expect(hasEnded({ eol: '2022-11-28' }, '2022-11-28')).toBe(true);
    expect(hasEnded({ eol: '2022-11-28' }, '2022-11-27')).toBe(false);
  });

  it('advises LTS lines where the product has them', () => {
    const { next, newest } = upgradeTargets(cycleOf('ubuntu', '18.04')!, '2026-11-27');
    expect([next?.cycle, newest?.cycle]).toEqual(['22.04', '26.04']);
    expect(upgradeTargets(cycleOf('nodejs', '16.20.2')!, '2026-11-27')).toMatchObject({ next: { cycle: '22' }, newest: { cycle: '26' } });
  });

  it('is not read from ../shared at run time', () => {
    const source = readFileSync(resolve('lambdas/scanner/vulndb/eol.ts'), 'utf8');
    expect(source).not.toMatch(/shared\/data|node:fs|readFileSync/);
  });
});

const shared = resolve('../shared/data/eol');

describe.skipIf(!existsSync(shared))('npm run build:vulndb: end-of-life dates', () => {
  it('keeps every cycle of every product, and rebuilds byte-identical files', async () => {
    const out = mkdtempSync(join(tmpdir(), 'rampart-eol-'));
    try {
      const { buildEndOfLife } = await import('../../../bin/build-eol.js');
      expect(buildEndOfLife(shared, out)).toMatchObject({ products: 28, cycles: 488 });
      for (const file of ['eol.json', 'EOL-PROVENANCE.md']) expect(readFileSync(join(out, file), 'utf8'), file).toBe(readFileSync(resolve('lambdas/scanner/data', file), 'utf8'));
      const php = JSON.parse(readFileSync(join(shared, 'php.json'), 'utf8')) as { cycles: { cycle: string; eol: string | boolean; latest: string | null }[] };
      expect(releaseCycles('php').map((c) => [c.cycle, c.eol, c.latest])).toEqual(php.cycles.map((c) => [c.cycle, c.eol, c.latest]));
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
