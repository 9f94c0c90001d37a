import { describe, expect, it } from 'vitest';
import { inRange, isAffected, prepareRange, toStoredRange, toVersionRange } from '../../../lambdas/scanner/vulndb/range.js';
import type { VersionRange } from '../../../lambdas/scanner/vulndb/types.js';
import { mustParseVersion } from '../../../lambdas/scanner/vulndb/version.js';

const within = (version: string, range: VersionRange, portableSuffix = false) =>
  inRange(mustParseVersion(version), prepareRange(range), { portableSuffix });

describe('version ranges', () => {
  it.each<[string, VersionRange, boolean]>([
    // startIncluding / endExcluding: the usual "from A, fixed in B".
    ['2.4.0', { startIncluding: '2.4.0', endExcluding: '2.4.51' }, true],
    ['2.4.50', { startIncluding: '2.4.0', endExcluding: '2.4.51' }, true],
    ['2.4.51', { startIncluding: '2.4.0', endExcluding: '2.4.51' }, false],
    ['2.2.34', { startIncluding: '2.4.0', endExcluding: '2.4.51' }, false],
    // endIncluding.
    ['2.4.50', { startIncluding: '2.4.49', endIncluding: '2.4.50' }, true],
    ['2.4.51', { startIncluding: '2.4.49', endIncluding: '2.4.50' }, false],
    ['2.4.48', { startIncluding: '2.4.49', endIncluding: '2.4.50' }, false],
    // startExcluding.
    ['1.0.0', { startExcluding: '1.0.0', endExcluding: '2.0.0' }, false],
    ['1.0.1', { startExcluding: '1.0.0', endExcluding: '2.0.0' }, true],
    // Only an end: everything below.
    ['0.1', { endExcluding: '1.6.3' }, true],
    ['1.6.3', { endExcluding: '1.6.3' }, false],
    // Only a start: no fix known.
    ['99.0', { startIncluding: '8.0' }, true],
    // exact.
    ['2.4.49', { exact: '2.4.49' }, true],
    ['2.4.49.0', { exact: '2.4.49' }, true],
    ['2.4.50', { exact: '2.4.49' }, false],
    // Letters and pre-releases inside ranges.
    ['1.0.2k', { startIncluding: '1.0.2', endExcluding: '1.0.2l' }, true],
    ['1.0.2l', { startIncluding: '1.0.2', endExcluding: '1.0.2l' }, false],
    ['3.0.0-rc.1', { startIncluding: '1.12.3', endExcluding: '3.0.0-beta1' }, false],
    ['2.2.4', { startIncluding: '1.12.3', endExcluding: '3.0.0-beta1' }, true],
    ['9.0.0.M5', { startIncluding: '9.0.0.M1', endIncluding: '9.0.0.M11' }, true],
    ['9.0.1', { startIncluding: '9.0.0.M1', endIncluding: '9.0.0.M11' }, false],
    // Exchange builds, zero-padded bounds.
    ['15.1.2507.6', { startIncluding: '15.01.0', endExcluding: '15.01.2507.035' }, true],
    ['15.1.2507.35', { startIncluding: '15.01.0', endExcluding: '15.01.2507.035' }, false],
  ])('%s in %j: %s', (version, range, expected) => {
    expect(within(version, range)).toBe(expected);
  });

  it('matches nothing with an empty range', () => {
    expect(within('1.0', {})).toBe(false);
  });

  it('reads an OpenSSH bound without pN as covering that release’s portable builds', () => {
    expect(within('7.3p1', { endIncluding: '7.3' }, true)).toBe(true);
    expect(within('7.3p1', { endIncluding: '7.3' }, false)).toBe(false);
    expect(within('9.8p1', { startIncluding: '8.5p1', endExcluding: '9.8' }, true)).toBe(false);
    expect(within('9.7p1', { startIncluding: '8.5p1', endExcluding: '9.8' }, true)).toBe(true);
    expect(within('8.4p1', { startIncluding: '8.5p1', endExcluding: '9.8' }, true)).toBe(false);
    expect(within('9.1p1', { exact: '9.1' }, true)).toBe(true);
    expect(within('9.3p2', { exact: '9.3p1' }, true)).toBe(false);
  });

  it('ignores vendor tails of a version except against an exact bound that has one', () => {
    expect(within('5.7.19-log', { endIncluding: '5.7.19' })).toBe(true);
    expect(within('1.12.4-aem', { exact: '1.12.4-aem' })).toBe(true);
    expect(within('1.12.4', { exact: '1.12.4-aem' })).toBe(false);
  });

  it('is affected in any affected range and in no unaffected one', () => {
    const affected = [{ startIncluding: '1.1.3', endIncluding: '1.23.1' }, { startIncluding: '1.0.7', endIncluding: '1.0.15' }].map(prepareRange);
    const unaffected = [{ startIncluding: '1.22.1', endExcluding: '1.23.0' }, { startIncluding: '1.23.2', endExcluding: '1.24.0' }].map(prepareRange);
    const check = (version: string) => isAffected(mustParseVersion(version), affected, unaffected);
    expect(check('1.22.0')).toBe(true);
    expect(check('1.22.1')).toBe(false);
    expect(check('1.23.1')).toBe(true);
    expect(check('1.0.10')).toBe(true);
    expect(check('1.0.16')).toBe(false);
  });

  it('round-trips the stored operator form', () => {
    const range: VersionRange = { startIncluding: '1', startExcluding: '2', endIncluding: '3', endExcluding: '4', exact: '5' };
    expect(toStoredRange(range)).toEqual({ '>=': '1', '>': '2', '<=': '3', '<': '4', '=': '5' });
    expect(toVersionRange(toStoredRange(range))).toEqual(range);
  });
});
