/**
 * Which known vulnerabilities affect a product at a version, ranked for a report, with the version
 * that fixes them.
 */
import { type PreparedVulnerability, type ProductData, productData, resolveProduct, type VersionPoint } from './knowledge-base.js';
import type { ProductId } from './products.js';
import { isAffected } from './range.js';
import type { MatchedVulnerability, MatchResult, VulnSeverity } from './types.js';
import { compareParsed, type ParsedVersion, parseVersion, versionCore } from './version.js';

export { knownProducts, resolveProduct } from './knowledge-base.js';

/** Where a vulnerability without a CVSS score ranks: the lower end of its rating's CVSS band. */
const BAND_FLOOR: Record<VulnSeverity, number> = { critical: 9, high: 7, medium: 4, low: 0.1, unknown: 0 };

/** The score a vulnerability ranks by: its CVSS score, else the floor of its rating's band. */
export function rankScore(vulnerability: Pick<MatchedVulnerability, 'cvssScore' | 'severity'>): number {
  return vulnerability.cvssScore ?? BAND_FLOOR[vulnerability.severity];
}

/** Known exploited first, then by score high to low, then EPSS high to low, then newer ids first. */
export function byPriority(a: MatchedVulnerability, b: MatchedVulnerability): number {
  return (
    Number(b.exploited) - Number(a.exploited) ||
    rankScore(b) - rankScore(a) ||
    (b.epss ?? -1) - (a.epss ?? -1) ||
    b.id.localeCompare(a.id, 'en', { numeric: true })
  );
}

/** Index of the first point strictly above `version` (points sorted ascending). */
function firstAbove(points: readonly VersionPoint[], version: ParsedVersion): number {
  let low = 0;
  let high = points.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (compareParsed(points[middle]!.parsed, version) <= 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

function affects(product: ProductData, entry: PreparedVulnerability, version: ParsedVersion): boolean {
  return isAffected(version, entry.affected, entry.unaffected, product.options);
}

/** The lowest candidate above `version` that none of `entries` affects. */
function lowestUnaffected(product: ProductData, entries: readonly PreparedVulnerability[], version: ParsedVersion): string | undefined {
  const candidates = product.fixCandidates;
  for (let i = firstAbove(candidates, version); i < candidates.length; i++) {
    const candidate = candidates[i]!;
    if (!entries.some((entry) => affects(product, entry, candidate.parsed))) return candidate.text;
  }
  return undefined;
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
  const parsed = parseVersion(version);
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
  const unranged = data.vulnerabilities
    .filter((entry) => entry.affected.length === 0)
    .map(({ vulnerability: v }) => ({
      id: v.id,
      summary: v.summary,
      severity: v.severity,
      ...(v.cvssScore !== undefined ? { cvssScore: v.cvssScore } : {}),
      exploited: v.exploited,
    }));
  if (!parsed) return { ...base, unranged };

  const core = versionCore(parsed);
  const matched = data.vulnerabilities.filter((entry) => affects(data, entry, parsed));
  const vulnerabilities = matched
    .map((entry): MatchedVulnerability => {
      const { affected: _affected, unaffected: _unaffected, fixedIn: _fixedIn, ...rest } = entry.vulnerability;
      const fixedIn = lowestUnaffected(data, [entry], core);
      return { ...rest, ...(fixedIn ? { fixedIn } : {}) };
    })
    .sort(byPriority);

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
      fixedVersion = fixable.length > 0 ? lowestUnaffected(data, fixable, core) : undefined;
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
