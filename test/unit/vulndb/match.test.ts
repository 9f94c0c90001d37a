import { describe, expect, it } from 'vitest';
import { knownProducts, matchVulnerabilities, rankScore, resolveProduct } from '../../../lambdas/scanner/vulndb/match.js';
import { PRODUCT_CATALOG } from '../../../lambdas/scanner/vulndb/products.js';

const ids = (product: string, version: string) => matchVulnerabilities(product, version).vulnerabilities.map((v) => v.id);

/** The values below are what the shipped data says (shared/data/vulndb, see PROVENANCE.md). */
describe('CVE matching on the shipped knowledge base', () => {
  it('Apache 2.4.49: the path traversal CVE-2021-41773 (KEV) first, KEV CVEs before higher CVSS, fixed in 2.4.68', () => {
    // Act
    const match = matchVulnerabilities('Apache', '2.4.49');

    // Assess
    expect(match.product).toBe('apache_http_server');
    expect(match.productName).toBe('Apache HTTP Server');
    expect(match.vulnerabilities).toHaveLength(61);
    expect(match.vulnerabilities.slice(0, 3).map((v) => [v.id, v.exploited, v.cvssScore])).toEqual([
      ['CVE-2021-41773', true, 9.8],
      ['CVE-2021-42013', true, 9.8],
      ['CVE-2024-38475', true, 9.1],
    ]);
    const first = match.vulnerabilities[0]!;
    expect(first).toMatchObject({ severity: 'critical', scoreSource: 'cvss', kevDateAdded: '2021-11-03', ransomware: true, fixedIn: '2.4.50' });
    expect(first.epss).toBeCloseTo(0.99992, 5);
    expect(match.vulnerabilities[3]!.exploited).toBe(false);
    expect(match.vulnerabilities[3]!.cvssScore).toBe(9.8);
    expect(match.vulnerabilities.find((v) => v.id === 'CVE-2021-42013')!.fixedIn).toBe('2.4.51');
    expect(match).toMatchObject({ fixedVersion: '2.4.68', fixedVersionScope: 'all-known', unfixed: [], unranged: [] });
  });

  it('Apache: CVE-2021-44224 ("2.4.7 up to 2.4.51", split in the source) is neither everywhere nor nowhere', () => {
    expect(ids('Apache', '2.4.51')).toContain('CVE-2021-44224');
    expect(ids('Apache', '2.4.52')).not.toContain('CVE-2021-44224');
    expect(ids('Apache', '2.4.6')).not.toContain('CVE-2021-44224');
  });

  it('Apache httpd 2.4.40 is not hit by the 2.4.49-only traversal but by the 2.4.17–2.4.48 HTTP/2 one', () => {
    const found = ids('Apache httpd', '2.4.40');
    expect(found).not.toContain('CVE-2021-41773');
    expect(found).toContain('CVE-2021-33193');
    expect(ids('apache_http_server', '2.4.16')).not.toContain('CVE-2021-33193');
  });

  it('OpenSSH 7.2p2: user enumeration CVE-2016-6210 and friends, fixed for everything known in 10.5', () => {
    const match = matchVulnerabilities('OpenSSH', '7.2p2');
    expect(match.vulnerabilities).toHaveLength(21);
    expect(match.vulnerabilities.map((v) => v.id)).toEqual(expect.arrayContaining(['CVE-2016-6210', 'CVE-2016-6515', 'CVE-2016-10009', 'CVE-2018-15473', 'CVE-2023-38408']));
    expect(match.vulnerabilities[0]!.id).toBe('CVE-2023-51385');
    expect(match.vulnerabilities.find((v) => v.id === 'CVE-2016-6210')).toMatchObject({ cvssScore: 5.9, fixedIn: '7.3', exploited: false });
    expect(match).toMatchObject({ fixedVersion: '10.5', fixedVersionScope: 'all-known' });
  });

  it('OpenSSH portable builds count as their release: 7.3p1 is "through 7.3", 9.8p1 is not "before 9.8"', () => {
    expect(ids('OpenSSH', '7.3p1')).toContain('CVE-2016-10009');
    expect(ids('OpenSSH', '7.4p1')).not.toContain('CVE-2016-10009');
    expect(ids('OpenSSH', '9.7p1')).toContain('CVE-2024-6387');
    expect(ids('OpenSSH', '9.8p1')).not.toContain('CVE-2024-6387');
    expect(ids('OpenSSH', '8.4p1')).not.toContain('CVE-2024-6387');
  });

  it('jQuery 1.8.3: CVE-2020-11023 (KEV) first, CVE-2019-11358, fixed in 3.5.0, and the 1.x end-of-life notice', () => {
    const match = matchVulnerabilities('jquery', '1.8.3');
    expect(match.vulnerabilities.map((v) => v.id)).toEqual([
      'CVE-2020-11023',
      'CVE-2020-7656',
      'CVE-2019-11358',
      'CVE-2015-9251',
      'CVE-2012-6708',
      'RETIRE-jquery-issue-11974',
    ]);
    expect(match.vulnerabilities[0]).toMatchObject({ exploited: true, cvssScore: 6.9, fixedIn: '3.5.0' });
    expect(match.vulnerabilities[2]).toMatchObject({ id: 'CVE-2019-11358', severity: 'medium', scoreSource: 'vendor-severity', fixedIn: '3.4.0' });
    expect(match).toMatchObject({ fixedVersion: '3.5.0', fixedVersionScope: 'all-known' });
    expect(match.endOfLife?.summary).toMatch(/jQuery 1\.x and 2\.x are End-of-Life/);
  });

  it('jQuery: CVE-2020-11022 starts at 1.12.0 in retire.js (NVD says 1.2), so 1.8.3 does not have it but 1.12.4 does', () => {
    expect(ids('jQuery', '1.8.3')).not.toContain('CVE-2020-11022');
    expect(ids('jquery.js', '1.12.4')).toContain('CVE-2020-11022');
    expect(ids('jquery', '3.5.0')).toEqual([]);
  });

  it('jQuery: retire.js excludes the AEM build 1.12.4-aem from CVE-2015-9251, not 1.12.4 itself', () => {
    expect(ids('jquery', '1.12.4')).toContain('CVE-2015-9251');
    expect(ids('jquery', '1.12.4-aem')).not.toContain('CVE-2015-9251');
  });

  it('nginx 1.22.1: the 1.22.1 fixes count (CVE-2022-41741 not matched), HTTP/2 rapid reset (KEV) first, fixed in 1.30.4', () => {
    const match = matchVulnerabilities('nginx', '1.22.1');
    expect(match.vulnerabilities).toHaveLength(20);
    expect(match.vulnerabilities[0]).toMatchObject({ id: 'CVE-2023-44487', exploited: true, cvssScore: 7.5, fixedIn: '1.25.3' });
    expect(match.vulnerabilities.map((v) => v.id)).not.toContain('CVE-2022-41741');
    expect(ids('nginx', '1.22.0')).toContain('CVE-2022-41741');
    expect(ids('nginx', '1.23.1')).toContain('CVE-2022-41741');
    expect(match.vulnerabilities.find((v) => v.id === 'CVE-2024-7347')!.fixedIn).toBe('1.26.2');
    expect(match).toMatchObject({ fixedVersion: '1.30.4', fixedVersionScope: 'all-known' });
    expect(match.unranged.map((v) => v.id)).toEqual(['CVE-2010-2263', 'CVE-2010-2266', 'CVE-2011-4963']);
  });

  it('WordPress 6.1.9: four CVEs, three without a score, fixed in 7.0.4', () => {
    const match = matchVulnerabilities('WordPress', '6.1.9');
    expect(match.vulnerabilities.map((v) => [v.id, v.cvssScore ?? v.severity, v.fixedIn])).toEqual([
      ['CVE-2023-5692', 5.3, '6.4.4'],
      ['CVE-2026-65640', 'unknown', '7.0.4'],
      ['CVE-2025-58674', 'unknown', '6.8.3'],
      ['CVE-2025-58246', 'unknown', '6.8.3'],
    ]);
    expect(match.vulnerabilities[1]!.scoreSource).toBe('none');
    expect(match.fixedVersion).toBe('7.0.4');
  });

  it('Exchange build 15.1.2507.6: CVE-2024-21410 (KEV) first; a patched older CU is not flagged by a newer CU’s fix', () => {
    const match = matchVulnerabilities('Microsoft Exchange', '15.1.2507.6');
    expect(match.vulnerabilities.map((v) => v.id)).toEqual([
      'CVE-2024-21410',
      'CVE-2024-26198',
      'CVE-2023-36439',
      'CVE-2023-36050',
      'CVE-2023-36039',
      'CVE-2023-36035',
      'CVE-2024-49040',
    ]);
    expect(match.vulnerabilities[0]).toMatchObject({ exploited: true, fixedIn: '15.1.2507.37' });
    expect(match.fixedVersion).toBe('15.1.2507.44');
    expect(match.unranged.filter((v) => v.exploited)).toHaveLength(17);
    // CVE-2021-34453 was fixed in CU21 (15.1.2308.15) and CU22 (15.1.2375.12).
    expect(ids('Exchange', '15.1.2308.15')).not.toContain('CVE-2021-34453');
    expect(ids('Exchange', '15.1.2308.14')).toContain('CVE-2021-34453');
    expect(ids('Exchange', '15.1.2375.7')).toContain('CVE-2021-34453');
    expect(ids('Exchange', '15.1.2375.12')).not.toContain('CVE-2021-34453');
  });

  it('Joomla 4.2.7: the unauthenticated API leak CVE-2023-23752 (KEV) first, fixed in 4.2.8', () => {
    const match = matchVulnerabilities('Joomla!', '4.2.7');
    expect(match.vulnerabilities[0]).toMatchObject({ id: 'CVE-2023-23752', exploited: true, fixedIn: '4.2.8' });
    expect(ids('joomla', '4.2.8')).not.toContain('CVE-2023-23752');
  });

  it('Tomcat milestones and MySQL vendor suffixes match', () => {
    expect(ids('Tomcat', '9.0.0.M5')).toContain('CVE-2016-6817');
    expect(ids('Apache Tomcat', '9.0.0.M12')).not.toContain('CVE-2016-6817');
    const mysql = matchVulnerabilities('MySQL', '5.7.19-log');
    expect(mysql).toMatchObject({ matchedVersion: '5.7.19', versionSuffix: 'log' });
    expect(mysql.vulnerabilities.map((v) => v.id)).toContain('CVE-2017-10384');
    // Oracle's "up to 5.6.34 / up to 5.7.16" lists are per line: 5.7.19 is past the 5.7 end.
    expect(mysql.vulnerabilities.map((v) => v.id)).not.toContain('CVE-2016-8318');
    expect(ids('MySQL', '5.7.16')).toContain('CVE-2016-8318');
  });

  it('OpenSSL letters and ProFTPD letters', () => {
    expect(ids('OpenSSL', '1.0.1f')).toContain('CVE-2014-0160');
    expect(ids('OpenSSL', '1.0.1g')).not.toContain('CVE-2014-0160');
    expect(matchVulnerabilities('ProFTPD', '1.3.5')).toMatchObject({ fixedVersion: '1.3.8c' });
    expect(ids('ProFTPD', '1.3.5')[0]).toBe('CVE-2015-3306');
  });

  it('advises only versions that fix what matched when every newer known version still has something', () => {
    const match = matchVulnerabilities('AngularJS', '1.5.8');
    expect(match).toMatchObject({ fixedVersion: '1.9.9', fixedVersionScope: 'matched-only' });
    const unfixed = matchVulnerabilities('angular.js', '1.7.5');
    expect(unfixed.unfixed).toEqual(['CVE-2022-25844']);
  });

  it('never predicts an IIS release: IIS 6.0 is advised 7.5, which fixes the matched CVE only', () => {
    const match = matchVulnerabilities('Microsoft-IIS', '6.0');
    expect(match.vulnerabilities.map((v) => [v.id, v.exploited])).toEqual([['CVE-2017-7269', true]]);
    expect(match).toMatchObject({ fixedVersion: '7.5', fixedVersionScope: 'matched-only' });
  });

  it('returns an empty result for an unknown product or a string that is not a version', () => {
    expect(matchVulnerabilities('Caddy', '2.7.6')).toEqual({ productName: 'Caddy', version: '2.7.6', matchedVersion: '2.7.6', vulnerabilities: [], unfixed: [], unranged: [] });
    const unparsed = matchVulnerabilities('nginx', 'unknown');
    expect(unparsed.vulnerabilities).toEqual([]);
    expect(unparsed.matchedVersion).toBeUndefined();
    expect(unparsed.unranged).toHaveLength(3);
  });

  it('ranks unscored vulnerabilities by the floor of their rating’s band', () => {
    expect(rankScore({ severity: 'high' })).toBe(7);
    expect(rankScore({ severity: 'critical', cvssScore: 9.8 })).toBe(9.8);
    expect(rankScore({ severity: 'unknown' })).toBe(0);
  });
});

describe('product names', () => {
  it.each([
    ['Apache', 'apache_http_server'],
    ['Apache httpd', 'apache_http_server'],
    ['apache_http_server', 'apache_http_server'],
    ['nginx', 'nginx'],
    ['OpenSSH', 'openssh'],
    ['OpenSSL', 'openssl'],
    ['PHP', 'php'],
    ['WordPress', 'wordpress'],
    ['Microsoft-IIS', 'iis'],
    ['MariaDB', 'mariadb'],
    ['MySQL', 'mysql'],
    ['Postfix', 'postfix'],
    ['Exim', 'exim'],
    ['vsFTPd', 'vsftpd'],
    ['ProFTPD', 'proftpd'],
    ['Pure-FTPd', 'pure-ftpd'],
    ['Dovecot', 'dovecot'],
    ['Redis', 'redis'],
    ['PostgreSQL', 'postgresql'],
    ['Tomcat', 'tomcat'],
    ['Drupal', 'drupal'],
    ['Joomla', 'joomla'],
    ['Exchange', 'exchange'],
    ['jquery', 'jquery'],
    ['bootstrap', 'bootstrap'],
    ['angularjs', 'angularjs'],
    ['angular.js', 'angularjs'],
    ['lodash', 'lodash'],
    ['moment', 'moment.js'],
    ['tinyMCE', 'tinymce'],
    ['@angular/core', 'angular-core'],
    ['jquery-ui', 'jquery-ui'],
    ['Caddy', undefined],
  ])('%s → %s', (name, id) => {
    expect(resolveProduct(name)).toBe(id);
  });

  it('lists every product with its name, kind and count, the catalogued ones included', () => {
    const products = knownProducts();
    expect(products).toHaveLength(95);
    for (const id of Object.keys(PRODUCT_CATALOG)) expect(products.map((p) => p.id)).toContain(id);
    expect(products.find((p) => p.id === 'openssh')).toMatchObject({ name: 'OpenSSH', kind: 'server', vulnerabilities: 28 });
    expect(products.find((p) => p.id === 'moment.js')).toMatchObject({ kind: 'javascript-library', vulnerabilities: 5 });
  });
});
