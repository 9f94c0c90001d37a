import { describe, expect, it } from 'vitest';
import { distributionPatchLevel } from '../../../lambdas/scanner/vulndb/backport.js';
import { findingSeverity, groupAsFinding, vulnerabilityFindingId } from '../../../lambdas/scanner/vulndb/finding.js';
import { matchVulnerabilities } from '../../../lambdas/scanner/vulndb/match.js';
import type { MatchedVulnerability } from '../../../lambdas/scanner/vulndb/types.js';

const vulnerability = (overrides: Partial<MatchedVulnerability>): MatchedVulnerability => ({
  id: 'CVE-2000-0001',
  aliases: [],
  summary: 'Something bad.',
  severity: 'medium',
  scoreSource: 'cvss',
  exploited: false,
  references: [],
  ...overrides,
});

describe('one finding per product', () => {
  it('Apache 2.4.49: critical, KEV CVEs first, top five described, upgrade advice with the KEV note', () => {
    // Prepare
    const match = matchVulnerabilities('Apache', '2.4.49');

    // Act
    const grouped = groupAsFinding('Apache', '2.4.49', match, { seenIn: 'the Server header of https://shop.example/' })!;

    // Assess
    const { finding, data } = grouped;
    expect(finding).toMatchObject({
      id: 'cve.apache_http_server',
      check: 'cve',
      category: 'Vulnerabilities',
      severity: 'critical',
      title: 'Apache HTTP Server 2.4.49 has 61 known vulnerabilities (3 exploited in the wild)',
      evidence: 'Apache HTTP Server 2.4.49 (seen in the Server header of https://shop.example/)',
      cvssScore: 9.8,
    });
    expect(finding.cves).toHaveLength(61);
    expect(finding.cves!.slice(0, 3)).toEqual(['CVE-2021-41773', 'CVE-2021-42013', 'CVE-2024-38475']);
    expect(finding.description).toContain('CVE-2021-41773 (CVSS 9.8, exploited in the wild, EPSS 100%): A flaw was found in a change made to path normalization in Apache HTTP Server 2.4.49;');
    expect(finding.description).toContain('And 56 more.');
    expect(finding.description.match(/CVE-\d+-\d+ \(/g)).toHaveLength(5);
    expect(finding.recommendation).toBe(
      'Upgrade Apache HTTP Server to 2.4.68 or later. 3 of these are being exploited in the wild (CISA KEV): patch now and check the server for signs of compromise.',
    );
    expect(data).toMatchObject({ findingId: 'cve.apache_http_server', product: 'apache_http_server', confidence: 'version-match', fixedVersion: '2.4.68', exploited: 3 });
    expect(finding.cveDetails).toHaveLength(61);
    expect(finding.cveDetails![0]).toMatchObject({ id: 'CVE-2021-41773', exploited: true, fixedIn: '2.4.50' });
  });

  it('OpenSSH 9.2p1 Debian-2+deb12u10: says fixes may be backported and lowers the severity one level', () => {
    const match = matchVulnerabilities('OpenSSH', '9.2p1');
    const plain = groupAsFinding('OpenSSH', '9.2p1', match)!;
    const debian = groupAsFinding('OpenSSH', '9.2p1', match, { backportHint: 'Debian-2+deb12u10', seenIn: 'the SSH banner on port 22' })!;

    expect(plain.finding.severity).toBe('critical');
    expect(plain.data.confidence).toBe('version-match');
    expect(debian.finding).toMatchObject({
      severity: 'high',
      title: 'OpenSSH 9.2p1 may have 9 known vulnerabilities: Debian (2+deb12u10) may have backported fixes',
      evidence: 'OpenSSH 9.2p1 Debian-2+deb12u10 (seen in the SSH banner on port 22)',
    });
    expect(debian.finding.description).toContain('The banner shows a Debian (2+deb12u10) package.');
    expect(debian.finding.description).toContain('this is a match by version only');
    expect(debian.finding.recommendation).toContain("If OpenSSH comes from Debian packages, install the distribution's security updates");
    expect(debian.data).toMatchObject({ confidence: 'backport-possible', distribution: 'Debian (2+deb12u10)' });
  });

  it('reads a distribution from the version’s own suffix when no hint is given', () => {
    const match = matchVulnerabilities('MySQL', '8.0.36-0ubuntu0.22.04.1');
    const grouped = groupAsFinding('MySQL', '8.0.36-0ubuntu0.22.04.1', match)!;
    expect(grouped.data).toMatchObject({ confidence: 'backport-possible', distribution: 'Ubuntu (0ubuntu0.22.04.1)' });
  });

  it('jQuery 1.8.3: one KEV CVE rated 6.9 makes the finding high; end-of-life is mentioned', () => {
    const grouped = groupAsFinding('jquery', '1.8.3', matchVulnerabilities('jquery', '1.8.3'), { seenIn: 'https://shop.example/js/jquery-1.8.3.min.js' })!;
    expect(grouped.finding).toMatchObject({
      id: 'cve.jquery',
      severity: 'high',
      title: 'jQuery 1.8.3 has 6 known vulnerabilities (1 exploited in the wild)',
      cvssScore: 6.9,
      cves: ['CVE-2020-11023', 'CVE-2020-7656', 'CVE-2019-11358', 'CVE-2015-9251', 'CVE-2012-6708'],
    });
    expect(grouped.finding.recommendation).toBe(
      'Upgrade jQuery to 3.5.0 or later. CVE-2020-11023 is being exploited in the wild (CISA KEV): patch now and check the server for signs of compromise.',
    );
    expect(grouped.finding.description).toContain('jQuery 1.x and 2.x are End-of-Life');
    expect(grouped.finding.description).toContain('CVE-2019-11358 (rated medium by the vendor)');
    expect(grouped.finding.cveDetails!.map((v) => v.id)).toContain('RETIRE-jquery-issue-11974');
  });

  it('WordPress 6.1.9: severity from the one rated CVE; unrated ones said so', () => {
    const grouped = groupAsFinding('WordPress', '6.1.9', matchVulnerabilities('WordPress', '6.1.9'))!;
    expect(grouped.finding).toMatchObject({ severity: 'medium', title: 'WordPress 6.1.9 has 4 known vulnerabilities', cvssScore: 5.3, recommendation: 'Upgrade WordPress to 7.0.4 or later.' });
    expect(grouped.finding.description).toContain('CVE-2026-65640 (not rated)');
  });

  it('Exchange: names the known-exploited CVEs that have no version data', () => {
    const grouped = groupAsFinding('Exchange', '15.1.2507.6', matchVulnerabilities('Exchange', '15.1.2507.6'))!;
    expect(grouped.finding.description).toContain('19 further vulnerabilities of Microsoft Exchange Server (17 exploited in the wild) have no version data and could not be checked');
    expect(grouped.data.unranged).toHaveLength(19);
  });

  it('says when the advised version only fixes what matched, and what has no fix', () => {
    const match = matchVulnerabilities('AngularJS', '1.7.5');
    const grouped = groupAsFinding('AngularJS', '1.7.5', match)!;
    expect(grouped.finding.recommendation).toContain('Upgrade AngularJS to 1.9.9 or later, which fixes these; later advisories still affect that release');
    expect(grouped.finding.recommendation).toContain('No fix is known yet for CVE-2022-25844.');
  });

  it('gives no finding when nothing matched', () => {
    expect(groupAsFinding('nginx', '1.31.3', matchVulnerabilities('nginx', '1.31.3'))).toBeUndefined();
  });

  it('builds stable ids from product ids', () => {
    expect(vulnerabilityFindingId('apache_http_server')).toBe('cve.apache_http_server');
    expect(vulnerabilityFindingId('angular-core')).toBe('cve.angular-core');
    expect(vulnerabilityFindingId('moment.js')).toBe('cve.moment.js');
  });
});

describe('per-CVE detail on the finding (DECISIONS "Per-CVE detail")', () => {
  it('Apache 2.4.49: every CVE as an object, the three known exploited first, with CVSS, KEV, EPSS, fix and summary from the knowledge base', () => {
    // Act
    const { finding } = groupAsFinding('Apache', '2.4.49', matchVulnerabilities('Apache', '2.4.49'))!;
    const details = finding.cveDetails!;

    // Assess
    expect(details.map((c) => c.id)).toEqual(finding.cves);
    expect(details.map((c) => c.exploited).lastIndexOf(true)).toBe(2);
    expect(details.slice(3).every((c) => !c.exploited)).toBe(true);
    // CVE-2021-41773 (path traversal, KEV since 2021-11-03, used by ransomware): the source has its NVD score but no vector.
    expect(details[0]).toEqual({
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
    });
    expect(details[2]).toMatchObject({
      id: 'CVE-2024-38475',
      cvssScore: 9.1,
      cvssVector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:N',
      exploited: true,
      kevDateAdded: '2025-05-01',
      ransomware: false,
      fixedIn: '2.4.60',
    });
    // Not exploited: no KEV facts, EPSS only where the data has it (KEV CVEs).
    expect(details[3]).toEqual({
      id: 'CVE-2026-44631',
      cvssScore: 9.8,
      cvssVector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H',
      severity: 'critical',
      exploited: false,
      fixedIn: '2.4.68',
      summary: expect.stringMatching(/^Buffer Underwrite vulnerability in Apache HTTP Server/),
    });
    // Short: no references, aliases or ranges; summaries of at most 200 characters.
    expect(new Set(details.flatMap((c) => Object.keys(c)))).toEqual(
      new Set(['id', 'cvssScore', 'cvssVector', 'severity', 'exploited', 'kevDateAdded', 'ransomware', 'epss', 'epssPercentile', 'fixedIn', 'summary']),
    );
    expect(Math.max(...details.map((c) => c.summary!.length))).toBeLessThanOrEqual(200);
  });

  it('puts known exploited ones first whatever order the match gives, keeping the rest in order', () => {
    // Prepare
    const match = {
      productName: 'Example',
      version: '1.0',
      vulnerabilities: [
        vulnerability({ id: 'CVE-2024-0001', cvssScore: 9.8, severity: 'critical' }),
        vulnerability({ id: 'CVE-2024-0002', cvssScore: 5.0, exploited: true, kevDateAdded: '2024-02-01', ransomware: false, epss: 0.5, epssPercentile: 0.97 }),
        vulnerability({ id: 'CVE-2024-0003', cvssScore: 7.0, severity: 'high' }),
        vulnerability({ id: 'GHSA-aaaa-bbbb-cccc', severity: 'low', scoreSource: 'vendor-severity', fixedIn: '1.2' }),
      ],
      unfixed: [],
      unranged: [],
    };

    // Act
    const { finding, data } = groupAsFinding('example', '1.0', match)!;

    // Assess
    expect(finding.cveDetails!.map((c) => c.id)).toEqual(['CVE-2024-0002', 'CVE-2024-0001', 'CVE-2024-0003', 'GHSA-aaaa-bbbb-cccc']);
    expect(finding.cves).toEqual(['CVE-2024-0002', 'CVE-2024-0001', 'CVE-2024-0003']);
    expect(finding.cveDetails![0]).toEqual({
      id: 'CVE-2024-0002',
      cvssScore: 5,
      severity: 'medium',
      exploited: true,
      kevDateAdded: '2024-02-01',
      ransomware: false,
      epss: 0.5,
      epssPercentile: 0.97,
      summary: 'Something bad.',
    });
    expect(finding.description).toMatch(/^Example 1\.0 matches 4 known vulnerabilities in the vulnerability data, 1 of them known to be exploited in the wild \(CISA KEV\)\. Most serious: CVE-2024-0002 /);
    // Stored once: the check's data says what was matched, the finding carries the list.
    expect(data).not.toHaveProperty('vulnerabilities');
    expect(data.exploited).toBe(1);
  });
});

describe('finding severity', () => {
  it.each<[string, Partial<MatchedVulnerability>[], string]>([
    ['CVSS 9.8', [{ severity: 'critical', cvssScore: 9.8 }], 'critical'],
    ['KEV rated high', [{ severity: 'high', cvssScore: 7.5, exploited: true }], 'critical'],
    ['KEV rated medium', [{ severity: 'medium', cvssScore: 6.1, exploited: true }], 'high'],
    ['KEV rated low', [{ severity: 'low', exploited: true }], 'medium'],
    ['the worst of several', [{ severity: 'low' }, { severity: 'high' }, { severity: 'medium' }], 'high'],
    ['vendor critical without CVSS', [{ severity: 'critical', scoreSource: 'vendor-severity' }], 'critical'],
    ['only unrated ones', [{ severity: 'unknown', scoreSource: 'none' }], 'medium'],
    ['unrated beside a low', [{ severity: 'unknown', scoreSource: 'none' }, { severity: 'low' }], 'low'],
  ])('%s → %s', (_label, list, expected) => {
    expect(findingSeverity(list.map(vulnerability), 'version-match')).toBe(expected);
  });

  it('is one level lower when fixes may be backported, never below low', () => {
    expect(findingSeverity([vulnerability({ severity: 'critical' })], 'backport-possible')).toBe('high');
    expect(findingSeverity([vulnerability({ severity: 'low' })], 'backport-possible')).toBe('low');
  });
});

describe('distribution patch levels in banners', () => {
  it.each([
    ['Debian-2+deb12u10', 'Debian (2+deb12u10)'],
    ['Ubuntu-4ubuntu0.13', 'Ubuntu (4ubuntu0.13)'],
    ['(Ubuntu)', 'Ubuntu'],
    ['(Debian)', 'Debian'],
    ['Debian/GNU', 'Debian'],
    ['+deb12u1', 'Debian (+deb12u1)'],
    ['0+deb12u1', 'Debian (0+deb12u1)'],
    ['1~deb12u1', 'Debian (1~deb12u1)'],
    ['0ubuntu0.22.04.1', 'Ubuntu (0ubuntu0.22.04.1)'],
    ['el8', 'Red Hat Enterprise Linux or a rebuild (el8)'],
    ['2.4.37-62.module+el8.9.0+19699+7a7a2044', 'Red Hat Enterprise Linux or a rebuild (el8)'],
    ['.el7_9', 'Red Hat Enterprise Linux or a rebuild (el7_9)'],
    ['(CentOS)', 'CentOS (Red Hat Enterprise Linux or a rebuild)'],
    ['(Red Hat)', 'Red Hat (Red Hat Enterprise Linux or a rebuild)'],
    ['1.fc39', 'Fedora (fc39)'],
    ['FreeBSD-20230719', 'FreeBSD (20230719)'],
    ['Raspbian-5+deb11u3', 'Debian (5+deb11u3)'],
    ['(Unix)', undefined],
    ['(Win64) OpenSSL/1.1.1k', undefined],
    ['(Unix) OpenSSL/1.0.2k-fips mod_fcgid/2.3.9', undefined],
    ['1:10.11.6+maria~deb12', undefined],
    ['', undefined],
  ])('%s → %s', (extra, expected) => {
    expect(distributionPatchLevel(extra)).toBe(expected);
  });
});
