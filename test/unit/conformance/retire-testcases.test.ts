/**
 * retire.js's own test data (../shared/conformance/retire) through the scanner's JavaScript library
 * detection and version matching:
 * - testcases.json: every script URL retire.js's extractors must recognise (the URL templates that
 *   are not content-only, each version and sub-version) must give that library at that version,
 *   and no other library but the ones retire.js allows beside it;
 * - spec-repository.json: the small repository retire.js's spec tests scan. Each input those tests
 *   scan without changing the repository (uriscan, filenamescan, contentscan), and each of the
 *   version-order cases (versions.spec, which add one advisory each), is read by the scanner's
 *   extractors and matched against the repository's advisories with the scanner's range logic and
 *   the SemVer scheme JavaScript libraries use; the advisories matched must be retire.js's own.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { librariesInContent, librariesInUrl, type LibraryMatch } from '../../../lambdas/scanner/checks/software/js-libraries.js';
import { retireProductId, versionSchemeOf } from '../../../lambdas/scanner/vulndb/products.js';
import { isAffected, prepareRangeFor } from '../../../lambdas/scanner/vulndb/range.js';
import type { VersionRange } from '../../../lambdas/scanner/vulndb/types.js';
import { mustParseVersion } from '../../../lambdas/scanner/vulndb/version.js';
import { conformanceFolder } from './conformance-data.js';

interface UrlCase {
  versions: string[];
  subversions?: string[];
  contentOnly?: boolean;
  allowedOtherComponents?: string | string[];
}
interface RetireAdvisory {
  atOrAbove?: string;
  above?: string;
  below?: string;
  info: string[];
}

const folder = conformanceFolder('retire', 'retire.js test cases');
const testcases: Record<string, Record<string, UrlCase>> = folder ? JSON.parse(readFileSync(join(folder, 'testcases.json'), 'utf8')) : {};
const repository: Record<string, { vulnerabilities: RetireAdvisory[] }> = folder ? JSON.parse(readFileSync(join(folder, 'spec-repository.json'), 'utf8')) : {};

/** Every URL retire.js's test runner builds from a template: each version, each sub-version. */
const urlCases = Object.entries(testcases).flatMap(([library, templates]) =>
  Object.entries(templates)
    .filter(([, spec]) => !spec.contentOnly)
    .flatMap(([template, spec]) =>
      spec.versions.flatMap((version) =>
        (spec.subversions ?? ['']).map((subversion) => ({
          library,
          version,
          url: template.replaceAll('§§version§§', version).replaceAll('§§subversion§§', subversion),
          allowed: [spec.allowedOtherComponents ?? []].flat().map(retireProductId),
        })),
      ),
    ),
);

const tally = { urls: 0, urlsAgree: 0, scans: 0, scansAgree: 0 };

afterAll(() => {
  if (folder) console.log(`retire.js: ${tally.urlsAgree}/${tally.urls} URLs give retire.js's library and version; ${tally.scansAgree}/${tally.scans} spec-repository scans match retire.js's advisories`);
});

describe.skipIf(!folder)('retire.js test cases through the JavaScript library detection', () => {
  it.each(urlCases.map((c) => [c.url, c] as const))('%s', (_url, { library, version, url, allowed }) => {
    // Act
    const found = librariesInUrl(url).map((match) => [match.product, match.version]);

    // Assess
    const product = retireProductId(library);
    const others = found.filter(([id]) => id !== product && !allowed.includes(id!));
    const agrees = found.some(([id, v]) => id === product && v === version) && others.length === 0;
    tally.urls++;
    if (agrees) tally.urlsAgree++;
    expect([found.filter(([id]) => id === product), others]).toEqual([[[product, version]], []]);
  });
});

/**
 * retire.js's advisory bounds as the knowledge-base build reads them: atOrAbove/above a start, below
 * an exclusive end. retire.js's "every pre-release of 10.0.0" (10.0.0-*) is SemVer's lowest, 10.0.0-0.
 */
const rangeOf = (advisory: RetireAdvisory): VersionRange => ({
  ...(advisory.atOrAbove !== undefined ? { startIncluding: advisory.atOrAbove.replace(/-\*$/, '-0') } : {}),
  ...(advisory.above !== undefined ? { startExcluding: advisory.above } : {}),
  ...(advisory.below !== undefined ? { endExcluding: advisory.below } : {}),
});

/** The advisories of `advisories` that affect what the scanner read from the input, by their index. */
function advisoriesMatched(found: LibraryMatch[], advisories: RetireAdvisory[]): number[] {
  const scheme = versionSchemeOf('javascript-library');
  const prepare = prepareRangeFor(scheme);
  const jquery = found.filter((match) => match.product === 'jquery');
  return advisories.flatMap((advisory, index) => (jquery.some((match) => isAffected(mustParseVersion(match.version, scheme), [prepare(rangeOf(advisory))])) ? [index] : []));
}

/** One scan of retire.js's spec tests; `advisories`, when given, is the repository's jQuery list that test scans against. */
type Scan = { spec: string; kind: 'uri' | 'filename' | 'content'; input: string; advisories?: RetireAdvisory[]; retire: number[] };

/**
 * retire.js's spec tests over this repository, with what retire.js reports: the indexes of the
 * repository's advisories (0: 1.6.0-rc.1 up to 1.6.0-rc.1.1, 1: below 1.5.0, 2: 1.8.0 up to
 * 1.9.0). versions.spec changes the list as it goes: its first two tests append an advisory each
 * (indexes 3 and 4, the second test still holding the first one's), the others replace the list by
 * one advisory (index 0). File names and paths are read as the scanner meets them, at the end of a
 * script URL (a Windows path with its backslashes as slashes).
 */
const SCANS: Scan[] = [
  { spec: 'uriscan should_be_vulnerable_between', kind: 'uri', input: 'https://ajax.googleapis.com/ajax/libs/jquery/1.8.1/jquery.min.js', retire: [2] },
  { spec: 'uriscan should_not_be_vulnerable_before', kind: 'uri', input: 'https://ajax.googleapis.com/ajax/libs/jquery/1.6.1/jquery.min.js', retire: [] },
  { spec: 'uriscan should_not_be_vulnerable_at', kind: 'uri', input: 'https://ajax.googleapis.com/ajax/libs/jquery/1.9.0/jquery.min.js', retire: [] },
  { spec: 'uriscan should_not_be_vulnerable_above', kind: 'uri', input: 'https://ajax.googleapis.com/ajax/libs/jquery/1.9.1/jquery.min.js', retire: [] },
  { spec: 'uriscan should_be_vulnerable_before', kind: 'uri', input: 'https://ajax.googleapis.com/ajax/libs/jquery/1.4/jquery.min.js', retire: [1] },
  { spec: 'filenamescan should_be_vulnerable_between', kind: 'filename', input: 'jquery-1.8.1.js', retire: [2] },
  { spec: 'filenamescan should_not_be_vulnerable_before', kind: 'filename', input: 'jquery-1.6.1.js', retire: [] },
  { spec: 'filenamescan should_not_be_vulnerable_at', kind: 'filename', input: 'jquery-1.9.0.js', retire: [] },
  { spec: 'filenamescan should_not_be_vulnerable_above', kind: 'filename', input: 'jquery-1.9.1.js', retire: [] },
  { spec: 'filenamescan should_be_vulnerable_before', kind: 'filename', input: 'jquery-1.4.js', retire: [1] },
  { spec: 'filenamescan should_not_be_vulnerable_at_final', kind: 'filename', input: 'jquery-1.6.0.js', retire: [] },
  { spec: 'filenamescan should_be_vulnerable_at_rc', kind: 'filename', input: 'jquery-1.6.0-rc.1.js', retire: [0] },
  { spec: 'filenamescan should_not_be_vulnerable_at_patched_rc', kind: 'filename', input: 'jquery-1.6.0-rc.1.1.js', retire: [] },
  { spec: 'filenamescan should_be_vulnerable_between_linux_path', kind: 'filename', input: '/usr/file/jquery-1.8.1.js', retire: [2] },
  { spec: 'filenamescan should_be_vulnerable_between_windows_path', kind: 'filename', input: '\\usr\\file\\jquery-1.8.1.js', retire: [2] },
  { spec: 'filenamescan should_be_vulnerable_when_path_matches_uri_linux', kind: 'filename', input: '/usr/file/1.8.1/jquery.js', retire: [2] },
  { spec: 'filenamescan should_be_vulnerable_when_path_matches_uri_win', kind: 'filename', input: '\\usr\\file\\1.8.1\\jquery.js', retire: [2] },
  { spec: 'contentscan should_be_vulnerable_between', kind: 'content', input: '/*! jQuery v1.8.1 asdasd ', retire: [2] },
  { spec: 'contentscan should_not_be_vulnerable_before', kind: 'content', input: '/*! jQuery v1.6.1 asdasd ', retire: [] },
  { spec: 'contentscan should_not_be_vulnerable_at', kind: 'content', input: '/*! jQuery v1.9.0 asdasd ', retire: [] },
  { spec: 'contentscan should_not_be_vulnerable_above', kind: 'content', input: '/*! jQuery v1.9.1 asdasd ', retire: [] },
  { spec: 'contentscan should_be_vulnerable_before', kind: 'content', input: '/*! jQuery v1.4 asdasd ', retire: [1] },
  { spec: 'contentscan should_be_vulnerable_before_prolog', kind: 'content', input: 'var a = 1; /*! jQuery v1.4 asdasd ', retire: [1] },
  // versions.spec
  ...(() => {
    const original = repository.jquery?.vulnerabilities ?? [];
    const belowBeta2: RetireAdvisory = { below: '10.0.0.beta.2', info: [] };
    const jquery = (version: string) => `https://ajax.googleapis.com/ajax/libs/jquery/${version}/jquery.min.js`;
    const only = (advisory: Omit<RetireAdvisory, 'info'>) => [{ ...advisory, info: [] }];
    return [
      { spec: 'versions should_not_be_vulnerable_release_when_beta_is', kind: 'uri', input: jquery('10.0.0'), advisories: [...original, belowBeta2], retire: [] },
      {
        spec: 'versions should_be_vulnerable_release_when_all_starting_at_version_is',
        kind: 'uri',
        input: jquery('10.0.0.beta.2'),
        advisories: [...original, belowBeta2, { atOrAbove: '10.0.0-*', below: '10.0.1', info: [] }],
        retire: [4],
      },
      { spec: 'versions should_not_be_vulnerable_higher_beta_when_beta', kind: 'uri', input: jquery('10.0.0.beta.3'), advisories: only({ below: '10.0.0.beta.2' }), retire: [] },
      { spec: 'versions should_not_be_vulnerable_rc_when_beta', kind: 'uri', input: jquery('1.9.0rc1'), advisories: only({ below: '1.9.0b1' }), retire: [] },
      { spec: 'versions should_not_be_vulnerable_when_at_beta', kind: 'uri', input: jquery('10.0.0.beta.2'), advisories: only({ below: '10.0.0.beta.2' }), retire: [] },
      { spec: 'versions should_be_vulnerable_when_lower_beta', kind: 'uri', input: jquery('10.0.0.beta.1'), advisories: only({ below: '10.0.0.beta.2' }), retire: [0] },
      { spec: 'versions should_be_vulnerable_beta_when_below_release', kind: 'uri', input: jquery('10.0.0.beta.1'), advisories: only({ below: '10.0.0' }), retire: [0] },
      { spec: 'versions should_be_vulnerable_rc_when_below_release', kind: 'uri', input: jquery('10.0.0.rc.1'), advisories: only({ below: '10.0.0' }), retire: [0] },
      { spec: 'versions should_not_be_vulnerable_when_is_rc_and_lower_beta', kind: 'uri', input: jquery('10.0.0.rc.1'), advisories: only({ below: '10.0.0.beta.2' }), retire: [] },
      { spec: 'versions should_see_min_as_at_or_above_non_min_below', kind: 'uri', input: 'https://ajax.googleapis.com/lib/jquery-3.5.0.min.js', advisories: only({ below: '3.5.0' }), retire: [] },
    ] satisfies Scan[];
  })(),
];

describe.skipIf(!folder)("retire.js's spec repository through the scanner's extractors and matching", () => {
  it.each(SCANS.map((scan) => [scan.spec, scan] as const))('%s', (_spec, { kind, input, retire, ...scan }) => {
    // Prepare
    const advisories = scan.advisories ?? repository.jquery?.vulnerabilities ?? [];
    const asUrl = kind === 'filename' ? `https://scripts.example.test/${input.replaceAll('\\', '/').replace(/^\//, '')}` : input;

    // Act
    const found = kind === 'content' ? librariesInContent(input) : librariesInUrl(asUrl);
    const matched = advisoriesMatched(found, advisories);

    // Assess
    tally.scans++;
    if (JSON.stringify(matched) === JSON.stringify(retire)) tally.scansAgree++;
    expect(found.filter((match) => match.product === 'jquery').length, `jQuery read from ${input}`).toBeGreaterThan(0);
    expect(matched).toEqual(retire);
  });
});
