import { describe, expect, it } from 'vitest';
import { MAX_EVIDENCE, mergeSightings } from '../../../lambdas/scanner/checks/software/merge.js';
import type { Sighting } from '../../../lambdas/scanner/checks/software/types.js';
import { vulnerabilityFindings } from '../../../lambdas/scanner/checks/software/vulnerabilities.js';

const seen = (parts: Partial<Sighting> & Pick<Sighting, 'name' | 'where' | 'value'>): Sighting => ({
  category: 'other',
  confidence: 'high',
  source: 'server-header',
  ...parts,
});

const apache = (where: string, extra: Partial<Sighting> = {}) =>
  seen({ name: 'Apache HTTP Server', product: 'apache_http_server', category: 'web-server', version: '2.4.49', where, value: 'Apache/2.4.49', ...extra });
const jquery = (version: string, extra: Partial<Sighting> = {}) =>
  seen({ name: 'jQuery', product: 'jquery', category: 'javascript-library', version, source: 'script-content', where: `script file https://example.test/js/jquery-${version}.js`, value: `/*! jQuery v${version}`, ...extra });

describe('merging sightings into technologies', () => {
  it('makes one technology of one product and version seen in several places, with the strongest reading and every place', () => {
    const sightings = [
      apache('HTTP Server header on port 80', { source: 'http-banner', confidence: 'medium' }),
      apache('Server header on https://example.test/'),
      apache('error page of https://example.test/x', { source: 'error-page' }),
      apache('Server header on https://example.test/'),
    ];

    const [technology, ...rest] = mergeSightings(sightings);

    expect(rest).toEqual([]);
    expect(technology).toMatchObject({ name: 'Apache HTTP Server', version: '2.4.49', confidence: 'high', source: 'server-header' });
    expect(technology!.evidence).toEqual([
      'HTTP Server header on port 80: Apache/2.4.49',
      'Server header on https://example.test/: Apache/2.4.49',
      'error page of https://example.test/x: Apache/2.4.49',
    ]);
    expect(technology!.seenIn).toEqual(['HTTP Server header on port 80', 'Server header on https://example.test/', 'error page of https://example.test/x']);
  });

  it('adds a versionless reading (a PHPSESSID cookie) to the versioned entry, and keeps it alone when no version was seen', () => {
    const php = seen({ name: 'PHP', product: 'php', version: '8.2.36', source: 'powered-by-header', where: 'X-Powered-By header on https://example.test/', value: 'PHP/8.2.36' });
    const cookie = seen({ name: 'PHP', product: 'php', source: 'cookie', confidence: 'medium', where: 'cookie set by https://example.test/', value: 'PHPSESSID' });
    const laravel = seen({ name: 'Laravel', source: 'cookie', confidence: 'medium', where: 'cookie set by https://example.test/', value: 'laravel_session' });

    const technologies = mergeSightings([cookie, php, laravel]);

    expect(technologies.map((t) => [t.name, t.version ?? null, t.confidence, t.evidence.length])).toEqual([
      ['Laravel', null, 'medium', 1],
      ['PHP', '8.2.36', 'high', 2],
    ]);
    expect(technologies[1]!.evidence[1]).toBe('cookie set by https://example.test/: PHPSESSID');
  });

  it('prefers a backport hint that names a distribution, and names the distribution', () => {
    const technologies = mergeSightings([apache('Server header on https://example.test/', { backportHint: '(Unix)' }), apache('HTTP Server header on port 80', { backportHint: '(Debian)' })]);

    expect(technologies[0]).toMatchObject({ backportHint: '(Debian)', distribution: 'Debian' });
  });

  it('keeps two versions of one product apart, in version order', () => {
    expect(mergeSightings([jquery('3.4.1'), jquery('1.8.3')]).map((t) => t.version)).toEqual(['1.8.3', '3.4.1']);
  });

  it(`lists at most ${MAX_EVIDENCE} places and counts the rest`, () => {
    const sightings = Array.from({ length: 13 }, (_, i) => apache(`HTTP Server header on port ${8000 + i}`));

    const [technology] = mergeSightings(sightings);

    expect(technology!.evidence).toHaveLength(MAX_EVIDENCE + 1);
    expect(technology!.evidence.at(-1)).toBe('… and 3 more');
    expect(technology!.seenIn).toHaveLength(13);
  });
});

describe('CVE findings from technologies', () => {
  it('matches Apache 2.4.49 from a banner: one finding, CVE-2021-41773 first and exploited, upgrade to the knowledge base\'s fixed version', () => {
    const outcome = vulnerabilityFindings(mergeSightings([apache('Server header on https://example.test/'), apache('HTTP Server header on port 80', { source: 'http-banner' })]));

    expect(outcome.findings.map((f) => [f.id, f.check, f.category, f.severity])).toEqual([['cve.apache_http_server', 'software', 'Vulnerabilities', 'critical']]);
    expect(outcome.findings[0]!.evidence).toBe('Apache HTTP Server 2.4.49 (seen in Server header on https://example.test/; HTTP Server header on port 80)');
    expect(outcome.findings[0]!.cveDetails!.slice(0, 2).map((v) => [v.id, v.exploited, v.fixedIn])).toEqual([
      ['CVE-2021-41773', true, '2.4.50'],
      ['CVE-2021-42013', true, '2.4.51'],
    ]);
    expect(outcome.vulnerabilities[0]).toMatchObject({ fixedVersion: '2.4.68', fixedVersionScope: 'all-known', exploited: 3, versionConfidence: 'high', confidence: 'version-match' });
  });

  it('says how a version read from a file name was found, and asks to confirm it', () => {
    const outcome = vulnerabilityFindings(mergeSightings([jquery('1.8.3', { source: 'script-filename', confidence: 'medium', where: 'script file name https://example.test/js/jquery-1.8.3.min.js', value: 'jquery-1.8.3.min.js' })]));

    expect(outcome.findings.map((f) => f.id)).toEqual(['cve.jquery']);
    expect(outcome.findings[0]!.description).toContain("The version was read from the script's file name, not announced by the software itself: confirm it");
    expect(outcome.vulnerabilities[0]!.versionConfidence).toBe('medium');
  });

  it('never matches a low-confidence version or a release line ("Drupal 10" would match seven CVEs of 10.x)', () => {
    const technologies = mergeSightings([
      seen({ name: 'moment.js', product: 'moment.js', version: '2.29.1', confidence: 'low', source: 'asset-version', where: 'asset URL https://example.test/moment.min.js?ver=2.29.1', value: 'moment.min.js?ver=2.29.1' }),
      seen({ name: 'Drupal', product: 'drupal', version: '10', versionScope: 'line', source: 'meta-generator', where: 'generator meta tag on https://example.test/', value: 'Drupal 10 (https://www.drupal.org)' }),
    ]);

    const outcome = vulnerabilityFindings(technologies);

    expect(outcome.findings).toEqual([]);
    expect(outcome.technologies.map((t) => [t.name, t.version, t.knownVulnerabilities])).toEqual([
      ['Drupal', '10', undefined],
      ['moment.js', '2.29.1', undefined],
    ]);
  });

  it('gives two versions of one product each their own finding id, and lets a file\'s own header overrule a file name', () => {
    const both = vulnerabilityFindings(mergeSightings([jquery('1.8.3'), jquery('3.4.1')]));
    const overruled = vulnerabilityFindings(mergeSightings([jquery('1.8.3', { source: 'script-filename', confidence: 'medium' }), jquery('3.6.1')]));

    expect(both.findings.map((f) => [f.id, f.title])).toEqual([
      ['cve.jquery-1.8.3', 'jQuery 1.8.3 has 6 known vulnerabilities (1 exploited in the wild)'],
      ['cve.jquery-3.4.1', 'jQuery 3.4.1 has 2 known vulnerabilities (1 exploited in the wild)'],
    ]);
    expect(both.vulnerabilities.map((v) => v.findingId)).toEqual(['cve.jquery-1.8.3', 'cve.jquery-3.4.1']);
    // jQuery 3.6.1 (from its header) has no known vulnerability; 1.8.3 (a file name's claim) is not matched.
    expect(overruled.findings).toEqual([]);
    expect(overruled.technologies.map((t) => [t.version, t.knownVulnerabilities])).toEqual([
      ['1.8.3', undefined],
      ['3.6.1', 0],
    ]);
  });
});
