/**
 * WordPress plugin and theme vulnerabilities (Wordfence Intelligence, with CVE ids), in the knowledge
 * base as lambdas/scanner/data/wordpress-vulns.json (written by `npm run build:vulndb`, see
 * WORDPRESS-PROVENANCE.md), loaded on first use: only a scan that sees WordPress plugins pays for it.
 *
 * Stored form (bin/build-wordpress-vulns.ts writes it): per slug one string, its records separated by
 * `;`, each record's fields by `|` (trailing empty fields left out):
 *   cve (without `CVE-`) | CVSS index (base 36, into `cvss`) | kind index (base 36, into `kinds`) |
 *   ranges | fixed | Wordfence record ids | EPSS | KEV
 * - ranges, `,`-separated alternatives: `<=X`, `<X`, `>=A<=B`, `>=A<B`, `=X`, `*` (every version);
 * - fixed: the first unaffected version when the source names one that the ranges do not already say
 *   (a lone `<X` range is fixed in X);
 * - Wordfence record ids: UUIDs as 22 base64url characters, `,`-separated (the first is the record's);
 * - EPSS: `score,percentile`; KEV: the date CISA added it, `!` after it when used by ransomware.
 * The Wordfence licence asks for a link to each record wherever it is shown: every vulnerability carries
 * its record URLs in `references`.
 */
import type { MatchedVulnerability, VulnSeverity } from './types.js';
import { compareParsed, type ParsedVersion, parseVersion } from './version.js';

/** Plugins live in wp-content/plugins/<slug>/, themes in wp-content/themes/<slug>/. */
export type WordPressComponentKind = 'plugin' | 'theme';

/** wordpress-vulns.json as stored. */
export interface StoredWordPressVulns {
  format: 1;
  /** The date of the source data (Wordfence records as of then). */
  dataDate: string;
  /** SHA-256 of each shared data file it was built from. */
  sourceSha256: { plugins: string; themes: string };
  /** [CVSS v3 vector, base score]. */
  cvss: [string, number][];
  /** The kind of flaw: Wordfence's title after the product and its versions, up to " via " ("Unauthenticated SQL Injection"). */
  kinds: string[];
  plugins: Record<string, string>;
  themes: Record<string, string>;
}

/** One range of affected versions; the bounds given apply together, `all` alone means every version. */
export interface WordPressRange {
  startIncluding?: string;
  endIncluding?: string;
  endExcluding?: string;
  exact?: string;
  all?: true;
}

/** One vulnerability of one plugin or theme. */
export interface WordPressVulnerability {
  /** The CVE id. */
  id: string;
  /** The kind of flaw, from Wordfence's title. */
  kind: string;
  cvssScore?: number;
  cvssVector?: string;
  severity: VulnSeverity;
  /** In CISA's Known Exploited Vulnerabilities catalog. */
  exploited: boolean;
  kevDateAdded?: string;
  ransomware?: boolean;
  epss?: number;
  epssPercentile?: number;
  /** Alternatives: a version is affected when it is in any of them. */
  affected: WordPressRange[];
  /** The first version that is not affected, where the source names it. */
  fixedIn?: string;
  /** The Wordfence Intelligence record(s): the licence asks for this link wherever the record is shown. */
  references: string[];
}

/** A plugin's or theme's vulnerabilities by slug (the directory name, compared as it is written). */
export type WordPressVulnLookup = (kind: WordPressComponentKind, slug: string) => WordPressVulnerability[];

/** A lookup that knows nothing: for analyses run without the knowledge base. */
export const NO_WORDPRESS_VULNS: WordPressVulnLookup = () => [];

/** The page every Wordfence Intelligence record has. */
export const WORDFENCE_RECORD_URL = 'https://www.wordfence.com/threat-intel/vulnerabilities/id/';
/** The Wordfence Intelligence licence's copyright designation and terms, as its records carry them. */
export const WORDFENCE_ATTRIBUTION =
  'Vulnerability data: Wordfence Intelligence, Copyright 2012-2026 Defiant Inc., licensed under https://www.wordfence.com/wordfence-intelligence-terms-and-conditions/ (each CVE links to its record); CVE ids Copyright 1999-2026 The MITRE Corporation.';

export const FIELD = '|';
export const RECORD = ';';
export const ALTERNATIVE = ',';

/** A Wordfence record id (UUID) as 22 base64url characters, and back. */
export function packRecordId(uuid: string): string {
  return Buffer.from(uuid.replace(/-/g, ''), 'hex').toString('base64url');
}
export function unpackRecordId(packed: string): string {
  const hex = Buffer.from(packed, 'base64url').toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** `<=X`, `<X`, `>=A<=B`, `>=A<B`, `=X`, `*`. */
export function formatRange(range: WordPressRange): string {
  if (range.all) return '*';
  if (range.exact !== undefined) return `=${range.exact}`;
  const start = range.startIncluding !== undefined ? `>=${range.startIncluding}` : '';
  const end = range.endIncluding !== undefined ? `<=${range.endIncluding}` : range.endExcluding !== undefined ? `<${range.endExcluding}` : '';
  return `${start}${end}`;
}

export function parseRange(text: string): WordPressRange {
  if (text === '*') return { all: true };
  if (text.startsWith('=')) return { exact: text.slice(1) };
  const match = /^(?:>=([^<]+))?(?:(<=|<)(.+))?$/.exec(text);
  if (!match) throw new Error(`Not a stored range: ${text}`);
  const [, start, operator, end] = match;
  return {
    ...(start !== undefined ? { startIncluding: start } : {}),
    ...(operator === '<=' ? { endIncluding: end! } : operator === '<' ? { endExcluding: end! } : {}),
  };
}

/** The CVSS v3 rating of a score. */
export function severityOfScore(score: number | undefined): VulnSeverity {
  if (score === undefined) return 'unknown';
  return score >= 9 ? 'critical' : score >= 7 ? 'high' : score >= 4 ? 'medium' : score > 0 ? 'low' : 'unknown';
}

function decodeRecord(stored: StoredWordPressVulns, text: string): WordPressVulnerability {
  const [cve = '', cvss = '', kind = '', ranges = '', fixed = '', ids = '', epss = '', kev = ''] = text.split(FIELD);
  const [vector, score] = cvss ? (stored.cvss[parseInt(cvss, 36)] ?? []) : [];
  const affected = ranges.split(ALTERNATIVE).map(parseRange);
  const lone = affected.length === 1 ? affected[0]!.endExcluding : undefined;
  const fixedIn = fixed || lone;
  const [epssScore, percentile] = epss ? epss.split(ALTERNATIVE).map(Number) : [];
  return {
    id: `CVE-${cve}`,
    kind: stored.kinds[parseInt(kind, 36)] ?? '',
    ...(score !== undefined ? { cvssScore: score } : {}),
    ...(vector ? { cvssVector: vector } : {}),
    severity: severityOfScore(score),
    exploited: kev !== '',
    ...(kev ? { kevDateAdded: kev.replace(/!$/, ''), ransomware: kev.endsWith('!') } : {}),
    ...(epssScore !== undefined ? { epss: epssScore, epssPercentile: percentile! } : {}),
    affected,
    ...(fixedIn ? { fixedIn } : {}),
    references: ids.split(ALTERNATIVE).filter(Boolean).map((id) => `${WORDFENCE_RECORD_URL}${unpackRecordId(id)}`),
  };
}

/** The lookup over a stored file (pure): a slug's records are decoded when asked for. */
export function wordpressVulnLookup(stored: StoredWordPressVulns): WordPressVulnLookup {
  if (stored.format !== 1) throw new Error(`wordpress-vulns.json format ${String(stored.format)} is not supported; rebuild with npm run build:vulndb`);
  return (kind, slug) => {
    const table = kind === 'plugin' ? stored.plugins : stored.themes;
    // Own keys only: a plugin may be called `constructor`.
    if (!Object.hasOwn(table, slug)) return [];
    return table[slug]!.split(RECORD).map((record) => decodeRecord(stored, record));
  };
}

let loaded: Promise<WordPressVulnLookup> | undefined;

/** The knowledge base's lookup, imported on first use (about 2.5 MB of JSON, only for scans that see WordPress components). */
export function loadWordPressVulns(): Promise<WordPressVulnLookup> {
  loaded ??= import('../data/wordpress-vulns.json', { with: { type: 'json' } }).then((module) => wordpressVulnLookup(module.default as unknown as StoredWordPressVulns));
  return loaded;
}

// ---- Matching ----

function parsed(version: string | undefined): ParsedVersion | undefined {
  return version === undefined ? undefined : parseVersion(version);
}

/** Whether `version` is in `range`; a bound that is not a version never matches. */
export function inWordPressRange(version: ParsedVersion, range: WordPressRange): boolean {
  if (range.all) return true;
  if (range.exact !== undefined) {
    const exact = parsed(range.exact);
    return exact !== undefined && compareParsed(version, exact) === 0;
  }
  const bounds = [range.startIncluding, range.endIncluding, range.endExcluding].filter((bound) => bound !== undefined);
  if (bounds.length === 0) return false;
  const [start, endIncluding, endExcluding] = [parsed(range.startIncluding), parsed(range.endIncluding), parsed(range.endExcluding)];
  if (range.startIncluding !== undefined && (!start || compareParsed(version, start) < 0)) return false;
  if (range.endIncluding !== undefined && (!endIncluding || compareParsed(version, endIncluding) > 0)) return false;
  if (range.endExcluding !== undefined && (!endExcluding || compareParsed(version, endExcluding) >= 0)) return false;
  return true;
}

function affects(vulnerability: WordPressVulnerability, version: ParsedVersion): boolean {
  return vulnerability.affected.some((range) => inWordPressRange(version, range));
}

/** A matched vulnerability, shaped as the knowledge base's so the finding helpers (severity, CVE detail) read it. */
export type MatchedWordPressVulnerability = MatchedVulnerability & { kind: string; references: string[] };

/** A plugin's or theme's matched vulnerabilities and the advice. */
export interface WordPressMatch {
  /** Known exploited first, then CVSS high to low, then EPSS, then newer CVEs first. */
  vulnerabilities: MatchedWordPressVulnerability[];
  /** Upgrade to this or later: the highest first-fixed version of the matched ones, when it is past every bound of the others. */
  fixedVersion?: string;
  /** Otherwise, upgrade to a release after this: the highest "up to and including" bound with no known fix. */
  fixedAfter?: string;
  /** The advised release is itself affected by a later advisory (or the latest release is): install the newest. */
  laterAdvisories: boolean;
}

/** "versions up to 4.0.0", "versions before 1.3.28", "1.0 to 2.0", "version 1.1.0", "every version". */
export function rangeText(range: WordPressRange): string {
  if (range.all) return 'every version';
  if (range.exact !== undefined) return `version ${range.exact}`;
  if (range.startIncluding !== undefined && range.endIncluding !== undefined) return `${range.startIncluding} to ${range.endIncluding}`;
  if (range.startIncluding !== undefined && range.endExcluding !== undefined) return `${range.startIncluding} up to (not including) ${range.endExcluding}`;
  if (range.endIncluding !== undefined) return `versions up to ${range.endIncluding}`;
  if (range.endExcluding !== undefined) return `versions before ${range.endExcluding}`;
  return `versions from ${range.startIncluding}`;
}

function byPriority(a: WordPressVulnerability, b: WordPressVulnerability): number {
  const number = (id: string) => {
    const match = /^CVE-(\d+)-(\d+)$/.exec(id);
    return match ? Number(match[1]) * 10_000_000 + Number(match[2]) : 0;
  };
  return (
    Number(b.exploited) - Number(a.exploited) ||
    (b.cvssScore ?? 0) - (a.cvssScore ?? 0) ||
    (b.epss ?? -1) - (a.epss ?? -1) ||
    number(b.id) - number(a.id) ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

function maxVersion(versions: readonly string[]): string | undefined {
  let best: { text: string; parsed: ParsedVersion } | undefined;
  for (const text of versions) {
    const version = parsed(text);
    if (version && (!best || compareParsed(version, best.parsed) > 0)) best = { text, parsed: version };
  }
  return best?.text;
}

/**
 * The vulnerabilities of one plugin or theme that affect `version`, known exploited first, and what to
 * upgrade to. A `version` that is not a version (or an unknown slug) matches nothing.
 */
export function matchWordPressComponent(lookup: WordPressVulnLookup, kind: WordPressComponentKind, slug: string, version: string): WordPressMatch {
  const detected = parseVersion(version);
  const known = lookup(kind, slug);
  if (!detected || known.length === 0) return { vulnerabilities: [], laterAdvisories: false };
  const matched = known.filter((vulnerability) => affects(vulnerability, detected)).sort(byPriority);
  if (matched.length === 0) return { vulnerabilities: [], laterAdvisories: false };

  const vulnerabilities = matched.map((v): MatchedWordPressVulnerability => ({
    id: v.id,
    aliases: [],
    summary: `${v.kind} (${v.affected.filter((range) => inWordPressRange(detected, range)).map(rangeText).join(', ')})`,
    ...(v.cvssScore !== undefined ? { cvssScore: v.cvssScore, cvssVersion: v.cvssVector?.startsWith('CVSS:3.0') ? '3.0' : '3.1' } : {}),
    ...(v.cvssVector ? { cvssVector: v.cvssVector } : {}),
    severity: v.severity,
    scoreSource: v.cvssScore !== undefined ? 'cvss' : 'none',
    exploited: v.exploited,
    ...(v.kevDateAdded ? { kevDateAdded: v.kevDateAdded, ransomware: v.ransomware === true } : {}),
    ...(v.epss !== undefined ? { epss: v.epss, epssPercentile: v.epssPercentile! } : {}),
    ...(v.fixedIn ? { fixedIn: v.fixedIn } : {}),
    references: v.references,
    kind: v.kind,
  }));

  // Upgrade advice: past every matched range that holds the version.
  const fixes = matched.map((v) => v.fixedIn).filter((fixed): fixed is string => fixed !== undefined);
  const openEnds = matched
    .filter((v) => v.fixedIn === undefined)
    .flatMap((v) => v.affected.filter((range) => inWordPressRange(detected, range)).map((range) => range.endIncluding ?? range.exact));
  const unbounded = openEnds.includes(undefined);
  const highestFix = maxVersion(fixes);
  const highestOpenEnd = maxVersion(openEnds.filter((end): end is string => end !== undefined));
  const fixPastEnds = highestFix !== undefined && (highestOpenEnd === undefined || compareParsed(parsed(highestFix)!, parsed(highestOpenEnd)!) > 0);
  const advice = unbounded ? {} : fixPastEnds ? { fixedVersion: highestFix! } : highestOpenEnd !== undefined ? { fixedAfter: highestOpenEnd } : {};

  // Does any known advisory reach past the advice (or is some version always affected)?
  const past = advice.fixedVersion ?? advice.fixedAfter;
  const pastParsed = parsed(past);
  const laterAdvisories =
    unbounded ||
    (pastParsed !== undefined &&
      known.some((v) =>
        v.affected.some((range) => {
          if (range.all) return true;
          if (advice.fixedVersion !== undefined) return inWordPressRange(pastParsed, range);
          const end = parsed(range.endIncluding ?? range.endExcluding ?? range.exact);
          return end !== undefined && compareParsed(end, pastParsed) > 0;
        }),
      ));
  return { vulnerabilities, ...advice, laterAdvisories };
}
