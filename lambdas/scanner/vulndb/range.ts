/**
 * Version ranges as CVE data states them (start/end, including/excluding, exact), and whether a
 * version falls in them.
 */
import type { StoredRange, VersionRange } from './types.js';
import { compareParsed, hasPostRelease, mustParseVersion, type ParsedVersion, versionCore, type VersionScheme, withoutPostRelease } from './version.js';

/** A range with its bounds parsed once, for matching many versions. */
export interface PreparedRange {
  readonly startIncluding?: ParsedVersion;
  readonly startExcluding?: ParsedVersion;
  readonly endIncluding?: ParsedVersion;
  readonly endExcluding?: ParsedVersion;
  readonly exact?: ParsedVersion;
}

export interface RangeOptions {
  /**
   * OpenSSH: a bound written without `pN` also stands for that release's portable builds, so
   * `7.3p1` is "through 7.3" and `9.8p1` is not "before 9.8" (NVD names OpenSSH releases that way).
   */
  portableSuffix?: boolean;
}

export function toVersionRange(stored: StoredRange): VersionRange {
  return {
    ...(stored['>='] !== undefined ? { startIncluding: stored['>='] } : {}),
    ...(stored['>'] !== undefined ? { startExcluding: stored['>'] } : {}),
    ...(stored['<='] !== undefined ? { endIncluding: stored['<='] } : {}),
    ...(stored['<'] !== undefined ? { endExcluding: stored['<'] } : {}),
    ...(stored['='] !== undefined ? { exact: stored['='] } : {}),
  };
}

export function toStoredRange(range: VersionRange): StoredRange {
  return {
    ...(range.startIncluding !== undefined ? { '>=': range.startIncluding } : {}),
    ...(range.startExcluding !== undefined ? { '>': range.startExcluding } : {}),
    ...(range.endIncluding !== undefined ? { '<=': range.endIncluding } : {}),
    ...(range.endExcluding !== undefined ? { '<': range.endExcluding } : {}),
    ...(range.exact !== undefined ? { '=': range.exact } : {}),
  };
}

/** Parses a range's bounds by `scheme` (the product's); throws on a bound that is not a version. */
export function prepareRangeFor(scheme: VersionScheme): (range: VersionRange) => PreparedRange {
  const parse = (bound: string) => mustParseVersion(bound, scheme);
  return (range) => ({
    ...(range.startIncluding !== undefined ? { startIncluding: parse(range.startIncluding) } : {}),
    ...(range.startExcluding !== undefined ? { startExcluding: parse(range.startExcluding) } : {}),
    ...(range.endIncluding !== undefined ? { endIncluding: parse(range.endIncluding) } : {}),
    ...(range.endExcluding !== undefined ? { endExcluding: parse(range.endExcluding) } : {}),
    ...(range.exact !== undefined ? { exact: parse(range.exact) } : {}),
  });
}

/** Parses a range's bounds as vendor versions; throws on a bound that is not a version. */
export const prepareRange: (range: VersionRange) => PreparedRange = prepareRangeFor('vendor');

/** True when the range says nothing (no bound at all): it must not match every version by accident. */
export function isEmptyRange(range: VersionRange): boolean {
  return Object.values(range).every((bound) => bound === undefined);
}

function compareToBound(version: ParsedVersion, bound: ParsedVersion, options: RangeOptions): number {
  const subject = options.portableSuffix && !hasPostRelease(bound) ? withoutPostRelease(version) : version;
  return compareParsed(subject, bound);
}

/**
 * True when `version` is in `range`. An empty range matches nothing. Unrecognised trailing text of the
 * version (`-log`, `-aem`) is ignored except against an exact bound that carries such text itself
 * (retire.js excludes `1.12.4-aem`, not 1.12.4).
 */
export function inRange(version: ParsedVersion, range: PreparedRange, options: RangeOptions = {}): boolean {
  const { startIncluding, startExcluding, endIncluding, endExcluding, exact } = range;
  if (!startIncluding && !startExcluding && !endIncluding && !endExcluding && !exact) return false;
  if (exact && compareToBound(exact.rest === '' ? versionCore(version) : version, exact, options) !== 0) return false;
  version = versionCore(version);
  if (startIncluding && compareToBound(version, startIncluding, options) < 0) return false;
  if (startExcluding && compareToBound(version, startExcluding, options) <= 0) return false;
  if (endIncluding && compareToBound(version, endIncluding, options) > 0) return false;
  if (endExcluding && compareToBound(version, endExcluding, options) >= 0) return false;
  return true;
}

/** Affected: in any of `affected` and in none of `unaffected`. */
export function isAffected(
  version: ParsedVersion,
  affected: readonly PreparedRange[],
  unaffected: readonly PreparedRange[] = [],
  options: RangeOptions = {},
): boolean {
  return affected.some((range) => inRange(version, range, options)) && !unaffected.some((range) => inRange(version, range, options));
}
