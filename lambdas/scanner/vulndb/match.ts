/**
 * Which known vulnerabilities affect a product at a version, ranked for a report, with the version
 * that fixes them.
 */
import { type PreparedVulnerability, type ProductData, productData, resolveProduct, type VersionPoint } from './knowledge-base.js';
import type { ProductId } from './products.js';
import { inRange, isAffected } from './range.js';
import type { MatchedVulnerability, MatchResult } from './types.js';
import { compareParsed, type ParsedVersion, parseVersion, versionCore } from './version.js';

export { knownProducts, rankScore, resolveProduct } from './knowledge-base.js';

/** Report order: known exploited first, then score high to low, then EPSS high to low, then newer CVE ids first. */
function byPriority(a: PreparedVulnerability, b: PreparedVulnerability): number {
  const [x, y] = [a.sortKey, b.sortKey];
  for (let i = 0; i < 5; i++) if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
  return x[5] < y[5] ? -1 : x[5] > y[5] ? 1 : 0;
}

/** Index of the first point above `version` (or at it, when `inclusive`); points are sorted ascending. */
function firstAbove(points: readonly VersionPoint[], version: ParsedVersion, inclusive = false): number {
  let low = 0;
  let high = points.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    const order = compareParsed(points[middle]!.parsed, version);
    if (order < 0 || (order === 0 && !inclusive)) low = middle + 1;
    else high = middle;
  }
  return low;
}

function affects(product: ProductData, entry: PreparedVulnerability, version: ParsedVersion): boolean {
  return isAffected(version, entry.affected, entry.unaffected, product.options);
}

/**
 * Where to look next once `version` is affected by `entry`: past the end of every range holding it,
 * or at the next unaffected branch's start, whichever comes first. Undefined when a range holding it
 * has no end (no fix known).
 */
function nextExit(product: ProductData, entry: PreparedVulnerability, version: ParsedVersion): { at: ParsedVersion; inclusive: boolean } | undefined {
  let exit: { at: ParsedVersion; inclusive: boolean } | undefined;
  const consider = (at: ParsedVersion, inclusive: boolean) => {
    const order = exit ? compareParsed(at, exit.at) : -1;
    if (order < 0 || (order === 0 && inclusive)) exit = { at, inclusive };
  };
  for (const range of entry.affected) {
    if (!inRange(version, range, product.options)) continue;
    if (range.endExcluding) consider(range.endExcluding, true);
    else if (range.endIncluding) consider(range.endIncluding, false);
    else if (range.exact) consider(range.exact, false);
    else return undefined;
  }
  for (const range of entry.unaffected) {
    const start = range.startIncluding ?? range.exact;
    if (start && compareParsed(start, version) > 0) consider(start, true);
  }
  return exit;
}

/**
 * The lowest candidate above `version` that none of `entries` affects. Jumps from range end to range
 * end instead of testing every candidate, so hundreds of CVEs (MySQL) stay well under a millisecond.
 */
function lowestUnaffected(product: ProductData, entries: readonly PreparedVulnerability[], start: number): string | undefined {
  const candidates = product.fixCandidates;
  let index = start;
  while (index < candidates.length) {
    const candidate = candidates[index]!;
    const blocking = entries.find((entry) => affects(product, entry, candidate.parsed));
    if (!blocking) return candidate.text;
    const exit = nextExit(product, blocking, candidate.parsed);
    if (!exit) return undefined;
    index = Math.max(index + 1, firstAbove(candidates, exit.at, exit.inclusive));
  }
  return undefined;
}

/**
 * One vulnerability's fix depends only on where the detected version falls among the candidates, so
 * it is remembered per (vulnerability, position): a warm container answers repeated versions at once.
 */
const fixedInCache = new WeakMap<PreparedVulnerability, Map<number, string | undefined>>();

function fixedInFor(product: ProductData, entry: PreparedVulnerability, above: number): string | undefined {
  let byPosition = fixedInCache.get(entry);
  if (!byPosition) fixedInCache.set(entry, (byPosition = new Map()));
  if (byPosition.has(above)) return byPosition.get(above);
  const fixedIn = lowestUnaffected(product, [entry], above);
  byPosition.set(above, fixedIn);
  return fixedIn;
}

/**
 * The vulnerabilities of `product` (an id or any alias: "Apache", "Microsoft-IIS", "OpenSSH") that
 * affect `version`, sorted known-exploited first, then CVSS high to low, then EPSS; with the fixed
 * version to advise. Vendor suffixes after the version (`-log`, `-0ubuntu0.22.04.1`) are ignored for
 * matching and returned as `versionSuffix`. An unknown product or a string that is not a version
 * gives an empty result, never an error.
 */
export function matchVulnerabilities(product: ProductId, version: string): MatchResult {
  const id = resolveProduct(product);
  const data = id === undefined ? undefined : productData(id);
  const parsed = parseVersion(version, data?.scheme);
  const base: MatchResult = {
    ...(data ? { product: data.info.id } : {}),
    productName: data?.info.name ?? product,
    version,
    ...(parsed ? { matchedVersion: parsed.text } : {}),
    ...(parsed?.rest ? { versionSuffix: parsed.rest.replace(/^[-+~._\s]+/, '') } : {}),
    vulnerabilities: [],
    unfixed: [],
    unranged: [],
  };
  if (!data) return base;
  const unranged = [...data.unranged];
  if (!parsed) return { ...base, unranged };

  const core = versionCore(parsed);
  const above = firstAbove(data.fixCandidates, core);
  const matched = data.vulnerabilities.filter((entry) => affects(data, entry, parsed)).sort(byPriority);
  const vulnerabilities = matched.map((entry): MatchedVulnerability => {
    const fixedIn = fixedInFor(data, entry, above);
    return fixedIn ? { ...entry.reported, fixedIn } : { ...entry.reported };
  });

  const unfixed = vulnerabilities.filter((v) => v.fixedIn === undefined).map((v) => v.id);
  let fixedVersion: string | undefined;
  let fixedVersionScope: MatchResult['fixedVersionScope'];
  if (vulnerabilities.length > 0) {
    const safe = data.safeVersions[firstAbove(data.safeVersions, core)];
    if (safe) {
      fixedVersion = safe.text;
      fixedVersionScope = 'all-known';
    } else {
      const fixable = matched.filter((entry) => !unfixed.includes(entry.vulnerability.id));
      fixedVersion = fixable.length > 0 ? lowestUnaffected(data, fixable, above) : undefined;
      if (fixedVersion) fixedVersionScope = 'matched-only';
    }
  }
  const endOfLife = data.endOfLife.find((entry) => isAffected(parsed, [entry.range], [], data.options))?.notice;
  return {
    ...base,
    vulnerabilities,
    ...(fixedVersion ? { fixedVersion, fixedVersionScope } : {}),
    unfixed,
    unranged,
    ...(endOfLife ? { endOfLife } : {}),
  };
}
