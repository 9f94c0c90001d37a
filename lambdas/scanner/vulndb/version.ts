/**
 * Version strings made comparable, by one of two schemes (DECISIONS "Version order"):
 * - `semver`, for npm-ecosystem versions (JavaScript libraries, retire.js data): SemVer 2.0 as
 *   node-semver reads it (loose), pre-release rules included: `1.2.3-4` < `1.2.3`,
 *   `16.0.0-beta.1` < `16.0.0-canary.0` (identifiers compare as ASCII), build metadata ignored.
 *   Versions SemVer cannot read but npm-ecosystem data still writes (`1.4`, `0.9.7.1`,
 *   `1.0.0.beta.3`, `1.0RC2`) keep SemVer's rules over any number of release parts;
 * - `vendor` (the default), for everything else, described below.
 *
 * A vendor version is a numeric release (`2.4.49`, `15.01.2507.039`) followed by qualifiers:
 * - pre-releases sort below the release: `dev`/`canary`/`next` < `alpha`/`a1` < `beta`/`b1` < `M1`/`pre` < `rc1`
 *   (`3.0.0-beta1` < `3.0.0-rc.1` < `3.0.0`, Tomcat `9.0.0.M1` < `9.0.0`, jQuery `1.9.0b1` < `1.9.0`);
 * - post-releases sort above it: OpenSSL and ProFTPD letters attached to the number
 *   (`1.0.2` < `1.0.2a` < `1.0.2k` < `1.0.2za` < `1.0.3`) and OpenSSH portable `pN`
 *   (`9.2` < `9.2p1` < `9.2p2` < `9.3`).
 * Missing release parts are zeros (`7.4` = `7.4.0`), numbers compare numerically (`1.12.4` < `1.12.10`).
 * Whatever follows and is not a known qualifier (`-log`, `-aem`, `+deb12u1`) is kept as `rest`:
 * it only breaks ties, and the matcher drops it from a detected version.
 */
import semver from 'semver';

/** Which rules order a version: SemVer 2.0 for npm-ecosystem versions, the vendors' own otherwise. */
export type VersionScheme = 'vendor' | 'semver';

export interface ParsedVersion {
  readonly scheme: VersionScheme;
  /** Numeric release parts: `2.4.49` → [2, 4, 49]. */
  readonly release: readonly number[];
  /** Vendor qualifier sort keys in order; a release without qualifiers compares as [0]. Empty for SemVer. */
  readonly qualifiers: readonly (readonly number[])[];
  /** SemVer pre-release identifiers (`1.2.3-rc.1` → ['rc', 1]); empty for a release and for vendor versions. */
  readonly prerelease: readonly (string | number)[];
  /** The part that was understood, as written (vendor: lower-cased, `5.7.19-log` → `5.7.19`; SemVer: normalised, `v1.9.0rc1` → `1.9.0-rc1`). */
  readonly text: string;
  /** Unrecognised trailing text, lower-cased: `5.7.19-log` → `-log`. */
  readonly rest: string;
}

const PRE_RELEASE: Record<string, number> = {
  dev: 0, snapshot: 0, canary: 0, next: 0,
  alpha: 1, a: 1,
  beta: 2, b: 2,
  pre: 3, preview: 3, m: 3, milestone: 3,
  rc: 4, cr: 4,
};
const POST_RELEASE_NUMBERED = new Set(['p', 'pl', 'patch', 'post']);
const RELEASE_WORDS = new Set(['final', 'ga', 'release']);
const RELEASE_MARKER: readonly number[] = [0];
const POST_LETTERS = 0;
const POST_NUMBERED = 1;

/** a=1 … z=26, za=26·27+1: OpenSSL went from 0.9.8y to 0.9.8za. */
function letterValue(letters: string): number {
  let value = 0;
  for (const char of letters) value = value * 27 + (char.charCodeAt(0) - 96);
  return value;
}

/**
 * Parses a version string by `scheme`; undefined when it does not start with a number (after an
 * optional `v`). Vendor examples: `1.0.2k`, `9.2p1`, `3.0.0-beta1`, `9.0.0.M11`, `15.1.2507.6`.
 */
export function parseVersion(input: string, scheme: VersionScheme = 'vendor'): ParsedVersion | undefined {
  return scheme === 'semver' ? parseSemver(input) : parseVendor(input);
}

/** Release parts and pre-release of a version SemVer cannot read: `1.0.0.beta.3`, `1.0RC2`, `0.9.7.1`, `1.4`. */
const NEAR_SEMVER = /^[v=\s]*(\d+(?:\.\d+)*)(?:[-.]?([0-9a-z-]+(?:\.[0-9a-z-]+)*))?(?:\+[0-9a-z-]+(?:\.[0-9a-z-]+)*)?/i;

function parseSemver(input: string): ParsedVersion | undefined {
  const version = semver.parse(input.trim(), { loose: true });
  if (version) {
    return { scheme: 'semver', release: [version.major, version.minor, version.patch], qualifiers: [], prerelease: version.prerelease, text: version.version, rest: '' };
  }
  const near = NEAR_SEMVER.exec(input.trim());
  if (!near) return undefined;
  const [whole, release = '', pre] = near;
  const prerelease = pre === undefined ? [] : pre.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part));
  return {
    scheme: 'semver',
    release: release.split('.').map(Number),
    qualifiers: [],
    prerelease,
    text: pre === undefined ? release : `${release}-${pre}`,
    rest: input.trim().slice(whole.length),
  };
}

function parseVendor(input: string): ParsedVersion | undefined {
  const text = input.trim().toLowerCase().replace(/^v(?=\d)/, '');
  const core = /^\d+(?:\.\d+)*/.exec(text);
  if (!core) return undefined;
  const release = core[0].split('.').map(Number);
  const qualifiers: number[][] = [];
  let position = core[0].length;
  for (;;) {
    const next = /^([.\-_~]?)([a-z]+)(?:[.\-_]?(\d+(?:\.\d+)*))?/.exec(text.slice(position));
    if (!next) break;
    const [whole, separator = '', word = '', digits] = next;
    const numbers = digits === undefined ? [0] : digits.split('.').map(Number);
    if (separator === '' && digits === undefined && word.length <= 2 && word !== 'rc') {
      qualifiers.push([1, POST_LETTERS, letterValue(word)]);
    } else if (POST_RELEASE_NUMBERED.has(word) && digits !== undefined) {
      qualifiers.push([1, POST_NUMBERED, ...numbers]);
    } else if (word in PRE_RELEASE) {
      qualifiers.push([-1, PRE_RELEASE[word]!, ...numbers]);
    } else if (RELEASE_WORDS.has(word) && digits === undefined) {
      // "9.0.0.Final" is the release itself.
    } else {
      break;
    }
    position += whole.length;
  }
  return { scheme: 'vendor', release, qualifiers, prerelease: [], text: text.slice(0, position), rest: text.slice(position) };
}

function compareNumberLists(a: readonly number[], b: readonly number[]): number {
  const length = Math.max(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const difference = (a[i] ?? 0) - (b[i] ?? 0);
    if (difference !== 0) return Math.sign(difference);
  }
  return 0;
}

/**
 * SemVer 2.0 §11 pre-release order: a release above its pre-releases; identifiers one by one with
 * node-semver's rule (numbers numerically and below words, words in ASCII order); a longer list
 * above its own prefix.
 */
function comparePrerelease(a: readonly (string | number)[], b: readonly (string | number)[]): number {
  if (a.length === 0 || b.length === 0) return Math.sign(b.length - a.length);
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const order = semver.compareIdentifiers(String(a[i]), String(b[i]));
    if (order !== 0) return order;
  }
  return Math.sign(a.length - b.length);
}

/** Orders two parsed versions of one scheme: negative when a < b, 0 when equal, positive when a > b. */
export function compareParsed(a: ParsedVersion, b: ParsedVersion): number {
  if (a.scheme !== b.scheme) throw new Error(`Cannot order a ${a.scheme} version (${a.text}) against a ${b.scheme} one (${b.text})`);
  const byRelease = compareNumberLists(a.release, b.release);
  if (byRelease !== 0) return byRelease;
  if (a.scheme === 'semver') {
    const byPrerelease = comparePrerelease(a.prerelease, b.prerelease);
    if (byPrerelease !== 0) return byPrerelease;
    return a.rest === b.rest ? 0 : a.rest < b.rest ? -1 : 1;
  }
  const length = Math.max(a.qualifiers.length, b.qualifiers.length);
  for (let i = 0; i < length; i++) {
    const byQualifier = compareNumberLists(a.qualifiers[i] ?? RELEASE_MARKER, b.qualifiers[i] ?? RELEASE_MARKER);
    if (byQualifier !== 0) return byQualifier;
  }
  return a.rest === b.rest ? 0 : a.rest < b.rest ? -1 : 1;
}

/** Parses or throws: for versions that must be valid (the knowledge base's own data, tests). */
export function mustParseVersion(input: string, scheme: VersionScheme = 'vendor'): ParsedVersion {
  const parsed = parseVersion(input, scheme);
  if (!parsed) throw new Error(`Not a version: "${input}"`);
  return parsed;
}

/** Orders two version strings by `scheme` (see the module comment); throws on a string that is not a version. */
export function compareVersions(a: string, b: string, scheme: VersionScheme = 'vendor'): number {
  return compareParsed(mustParseVersion(a, scheme), mustParseVersion(b, scheme));
}

/** The version without unrecognised trailing text: how the matcher reads a detected version. */
export function versionCore(parsed: ParsedVersion): ParsedVersion {
  return parsed.rest === '' ? parsed : { ...parsed, rest: '' };
}

/** True when the version carries a post-release qualifier (OpenSSH `p1`, OpenSSL letters). */
export function hasPostRelease(parsed: ParsedVersion): boolean {
  return parsed.qualifiers.some((qualifier) => qualifier[0] === 1);
}

/** The version with post-release qualifiers removed: OpenSSH `7.3p1` → `7.3`. */
export function withoutPostRelease(parsed: ParsedVersion): ParsedVersion {
  if (!hasPostRelease(parsed)) return parsed;
  const qualifiers = parsed.qualifiers.filter((qualifier) => qualifier[0] !== 1);
  return { ...parsed, qualifiers, text: parsed.release.join('.'), rest: '' };
}

/**
 * The next release after `input` when it can be told from the string alone: the last number plus one
 * (`2.4.48` → `2.4.49`, `7.3` → `7.4`) or the next OpenSSL letter (`1.0.2k` → `1.0.2l`,
 * `0.9.8z` → `0.9.8za`). Undefined for pre-releases, OpenSSH `pN` and vendor suffixes, whose
 * successor is not predictable (7.2p2 was followed by 7.3p1). SemVer letters are pre-releases.
 */
export function successorVersion(input: string, scheme: VersionScheme = 'vendor'): string | undefined {
  const parsed = parseVersion(input, scheme);
  if (!parsed || parsed.rest !== '' || parsed.prerelease.length > 0) return undefined;
  const release = parsed.release.join('.');
  if (parsed.qualifiers.length === 0) {
    const next = [...parsed.release];
    next[next.length - 1] = (next[next.length - 1] ?? 0) + 1;
    return next.join('.');
  }
  const [only, ...others] = parsed.qualifiers;
  const letters = /[a-z]+$/.exec(parsed.text)?.[0];
  if (!only || others.length > 0 || only[0] !== 1 || only[1] !== POST_LETTERS || !letters) return undefined;
  // OpenSSL went …x, y, z, za, zb …: a trailing z gets a letter appended, any other letter steps on.
  const next = letters.endsWith('z') ? `${letters}a` : letters.slice(0, -1) + String.fromCharCode(letters.charCodeAt(letters.length - 1) + 1);
  return release + next;
}
