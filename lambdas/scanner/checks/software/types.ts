/**
 * What the software check reports: the technologies a site runs, each with the places it was seen.
 * Rules produce sightings (one place, one reading); the merge turns them into technologies.
 */

/**
 * How sure the fingerprint is that this product (and version) runs there:
 * - `high`: the software names itself (Server header, banner, generator tag, a library's own file header);
 * - `medium`: a convention that is rarely changed (a session cookie's name, a `?ver=` on a core asset,
 *   a version in a script's file name);
 * - `low`: a hint that other software could also leave.
 */
export type Confidence = 'high' | 'medium' | 'low';

/** Where a reading came from: a header, a cookie, the markup, a script, the error page, a banner or another check. */
export type TechnologySource =
  | 'server-header'
  | 'powered-by-header'
  | 'aspnet-version-header'
  | 'generator-header'
  | 'header'
  | 'cookie'
  | 'meta-generator'
  | 'asset-version'
  | 'asset-path'
  | 'script-filename'
  | 'script-uri'
  | 'script-content'
  | 'error-page'
  | 'http-banner'
  | 'ssh-banner'
  | 'smtp-banner'
  | 'ftp-banner'
  | 'mysql-greeting'
  | 'service-banner'
  | 'wordpress-check';

/** What kind of software it is, for grouping in a report. */
export type TechnologyCategory =
  | 'web-server'
  | 'tls-library'
  | 'language'
  | 'framework'
  | 'cms'
  | 'javascript-library'
  | 'cdn'
  | 'proxy'
  | 'hosting-panel'
  | 'ssh-server'
  | 'mail-server'
  | 'ftp-server'
  | 'database'
  | 'other';

/** One reading of one product at one place. */
export interface Sighting {
  /** Display name ("Apache HTTP Server", "jQuery", "Laravel"). */
  name: string;
  /** The knowledge-base product id, when the knowledge base knows the product. */
  product?: string;
  category: TechnologyCategory;
  version?: string;
  /** The version names a release line only ("Drupal 9"): shown, never matched to CVEs. */
  versionScope?: 'line';
  confidence: Confidence;
  source: TechnologySource;
  /** Where it was seen: "Server header on https://example.com/", "SSH banner on port 22". */
  where: string;
  /** What was read there, as it was written ("Apache/2.4.71 (Debian) OpenSSL/3.0.19"). */
  value: string;
  /** What follows the version in the banner or header (`Debian-2+deb12u10`, `(Ubuntu)`): the distribution's package may carry backported fixes. */
  backportHint?: string;
}

/** A product (at one version, when one was seen) with every place it was seen. */
export interface Technology {
  name: string;
  product?: string;
  category: TechnologyCategory;
  version?: string;
  versionScope?: 'line';
  /** The strongest reading's confidence. */
  confidence: Confidence;
  /** The strongest reading's source. */
  source: TechnologySource;
  /** Every place it was seen, as "<where>: <what was read>" (at most MAX_EVIDENCE, then a count). */
  evidence: string[];
  /** The places alone, for a finding's "seen in". */
  seenIn: string[];
  backportHint?: string;
  /** The distribution the banner names (`Debian (2+deb12u10)`), when one does. */
  distribution?: string;
  /** How many known vulnerabilities match this version, when it was looked up. */
  knownVulnerabilities?: number;
  /** The finding made for those vulnerabilities. */
  findingId?: string;
}
