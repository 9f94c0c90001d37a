import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { flawKind, rangeFromRaw } from '../../../bin/build-wordpress-vulns.js';
import {
  inWordPressRange,
  loadWordPressVulns,
  matchWordPressComponent,
  packRecordId,
  parseRange,
  type StoredWordPressVulns,
  unpackRecordId,
  wordpressVulnLookup,
} from '../../../lambdas/scanner/vulndb/wordpress.js';
import { parseVersion } from '../../../lambdas/scanner/vulndb/version.js';

const dataDir = resolve('lambdas/scanner/data');
const shared = resolve('../shared/data/vulndb');
const record = (id: string) => `https://www.wordfence.com/threat-intel/vulnerabilities/id/${id}`;

describe('WordPress plugin and theme vulnerabilities in the knowledge base', () => {
  it('matches Duplicator 1.3.26 to its CVEs, the KEV one first with its CISA date, fixed version and Wordfence record', async () => {
    // Prepare
    const lookup = await loadWordPressVulns();

    // Act
    const match = matchWordPressComponent(lookup, 'plugin', 'duplicator', '1.3.26');

    // Assess: values as wordpress-plugins.jsonl has them (WORDPRESS-PROVENANCE.md).
    expect(match.vulnerabilities.map((v) => v.id)).toEqual(['CVE-2020-11738', 'CVE-2022-2551', 'CVE-2023-6114', 'CVE-2022-2552', 'CVE-2024-6210', 'CVE-2023-51681']);
    expect(match.vulnerabilities[0]).toMatchObject({
      id: 'CVE-2020-11738',
      summary: 'Directory Traversal (versions before 1.3.28)',
      cvssScore: 7.5,
      cvssVector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N',
      severity: 'high',
      exploited: true,
      kevDateAdded: '2021-11-03',
      ransomware: false,
      fixedIn: '1.3.28',
    });
    expect(match.vulnerabilities[0]!.references).toEqual([expect.stringMatching(/^https:\/\/www\.wordfence\.com\/threat-intel\/vulnerabilities\/id\/[0-9a-f-]{36}$/)]);
    expect(match.vulnerabilities.find((v) => v.id === 'CVE-2023-51681')).toMatchObject({ fixedIn: '1.5.7.1', summary: 'Cross-Site Request Forgery (versions up to 1.5.7)' });
    // 1.5.9 is affected by CVE-2024-6210 ("<= 1.5.9") and no fixed release is named for it.
    expect(match).toMatchObject({ fixedAfter: '1.5.9', laterAdvisories: false });
    expect(match.fixedVersion).toBeUndefined();
  });

  it('advises the first fixed version when it is past every matched range, and says when later advisories affect it', async () => {
    const lookup = await loadWordPressVulns();

    const social = matchWordPressComponent(lookup, 'plugin', 'social-warfare', '3.5.2');
    const fileManager = matchWordPressComponent(lookup, 'plugin', 'wp-file-manager', '6.8');

    expect(social.vulnerabilities[0]).toMatchObject({ id: 'CVE-2019-9978', exploited: true, kevDateAdded: '2021-11-03', fixedIn: '3.5.3' });
    expect(social.fixedVersion ?? social.fixedAfter).toBeDefined();
    expect(fileManager.vulnerabilities[0]).toMatchObject({ id: 'CVE-2020-25213', exploited: true, kevDateAdded: '2021-11-03', severity: 'critical' });
    expect(fileManager.vulnerabilities[0]!.fixedIn).toBeUndefined();
  });

  it('matches nothing for a fixed version, an unknown slug, a slug named like an Object property or a version that is not one', async () => {
    const lookup = await loadWordPressVulns();

    expect(matchWordPressComponent(lookup, 'plugin', 'duplicator', '1.5.10').vulnerabilities.map((v) => v.id)).toEqual([]);
    expect(matchWordPressComponent(lookup, 'plugin', 'no-such-plugin-rampart', '1.0').vulnerabilities).toEqual([]);
    expect(matchWordPressComponent(lookup, 'plugin', 'constructor', '1.0').vulnerabilities).toEqual([]);
    expect(matchWordPressComponent(lookup, 'plugin', '__proto__', '1.0').vulnerabilities).toEqual([]);
    expect(matchWordPressComponent(lookup, 'plugin', 'duplicator', 'trunk').vulnerabilities).toEqual([]);
  });

  it('keeps plugins and themes apart', async () => {
    const lookup = await loadWordPressVulns();

    expect(lookup('theme', '15zine').map((v) => v.id)).toContain('CVE-2020-36510');
    expect(lookup('plugin', '15zine')).toEqual([]);
    expect(matchWordPressComponent(lookup, 'theme', '15zine', '3.2.9').vulnerabilities[0]).toMatchObject({ id: 'CVE-2020-36510', fixedIn: '3.3.0', epss: 0.00106, epssPercentile: 0.42122 });
  });

  it('is not read from ../shared at run time: the lookup imports only the bundled JSON, on first use', () => {
    const source = readFileSync(resolve('lambdas/scanner/vulndb/wordpress.ts'), 'utf8');
    expect(source).not.toMatch(/shared\/data|node:fs|readFileSync/);
    expect(source).toMatch(/import\('\.\.\/data\/wordpress-vulns\.json'/);
    expect(source).not.toMatch(/^import .*wordpress-vulns\.json/m);
  });
});

describe('the stored form of WordPress vulnerabilities', () => {
  const stored: StoredWordPressVulns = {
    format: 1,
    dataDate: '2026-08-22',
    sourceSha256: { plugins: '', themes: '' },
    cvss: [['CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', 9.8]],
    kinds: ['Unauthenticated Arbitrary File Upload', 'Reflected Cross-Site Scripting'],
    plugins: {
      example: `2024-0001|0|0|<2.0||${packRecordId('63d93203-e8fb-4a88-9546-580944f03d9a')}||2024-05-01!;2024-0002||1|>=3.0<=3.4,=1.5|3.5|${packRecordId('30a1517e-5ea5-47a1-afe8-9543e1ffd199')},${packRecordId('3b798c64-3434-427d-b578-5abbdac8cd0e')}|0.5,0.9`,
      everything: `2024-0003|0|0|*||${packRecordId('de9f3b83-4575-4566-9731-0af9107c7c30')}`,
    },
    themes: {},
  };

  it('decodes each field: CVSS from its table, a lone "<" range as the fix, KEV with ransomware use, EPSS, every record link', () => {
    const lookup = wordpressVulnLookup(stored);

    expect(lookup('plugin', 'example')).toEqual([
      {
        id: 'CVE-2024-0001',
        kind: 'Unauthenticated Arbitrary File Upload',
        cvssScore: 9.8,
        cvssVector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H',
        severity: 'critical',
        exploited: true,
        kevDateAdded: '2024-05-01',
        ransomware: true,
        affected: [{ endExcluding: '2.0' }],
        fixedIn: '2.0',
        references: [record('63d93203-e8fb-4a88-9546-580944f03d9a')],
      },
      {
        id: 'CVE-2024-0002',
        kind: 'Reflected Cross-Site Scripting',
        severity: 'unknown',
        exploited: false,
        epss: 0.5,
        epssPercentile: 0.9,
        affected: [{ startIncluding: '3.0', endIncluding: '3.4' }, { exact: '1.5' }],
        fixedIn: '3.5',
        references: [record('30a1517e-5ea5-47a1-afe8-9543e1ffd199'), record('3b798c64-3434-427d-b578-5abbdac8cd0e')],
      },
    ]);
  });

  it('matches each range kind by version order, and advises nothing when every version is affected', () => {
    const lookup = wordpressVulnLookup(stored);
    const ids = (version: string) => matchWordPressComponent(lookup, 'plugin', 'example', version).vulnerabilities.map((v) => v.id);

    expect(ids('1.9.9')).toEqual(['CVE-2024-0001']);
    expect(ids('1.5')).toEqual(['CVE-2024-0001', 'CVE-2024-0002']);
    expect(ids('1.5.0')).toEqual(['CVE-2024-0001', 'CVE-2024-0002']);
    expect(ids('2.0')).toEqual([]);
    expect(ids('3.0')).toEqual(['CVE-2024-0002']);
    expect(ids('3.4')).toEqual(['CVE-2024-0002']);
    expect(ids('3.4.1')).toEqual([]);
    expect(matchWordPressComponent(lookup, 'plugin', 'example', '1.5')).toMatchObject({ fixedVersion: '3.5', laterAdvisories: false });
    expect(matchWordPressComponent(lookup, 'plugin', 'everything', '9.9')).toMatchObject({ laterAdvisories: true });
    expect(matchWordPressComponent(lookup, 'plugin', 'everything', '9.9').fixedVersion).toBeUndefined();
  });

  it('round-trips ranges and Wordfence record ids', () => {
    for (const text of ['<=4.0.0', '<1.3.28', '>=1.0<=2.0', '>=1.0<2.0', '=1.1.0', '*']) expect(parseRange(text)).toBeDefined();
    expect(parseRange('>=1.0<2.0')).toEqual({ startIncluding: '1.0', endExcluding: '2.0' });
    expect(unpackRecordId(packRecordId('63d93203-e8fb-4a88-9546-580944f03d9a'))).toBe('63d93203-e8fb-4a88-9546-580944f03d9a');
    expect(inWordPressRange(parseVersion('5.0')!, { endIncluding: 'not-a-version' })).toBe(false);
  });
});

describe('reading Wordfence records (bin/build-wordpress-vulns.ts)', () => {
  it('takes the kind of flaw from a title, after the product and versions and up to " via "', () => {
    expect(flawKind('0 Day Analytics <= 4.0.0 - Authenticated (Administrator+) SQL Injection')).toBe('Authenticated (Administrator+) SQL Injection');
    expect(flawKind('Get Youtube Subs <= 3.5 - Authenticated (Contributor+) Stored Cross-Site Scripting via subscribe_link_att Function')).toBe(
      'Authenticated (Contributor+) Stored Cross-Site Scripting',
    );
    expect(flawKind('Livemesh Addons for Elementor <= 6.7.1- Contributor+ Stored Cross-Site Scripting')).toBe('Contributor+ Stored Cross-Site Scripting');
    expect(flawKind('Contact Form by BestWebSoft – Advanced Contact Us Form Builder for WordPress <= 4.0.1 - Cross-Site Scripting')).toBe('Cross-Site Scripting');
    expect(flawKind("Multiple Wow-Company Plugins (Various Versions) -- Reflected Cross-Site Scripting via 'page' parameter")).toBe('Reflected Cross-Site Scripting');
    expect(flawKind('1-Click Backup &amp; Restore Database <= 1.0.3 - Missing Authorization')).toBe('Missing Authorization');
  });

  it('reads the raw bounds Wordfence wrote as text', () => {
    expect(rangeFromRaw('<= v1.2.2')).toEqual({ endIncluding: '1.2.2' });
    expect(rangeFromRaw('<= v.1.1')).toEqual({ endIncluding: '1.1' });
    expect(rangeFromRaw('< .47.1')).toEqual({ endExcluding: '0.47.1' });
    expect(rangeFromRaw('<= 44.0 (17-08-2023)')).toEqual({ endIncluding: '44.0' });
    expect(rangeFromRaw('<= 3.0 (Beta r7)')).toEqual({ endIncluding: '3.0-beta7' });
    expect(rangeFromRaw('<= 0.1.2 β')).toEqual({ endIncluding: '0.1.2-beta' });
    expect(rangeFromRaw('<= 5 alpha 2')).toEqual({ endIncluding: '5-alpha2' });
    expect(rangeFromRaw('<= Multiple Versions')).toBeUndefined();
  });
});

describe.skipIf(!existsSync(shared))('npm run build:vulndb: WordPress plugins and themes', () => {
  it('keeps every record with a slug: each (CVE, slug) reads back with its score, KEV and Wordfence links', () => {
    // Prepare
    const lookup = wordpressVulnLookup(JSON.parse(readFileSync(join(dataDir, 'wordpress-vulns.json'), 'utf8')) as StoredWordPressVulns);
    const wrong: string[] = [];
    let read = 0;

    // Act
    for (const [file, kind] of [['wordpress-plugins.jsonl', 'plugin'], ['wordpress-themes.jsonl', 'theme']] as const) {
      for (const line of readFileSync(join(shared, file), 'utf8').split('\n').filter(Boolean)) {
        const source = JSON.parse(line) as { cve: string; slug: string | null; cvss_score: number | null; kev?: { dateAdded: string }; wordfence_url: string; wordfence_urls_extra?: string[] };
        if (!source.slug) continue;
        read++;
        const stored = lookup(kind, source.slug).find((v) => v.id === source.cve);
        const same =
          stored !== undefined &&
          stored.cvssScore === (source.cvss_score ?? undefined) &&
          stored.kevDateAdded === source.kev?.dateAdded &&
          JSON.stringify(stored.references) === JSON.stringify([source.wordfence_url, ...(source.wordfence_urls_extra ?? [])]);
        if (!same) wrong.push(`${kind} ${source.slug} ${source.cve}`);
      }
    }

    // Assess
    expect(read).toBe(35954 + 2741);
    expect(wrong).toEqual([]);
  });

  it('rebuilds byte-identical files from the same input', async () => {
    const out = mkdtempSync(join(tmpdir(), 'rampart-wordpress-vulns-'));
    try {
      const { buildWordPressVulns } = await import('../../../bin/build-wordpress-vulns.js');
      buildWordPressVulns(shared, out);
      for (const file of ['wordpress-vulns.json', 'WORDPRESS-PROVENANCE.md']) expect(readFileSync(join(out, file), 'utf8'), file).toBe(readFileSync(join(dataDir, file), 'utf8'));
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
