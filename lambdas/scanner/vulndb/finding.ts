/**
 * Many CVEs of one product become one finding, so a report stays readable: the finding carries the
 * count, the worst severity, the top five, the advice and each CVE's detail (DECISIONS "Per-CVE
 * detail"); the check's data says what was matched (product, version, confidence, fix).
 */
import type { CveDetail, Finding, Severity } from '../../domain/audit.js';
import { distributionPatchLevel } from './backport.js';
import type { MatchedVulnerability, MatchResult, VulnSeverity } from './types.js';

export interface GroupOptions {
  /** Where the version was seen ("Server header of https://example.com/", "SSH banner on port 22"). */
  seenIn?: string;
  /**
   * What follows the version in the banner (`Debian-2+deb12u10`, `(Ubuntu)`, `el8`): when it names a
   * distribution package, the finding says fixes may have been backported and confidence is lower.
   */
  backportHint?: string;
}

/** How sure the match is: by version alone, or by version from a package whose distribution may have backported fixes. */
export type MatchConfidence = 'version-match' | 'backport-possible';

/**
 * The match behind a finding, for the check's `data`. Each vulnerability's detail is on the finding
 * (`cveDetails`), stored once: a MySQL with 900 CVEs must still fit a 400 KB DynamoDB item. Audits
 * stored before that also have `vulnerabilities` here (the full records); lambdas/domain/cve-details.ts
 * reads both.
 */
export interface VulnerabilityFindingData {
  findingId: string;
  product: string;
  productName: string;
  version: string;
  confidence: MatchConfidence;
  /** The distribution the banner names, when `confidence` is backport-possible. */
  distribution?: string;
  fixedVersion?: string;
  fixedVersionScope?: MatchResult['fixedVersionScope'];
  /** How many of the matched vulnerabilities are known exploited (CISA KEV). */
  exploited: number;
  /** The product's vulnerabilities without version data (could apply, not checked). */
  unranged: string[];
  endOfLife?: string;
}

export interface GroupedFinding {
  finding: Finding;
  data: VulnerabilityFindingData;
}

const ORDER: readonly Severity[] = ['info', 'low', 'medium', 'high', 'critical'];
const step = (severity: Severity, by: number): Severity => ORDER[Math.max(1, Math.min(ORDER.length - 1, ORDER.indexOf(severity) + by))]!;

/**
 * One vulnerability's weight in the finding: its severity (CVSS band, else the vendor's rating), one
 * level higher when it is known exploited (CISA KEV), so a KEV CVE rated high makes the finding
 * critical. Unrated ones (`unknown`) weigh nothing here.
 */
function weight(vulnerability: MatchedVulnerability): Severity | undefined {
  const severity: VulnSeverity = vulnerability.severity;
  if (severity === 'unknown') return undefined;
  return vulnerability.exploited ? step(severity, 1) : severity;
}

/**
 * The finding's severity: the heaviest vulnerability's weight (critical when any has CVSS ≥ 9.0, or is
 * known exploited and rated high or above); medium when none is rated. One level lower when the
 * banner shows a distribution package, since the fixes may have been backported.
 */
export function findingSeverity(vulnerabilities: readonly MatchedVulnerability[], confidence: MatchConfidence): Severity {
  const weights = vulnerabilities.map(weight).filter((w): w is Severity => w !== undefined);
  const worst = weights.reduce<Severity>((a, b) => (ORDER.indexOf(b) > ORDER.indexOf(a) ? b : a), weights.length ? 'low' : 'medium');
  return confidence === 'backport-possible' ? step(worst, -1) : worst;
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

function scoreText(vulnerability: MatchedVulnerability): string {
  const parts: string[] = [];
  if (vulnerability.cvssScore !== undefined) parts.push(`CVSS ${vulnerability.cvssScore.toFixed(1)}`);
  else if (vulnerability.scoreSource === 'cvss-v2-severity') parts.push(`CVSS v2 severity ${vulnerability.severity}`);
  else if (vulnerability.severity !== 'unknown') parts.push(`rated ${vulnerability.severity} by the vendor`);
  else parts.push('not rated');
  if (vulnerability.exploited) parts.push('exploited in the wild');
  if (vulnerability.epss !== undefined) parts.push(`EPSS ${(vulnerability.epss * 100).toFixed(vulnerability.epss >= 0.1 ? 0 : 1)}%`);
  return parts.join(', ');
}

/** About one line of the summary: whole sentences when they end between 60 and 140 characters, no final period. */
function oneLine(summary: string): string {
  const text = summary.replace(/…$/, '');
  if (text.length <= 140) return text.replace(/\.$/, '');
  const head = text.slice(0, 141);
  const sentenceEnd = head.lastIndexOf('. ');
  if (sentenceEnd >= 60) return head.slice(0, sentenceEnd);
  return `${head.slice(0, 139).replace(/\s+\S*$/, '')}…`;
}

/**
 * What a report shows of one matched vulnerability: scores, CISA KEV, EPSS, fixed version and
 * summary; not its references, aliases or ranges, which stay in the check's data.
 */
export function cveDetail(vulnerability: MatchedVulnerability): CveDetail {
  const v = vulnerability;
  return {
    id: v.id,
    ...(v.cvssScore !== undefined ? { cvssScore: v.cvssScore } : {}),
    ...(v.cvssVector ? { cvssVector: v.cvssVector } : {}),
    severity: v.severity,
    exploited: v.exploited,
    ...(v.kevDateAdded ? { kevDateAdded: v.kevDateAdded } : {}),
    ...(v.ransomware !== undefined ? { ransomware: v.ransomware } : {}),
    ...(v.epss !== undefined ? { epss: v.epss } : {}),
    ...(v.epssPercentile !== undefined ? { epssPercentile: v.epssPercentile } : {}),
    ...(v.fixedIn ? { fixedIn: v.fixedIn } : {}),
    summary: v.summary,
  };
}

/** Known exploited (CISA KEV) first, the given order kept otherwise (the matcher's: score, then EPSS). */
const exploitedFirst = (vulnerabilities: readonly MatchedVulnerability[]) => [...vulnerabilities].sort((a, b) => Number(b.exploited) - Number(a.exploited));

/** `cve.<product id>` with characters outside [a-z0-9._-] replaced: stable across scans. */
export function vulnerabilityFindingId(product: string): string {
  return `cve.${product.toLowerCase().replace(/[^a-z0-9._-]+/g, '-')}`;
}

/**
 * Groups a match into one finding (`cve.<product>`, check `cve`, category Vulnerabilities), or
 * undefined when nothing matched. Title like "Apache HTTP Server 2.4.49 has 12 known vulnerabilities
 * (1 exploited in the wild)"; the description names the top five with score and one line each;
 * the recommendation is "Upgrade to X or later" plus the KEV note; `cves` and `cveDetails` list every
 * matched vulnerability, known exploited first. `data` says what was matched.
 */
export function groupAsFinding(product: string, version: string, match: MatchResult, options: GroupOptions = {}): GroupedFinding | undefined {
  const vulnerabilities = exploitedFirst(match.vulnerabilities);
  if (vulnerabilities.length === 0) return undefined;
  const id = match.product ?? product;
  const name = match.productName;
  const distribution = distributionPatchLevel(options.backportHint ?? '') ?? distributionPatchLevel(match.versionSuffix ?? '');
  const confidence: MatchConfidence = distribution ? 'backport-possible' : 'version-match';
  const exploited = vulnerabilities.filter((v) => v.exploited);
  const count = plural(vulnerabilities.length, 'known vulnerability', 'known vulnerabilities');
  const exploitedNote = exploited.length ? ` (${exploited.length} exploited in the wild)` : '';
  const title =
    confidence === 'version-match'
      ? `${name} ${version} has ${count}${exploitedNote}`
      : `${name} ${version} may have ${count}${exploitedNote}: ${distribution} may have backported fixes`;

  const top = vulnerabilities.slice(0, 5).map((v) => `${v.id} (${scoreText(v)}): ${oneLine(v.summary)}`);
  const more = vulnerabilities.length > 5 ? ` And ${vulnerabilities.length - 5} more.` : '';
  const backport = distribution
    ? ` The banner shows a ${distribution} package. Distributions fix vulnerabilities by backporting patches without changing the upstream version number, so some or all of these may already be fixed: this is a match by version only.`
    : '';
  const unrangedExploited = match.unranged.filter((v) => v.exploited).length;
  const unranged = match.unranged.length
    ? ` ${plural(match.unranged.length, 'further vulnerability', 'further vulnerabilities')} of ${name}${unrangedExploited ? ` (${unrangedExploited} exploited in the wild)` : ''} ${match.unranged.length === 1 ? 'has' : 'have'} no version data and could not be checked: ${match.unranged.slice(0, 5).map((v) => v.id).join(', ')}${match.unranged.length > 5 ? ' …' : ''}.`
    : '';
  const endOfLife = match.endOfLife ? ` ${match.endOfLife.summary}` : '';
  const description =
    `${name} ${version} matches ${count} in the vulnerability data${exploited.length ? `, ${exploited.length} of them known to be exploited in the wild (CISA KEV)` : ''}. ` +
    `Most serious: ${top.join('; ')}.${more}${backport}${unranged}${endOfLife}`;

  const fix = match.fixedVersion
    ? match.fixedVersionScope === 'all-known'
      ? `Upgrade ${name} to ${match.fixedVersion} or later.`
      : `Upgrade ${name} to ${match.fixedVersion} or later, which fixes these; later advisories still affect that release, so prefer the newest release your vendor supports.`
    : `No fixed ${name} release is known for these in the vulnerability data: apply the vendor's mitigations, or replace it.`;
  const unfixed = match.fixedVersion && match.unfixed.length ? ` No fix is known yet for ${match.unfixed.join(', ')}.` : '';
  const kev = exploited.length
    ? ` ${exploited.length === 1 ? `${exploited[0]!.id} is` : `${exploited.length} of these are`} being exploited in the wild (CISA KEV): patch now and check the server for signs of compromise.`
    : '';
  const distro = distribution
    ? ` If ${name} comes from ${distribution.replace(/ \(.*\)$/, '')} packages, install the distribution's security updates and look these CVE ids up in its security tracker to see which are already fixed.`
    : '';
  const findingId = vulnerabilityFindingId(id);
  const cvss = vulnerabilities.map((v) => v.cvssScore).filter((score): score is number => score !== undefined);
  const cves = vulnerabilities.map((v) => v.id).filter((vid) => vid.startsWith('CVE-'));

  const finding: Finding = {
    id: findingId,
    check: 'cve',
    title,
    severity: findingSeverity(vulnerabilities, confidence),
    category: 'Vulnerabilities',
    evidence: `${name} ${version}${options.backportHint ? ` ${options.backportHint}` : ''}${options.seenIn ? ` (seen in ${options.seenIn})` : ''}`,
    description,
    recommendation: `${fix}${unfixed}${kev}${distro}`,
    ...(cvss.length ? { cvssScore: Math.max(...cvss) } : {}),
    ...(cves.length ? { cves } : {}),
    cveDetails: vulnerabilities.map(cveDetail),
  };
  return {
    finding,
    data: {
      findingId,
      product: id,
      productName: name,
      version,
      confidence,
      ...(distribution ? { distribution } : {}),
      ...(match.fixedVersion ? { fixedVersion: match.fixedVersion, fixedVersionScope: match.fixedVersionScope } : {}),
      exploited: exploited.length,
      unranged: match.unranged.map((v) => v.id),
      ...(match.endOfLife ? { endOfLife: match.endOfLife.summary } : {}),
    },
  };
}
