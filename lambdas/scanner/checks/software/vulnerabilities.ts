/**
 * Technologies with a version the knowledge base knows become CVE findings: one per product and
 * version (groupAsFinding), with every place the version was seen and the distribution's backport
 * caveat when a banner names one. Versions too uncertain to act on are listed, never matched.
 */
import type { Finding, Severity } from '../../../domain/audit.js';
import { groupAsFinding, matchVulnerabilities, type VulnerabilityFindingData } from '../../vulndb/index.js';
import { compareConfidence } from './merge.js';
import type { Confidence, Technology, TechnologySource } from './types.js';

/** One product and version's matched vulnerabilities (groupAsFinding's data) and how sure the version is. */
export interface SoftwareVulnerabilities extends VulnerabilityFindingData {
  /** The fingerprint's confidence in the version (`confidence` is the match's: version-match or backport-possible). */
  versionConfidence: Confidence;
}

export interface VulnerabilityOutcome {
  findings: Finding[];
  vulnerabilities: SoftwareVulnerabilities[];
  /** The technologies, with `knownVulnerabilities` and `findingId` set where a version was looked up. */
  technologies: Technology[];
}

export interface VulnerabilityOptions {
  /**
   * Finding ids another check of the scan already made (the WordPress check may report WordPress
   * core's CVEs itself): the software check does not repeat them.
   */
  reportedElsewhere?: ReadonlySet<string>;
}

/** How a less-than-certain version was read, for the finding's description. */
const HOW_READ: Partial<Record<TechnologySource, string>> = {
  'script-filename': "the script's file name",
  'script-uri': "the script's URL",
  'asset-version': 'the release number on its asset URLs',
  'wordpress-check': 'the WordPress check (one source)',
};

const SEVERITY_ORDER: readonly Severity[] = ['critical', 'high', 'medium', 'low', 'info'];

function placesText(places: readonly string[]): string {
  return places.length > 5 ? `${places.slice(0, 5).join('; ')} and ${places.length - 5} more places` : places.join('; ');
}

/**
 * Which versioned technologies are matched: a product and a full version (not a release line like
 * "Drupal 9"), at medium confidence or more; when one product shows several versions, only the
 * high-confidence ones if there are any (a file name's guess does not contradict a file's own header).
 */
function matchable(technologies: readonly Technology[]): Technology[] {
  const candidates = technologies.filter((t) => t.product && t.version && !t.versionScope && t.confidence !== 'low');
  const best = new Map<string, Confidence>();
  for (const t of candidates) {
    const current = best.get(t.product!);
    if (!current || compareConfidence(t.confidence, current) > 0) best.set(t.product!, t.confidence);
  }
  return candidates.filter((t) => t.confidence === best.get(t.product!));
}

/** The CVE findings (category Vulnerabilities, check `software`) and their data for a set of technologies. */
export function vulnerabilityFindings(technologies: readonly Technology[], options: VulnerabilityOptions = {}): VulnerabilityOutcome {
  const annotated = technologies.map((t) => ({ ...t }));
  const grouped: { technology: Technology; finding: Finding; data: VulnerabilityFindingData }[] = [];
  for (const technology of matchable(annotated)) {
    const match = matchVulnerabilities(technology.product!, technology.version!);
    technology.knownVulnerabilities = match.vulnerabilities.length;
    const group = groupAsFinding(technology.product!, technology.version!, match, {
      seenIn: placesText(technology.seenIn),
      ...(technology.backportHint ? { backportHint: technology.backportHint } : {}),
    });
    if (group) grouped.push({ technology, ...group });
  }

  // Finding ids are unique per scan: two versions of one product (two jQuery copies) each get theirs.
  const perProduct = new Map<string, number>();
  for (const { data } of grouped) perProduct.set(data.findingId, (perProduct.get(data.findingId) ?? 0) + 1);

  const findings: Finding[] = [];
  const vulnerabilities: SoftwareVulnerabilities[] = [];
  for (const { technology, finding, data } of grouped) {
    const id = (perProduct.get(data.findingId) ?? 0) > 1 ? `${data.findingId}-${technology.version!.toLowerCase().replace(/[^a-z0-9._-]+/g, '-')}` : data.findingId;
    technology.findingId = id;
    if (options.reportedElsewhere?.has(id)) continue;
    const how = technology.confidence === 'medium' ? HOW_READ[technology.source] : undefined;
    const caution = how
      ? ` The version was read from ${how}, not announced by the software itself: confirm it (for instance in the site's admin pages) before acting on this.`
      : '';
    findings.push({ ...finding, id, check: 'software', description: `${finding.description}${caution}` });
    vulnerabilities.push({ ...data, findingId: id, versionConfidence: technology.confidence });
  }
  const order = (f: Finding) => SEVERITY_ORDER.indexOf(f.severity);
  findings.sort((a, b) => order(a) - order(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  vulnerabilities.sort((a, b) => findings.findIndex((f) => f.id === a.findingId) - findings.findIndex((f) => f.id === b.findingId));
  return { findings, vulnerabilities, technologies: annotated };
}
