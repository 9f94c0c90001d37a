/**
 * Types of the vulnerability knowledge base: what the matcher returns (public) and how
 * `lambdas/scanner/data/vulndb.json` stores it (read only by the typed loader in knowledge-base.ts).
 */

/** A CVE's severity: from its CVSS score where there is one, else the vendor's rating; `unknown` when neither exists. */
export type VulnSeverity = 'critical' | 'high' | 'medium' | 'low' | 'unknown';

/**
 * Where `severity` comes from, per record:
 * - `cvss`: a CVSS v3.x base score (CNA, CISA ADP or NVD);
 * - `vendor-severity`: no CVSS v3 score; the vendor's own rating (Apache "important", retire.js "high" …);
 * - `cvss-v2-severity`: no CVSS v3 score; NVD's CVSS v2 severity;
 * - `none`: no score and no rating in the data (most PHP ChangeLog and some OpenSSL records).
 */
export type ScoreSource = 'cvss' | 'vendor-severity' | 'cvss-v2-severity' | 'none';

export type ProductKind = 'server' | 'web-application' | 'javascript-library';

/** One range of versions; all given bounds apply together. `exact` alone names one version. */
export interface VersionRange {
  startIncluding?: string;
  startExcluding?: string;
  endIncluding?: string;
  endExcluding?: string;
  exact?: string;
}

/** One vulnerability of one product, as the knowledge base holds it. */
export interface Vulnerability {
  /** CVE id, else GHSA id, else a retire.js id (`RETIRE-tinymce-retid-61`). */
  id: string;
  /** Other ids of the same vulnerability (GHSA for a CVE). */
  aliases: string[];
  /** One or two sentences, at most 200 characters. */
  summary: string;
  /** YYYY-MM-DD, when the source gives it. */
  published?: string;
  cvssScore?: number;
  cvssVector?: string;
  /** "3.1", "3.0", or "3.x" when only the score is known (NVD via KEV_EPSS). */
  cvssVersion?: string;
  severity: VulnSeverity;
  scoreSource: ScoreSource;
  /** In CISA's Known Exploited Vulnerabilities catalog. */
  exploited: boolean;
  kevDateAdded?: string;
  /** CISA: known to be used in ransomware campaigns. */
  ransomware?: boolean;
  /** EPSS probability of exploitation in the next 30 days (FIRST), where known (KEV CVEs only). */
  epss?: number;
  epssPercentile?: number;
  /** Alternatives: a version is affected when it is in any of them … */
  affected: VersionRange[];
  /** … and in none of these (vendor "not vulnerable" branches, retire.js excludes). */
  unaffected: VersionRange[];
  /** Fixed releases as the vendor lists them (nginx "not vulnerable", PHP ChangeLog). */
  fixedIn: string[];
  /** At most two patch or advisory URLs. */
  references: string[];
}

/** A vulnerability that applies to the detected version. */
export interface MatchedVulnerability extends Omit<Vulnerability, 'affected' | 'unaffected' | 'fixedIn'> {
  /** The lowest known version above the detected one that this vulnerability does not affect; none when no fix is known. */
  fixedIn?: string;
}

/** A product's vulnerability whose affected versions the data does not give: it cannot be matched to a version. */
export interface UnrangedVulnerability {
  id: string;
  summary: string;
  severity: VulnSeverity;
  cvssScore?: number;
  exploited: boolean;
}

/** A notice that a whole line of versions gets no more security fixes (retire.js). */
export interface EndOfLifeNotice {
  summary: string;
  severity: VulnSeverity;
}

export interface MatchResult {
  /** The product id the name resolved to; undefined when the knowledge base does not know the product. */
  product?: string;
  /** Display name ("Apache HTTP Server"); the given name when the product is unknown. */
  productName: string;
  /** The version as given. */
  version: string;
  /** The version as matched: vendor suffixes dropped (`5.7.19-log` → `5.7.19`); undefined when it is not a version. */
  matchedVersion?: string;
  /** What was dropped from the given version (`-0ubuntu0.22.04.1`): may name a distribution. */
  versionSuffix?: string;
  /** Sorted: known exploited (CISA KEV) first, then CVSS (or the vendor rating's band) high to low, then EPSS. */
  vulnerabilities: MatchedVulnerability[];
  /**
   * "Upgrade to ≥ fixedVersion": the lowest known version above the detected one that no vulnerability
   * in the knowledge base affects (`fixedVersionScope: 'all-known'`); when every known newer version
   * still has some vulnerability, the lowest that none of the matched ones affects (`'matched-only'`).
   * Undefined when nothing matched, or no known version fixes them.
   */
  fixedVersion?: string;
  fixedVersionScope?: 'all-known' | 'matched-only';
  /** Ids of matched vulnerabilities with no known fixed version. */
  unfixed: string[];
  /** The product's vulnerabilities without version data (not matched, could apply). */
  unranged: UnrangedVulnerability[];
  /** Set when the detected version's line is end-of-life. */
  endOfLife?: EndOfLifeNotice;
}

export interface ProductInfo {
  id: string;
  name: string;
  kind: ProductKind;
  /** Names that resolve to this product (case, spaces and punctuation are ignored). */
  aliases: string[];
  vulnerabilities: number;
}

// ---- On-disk format (vulndb.json). Only knowledge-base.ts reads it; bin/build-vulndb.ts writes it. ----

/** A range with operator keys: {">=": "2.4.0", "<": "2.4.51"}; {"=": "2.4.49"}. */
export interface StoredRange {
  '>='?: string;
  '>'?: string;
  '<='?: string;
  '<'?: string;
  '='?: string;
}

export interface StoredVulnerability {
  id: string;
  aliases?: string[];
  summary: string;
  published?: string;
  /** [score, vector or null, CVSS version]. */
  cvss?: [number, string | null, string];
  severity: VulnSeverity;
  scoreSource: ScoreSource;
  /** [dateAdded, used in ransomware campaigns]. */
  kev?: [string, boolean];
  /** [EPSS score, percentile]. */
  epss?: [number, number];
  affected: StoredRange[];
  unaffected?: StoredRange[];
  fixedIn?: string[];
  refs?: string[];
}

export interface StoredEndOfLife {
  range: StoredRange;
  summary: string;
  severity: VulnSeverity;
}

export interface StoredProduct {
  id: string;
  name: string;
  kind: ProductKind;
  /** Extra names from the source (retire.js library, npm and bower names). */
  names?: string[];
  /** OpenSSH: a bound without `pN` covers that release's portable builds (NVD's "through 7.3" includes 7.3p1). */
  portableSuffix?: boolean;
  /** Known versions that may be advice (vendor fixes, range ends, their successors), sorted ascending. */
  fixCandidates: string[];
  /** The candidates that no vulnerability of the product affects, sorted ascending. */
  safeVersions: string[];
  endOfLife?: StoredEndOfLife[];
  vulnerabilities: StoredVulnerability[];
}

export interface StoredKnowledgeBase {
  format: 1;
  products: StoredProduct[];
}
