import fc from 'fast-check';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { compareParsed, compareVersions, parseVersion, successorVersion, versionCore, withoutPostRelease } from '../../../lambdas/scanner/vulndb/version.js';

/** [lower, higher]: each pair must order that way, both directions. */
const ascending: [string, string][] = [
  // Plain numbers, compared as numbers.
  ['1.12.4', '1.12.10'],
  ['2.4.9', '2.4.49'],
  ['2.4.49', '2.4.50'],
  ['2.4.50', '2.5.0'],
  ['1.9.9', '1.10.0'],
  ['0.9.8', '1.0.0'],
  ['8.2.9', '8.2.36'],
  ['6.1.9', '6.1.10'],
  ['6.1.9', '6.2'],
  ['10.11.6', '10.11.10'],
  ['10.6.27', '10.11.6'],
  ['5.7.44', '8.0.0'],
  ['9.0.97', '9.0.118'],
  ['1.22.1', '1.23.0'],
  // Exchange build numbers, with and without zero padding.
  ['15.1.2507.6', '15.1.2507.39'],
  ['15.1.2507.6', '15.01.2507.035'],
  ['15.0.1497.23', '15.1.0'],
  ['15.1.2375.12', '15.1.2507.0'],
  ['15.2.986.9', '15.2.1118.40'],
  // OpenSSL letters are releases after the number.
  ['1.0.2', '1.0.2a'],
  ['1.0.2a', '1.0.2k'],
  ['1.0.2k', '1.0.2l'],
  ['1.0.2y', '1.0.2za'],
  ['1.0.2z', '1.0.2za'],
  ['1.0.2za', '1.0.2zb'],
  ['1.0.2zq', '1.0.3'],
  ['0.9.8m', '0.9.8n'],
  ['1.1.1w', '3.0.0'],
  // ProFTPD letters too.
  ['1.3.5', '1.3.5b'],
  ['1.3.7c', '1.3.8'],
  // OpenSSH portable pN.
  ['9.2', '9.2p1'],
  ['9.2p1', '9.2p2'],
  ['9.2p2', '9.3'],
  ['7.2p2', '7.3'],
  ['8.9p1', '9.0p1'],
  ['9.9p2', '10.0'],
  // Pre-releases come before the release.
  ['3.0.0-beta1', '3.0.0'],
  ['3.0.0-beta1', '3.0.0-rc.1'],
  ['3.0.0-alpha', '3.0.0-beta'],
  ['3.0.0-rc.1', '3.0.0'],
  ['1.9.0b1', '1.9.0'],
  ['1.8.3', '1.9.0b1'],
  ['2.3.4-alpha', '2.3.5-alpha'],
  ['4.0.0-beta', '4.0.0-beta.2'],
  ['1.0.0-rc.1', '1.0.0-rc.1.1'],
  ['1.0.0-rc.1.1', '1.0.0-rc.2'],
  ['1.0.0.beta.3', '1.0.0'],
  ['1.0rc2', '1.0'],
  ['7.4-rc1', '7.4.0'],
  ['7.0.0-rc1', '7.0.0'],
  ['15.0.0-canary.0', '15.0.0-rc.1'],
  ['11.1.0-next.3', '11.1.0'],
  // Tomcat milestones (dot or dash, any case).
  ['9.0.0.M1', '9.0.0.M11'],
  ['9.0.0.M11', '9.0.0'],
  ['11.0.0-M5', '11.0.0-m20'],
  ['10.1.0-M1', '10.1.0'],
  ['8.0.0.RC1', '8.0.0'],
];

/** Equal under the comparator although written differently. */
const equal: [string, string][] = [
  ['7.4', '7.4.0'],
  ['15.01.2507.039', '15.1.2507.39'],
  ['2.4.49', 'v2.4.49'],
  ['9.0.0.M1', '9.0.0-m1'],
  ['3.0.0-RC.1', '3.0.0-rc1'],
  ['1.0.2K', '1.0.2k'],
  ['9.0.0.Final', '9.0.0'],
];

describe('version comparator', () => {
  it.each(ascending)('%s < %s', (lower, higher) => {
    expect(compareVersions(lower, higher)).toBe(-1);
    expect(compareVersions(higher, lower)).toBe(1);
  });

  it.each(equal)('%s = %s', (a, b) => {
    expect(compareVersions(a, b)).toBe(0);
  });

  it('has at least 60 ordered cases and a consistent total order over them', () => {
    expect(ascending.length + equal.length).toBeGreaterThanOrEqual(60);
    const all = [...new Set(ascending.flat())];
    const sorted = [...all].sort(compareVersions);
    for (let i = 1; i < sorted.length; i++) expect(compareVersions(sorted[i - 1]!, sorted[i]!)).toBeLessThanOrEqual(0);
    expect(sorted.indexOf('1.0.2k')).toBeLessThan(sorted.indexOf('1.0.2za'));
  });

  it('keeps unrecognised trailing text apart and uses it only to break ties', () => {
    const parsed = parseVersion('5.7.19-log')!;
    expect(parsed.text).toBe('5.7.19');
    expect(parsed.rest).toBe('-log');
    expect(compareVersions('1.12.4', '1.12.4-aem')).toBe(-1);
    expect(compareVersions('1.12.4-aem', '1.12.5')).toBe(-1);
    expect(versionCore(parsed).rest).toBe('');
    expect(parseVersion('8.0.36-0ubuntu0.22.04.1')!.text).toBe('8.0.36');
  });

  it('refuses what is not a version', () => {
    expect(parseVersion('publication')).toBeUndefined();
    expect(parseVersion('')).toBeUndefined();
    expect(parseVersion('cec01cc')).toBeUndefined();
    expect(() => compareVersions('latest', '1.0')).toThrow(/Not a version/);
  });

  it('strips OpenSSH portable suffixes for bounds written without one', () => {
    expect(withoutPostRelease(parseVersion('7.3p1')!).text).toBe('7.3');
    expect(compareVersions('9.3p1', '9.3')).toBe(1);
  });

  it.each([
    ['2.4.48', '2.4.49'],
    ['7.3', '7.4'],
    ['15.1.2507.39', '15.1.2507.40'],
    ['1.0.2k', '1.0.2l'],
    ['0.9.8y', '0.9.8z'],
    ['0.9.8z', '0.9.8za'],
    ['1.0.2zb', '1.0.2zc'],
    ['7.2p2', undefined],
    ['3.0.0-rc.1', undefined],
    ['1.12.4-aem', undefined],
  ])('predicts the release after %s as %s', (version, next) => {
    expect(successorVersion(version)).toBe(next);
  });
});

describe('SemVer scheme (npm-ecosystem versions, DECISIONS "Version order")', () => {
  it.each([
    ['1.2.3-4', '1.2.3'],
    ['16.0.0-beta.1', '16.0.0-canary.0'],
    ['1.2.3-R2', '1.2.3-r100'],
    ['1.2.3-a.5', '1.2.3-a.b'],
    ['1.0.2k', '1.0.2'],
    ['1.6.0-rc.1', '1.6.0-rc.1.1'],
    ['1.6.0-rc.1.1', '1.6.0'],
    ['1.0.0.beta.3', '1.0.0'],
    ['1.0RC2', '1.0'],
    ['1.5.1', '1.5.1.2'],
    ['1.5.1.2', '1.5.2'],
    ['1.9.0b1', '1.9.0rc1'],
  ])('%s < %s', (lower, higher) => {
    expect([compareVersions(lower, higher, 'semver'), compareVersions(higher, lower, 'semver')]).toEqual([-1, 1]);
  });

  it('keeps vendor rules where the scheme is not given: OpenSSL letters after the release, canary before beta', () => {
    expect(compareVersions('1.0.2k', '1.0.2')).toBe(1);
    expect(compareVersions('16.0.0-canary.0', '16.0.0-beta.1')).toBe(-1);
    expect(compareVersions('1.2.3-4', '1.2.3')).toBe(1);
  });

  it('reads loose npm spellings and ignores build metadata', () => {
    expect(compareVersions(' = v1.2.3-beta+build', '1.2.3-beta', 'semver')).toBe(0);
    expect(compareVersions('1.4', '1.4.0', 'semver')).toBe(0);
    expect(parseVersion('v1.9.0rc1', 'semver')).toMatchObject({ scheme: 'semver', release: [1, 9, 0], prerelease: ['rc1'], text: '1.9.0-rc1', rest: '' });
  });

  it('refuses to order a SemVer version against a vendor one', () => {
    expect(() => compareParsed(parseVersion('1.0.0', 'semver')!, parseVersion('1.0.0')!)).toThrow(/Cannot order a semver version/);
  });

  it('orders 2,000 generated SemVer pairs exactly as node-semver does', () => {
    const identifier = fc.oneof(fc.nat({ max: 20 }).map(String), fc.stringMatching(/^[0-9A-Za-z-]{1,6}$/).filter((s) => !/^\d+$/.test(s) || !/^0\d/.test(s)));
    const version = fc
      .tuple(fc.nat({ max: 3 }), fc.nat({ max: 3 }), fc.nat({ max: 3 }), fc.array(identifier, { maxLength: 3 }))
      .map(([major, minor, patch, pre]) => `${major}.${minor}.${patch}${pre.length ? `-${pre.join('.')}` : ''}`);
    fc.assert(
      fc.property(version, version, (a, b) => {
        expect(compareVersions(a, b, 'semver')).toBe(semver.compare(a, b));
      }),
      { numRuns: 2000 },
    );
  });
});
