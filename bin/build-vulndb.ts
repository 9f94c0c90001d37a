/**
 * `npm run build:vulndb`: builds the product's own compact knowledge base from the offline data
 * in ../shared/data/vulndb (or --source DIR) into lambdas/scanner/data/ (or --out DIR). The product
 * reads only what this writes, never ../shared.
 *
 * Writes:
 * - top-ports.json: the nmap top-1000 TCP port list (ports check);
 * - vulndb.json: per product, its vulnerabilities with normalised version ranges, CVSS or the vendor's
 *   rating (said per record), CISA KEV, EPSS, fixed versions and at most two references;
 * - PROVENANCE.md: sources, their hashes and commits, counts per product, every normalisation made;
 * - js-libraries.json + JS-PROVENANCE.md: retire.js's file-name, URI and file-content extractors of the
 *   knowledge base's JavaScript libraries (software check);
 * - hsts-preload.json + HSTS-PROVENANCE.md: Chromium's HSTS preload list from ../shared/data/hsts-preload
 *   (or --hsts-source DIR), by bin/build-hsts-preload.ts (HTTP and TLS checks);
 * - wordpress-vulns.json + WORDPRESS-PROVENANCE.md: WordPress plugin and theme CVEs (Wordfence
 *   Intelligence) from the same --source folder, by bin/build-wordpress-vulns.ts (software check);
 * - eol.json + EOL-PROVENANCE.md: endoflife.date's release cycles from ../shared/data/eol (or
 *   --eol-source DIR), by bin/build-eol.ts (software check);
 * - dkim-selectors.json: the DKIM selectors the email check tries, from ../shared/data/dkim-selectors.txt
 *   (or --dkim-source DIR), by bin/build-dkim-selectors.ts (email check);
 * - takeover-fingerprints.json + TAKEOVER-PROVENANCE.md: can-i-take-over-xyz's services with subjack's
 *   CNAME patterns from ../shared/data/takeover (or --takeover-source DIR), by bin/build-takeover.ts
 *   (subdomains check; licenses/Apache-2.0.txt is subjack's licence text, kept beside them).
 * The output is sorted and carries no build time, so rebuilding from the same input gives the same bytes.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import * as z from 'zod';
import { buildHstsPreload } from './build-hsts-preload.js';
import { buildTakeoverFingerprints } from './build-takeover.js';
import { buildDkimSelectors } from './build-dkim-selectors.js';
import { buildEndOfLife } from './build-eol.js';
import { buildWordPressVulns } from './build-wordpress-vulns.js';
import { aliasKey, PRODUCT_CATALOG, retireProductId, versionSchemeOf } from '../lambdas/scanner/vulndb/products.js';
import { isAffected, isEmptyRange, prepareRangeFor, toStoredRange } from '../lambdas/scanner/vulndb/range.js';
import type {
  ProductKind,
  ScoreSource,
  StoredEndOfLife,
  StoredKnowledgeBase,
  StoredProduct,
  StoredVulnerability,
  VersionRange,
  VulnSeverity,
} from '../lambdas/scanner/vulndb/types.js';
import { compareVersions, parseVersion, successorVersion, type VersionScheme } from '../lambdas/scanner/vulndb/version.js';

const args = process.argv.slice(2);
const option = (name: string) => {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
};
const source = resolve(option('--source') ?? '../shared/data/vulndb');
const hstsSource = resolve(option('--hsts-source') ?? join(source, '../hsts-preload'));
const eolSource = resolve(option('--eol-source') ?? join(source, '../eol'));
const takeoverSource = resolve(option('--takeover-source') ?? join(source, '../takeover'));
const dkimSource = resolve(option('--dkim-source') ?? join(source, '..'));
const out = resolve(option('--out') ?? 'lambdas/scanner/data');
const started = performance.now();
mkdirSync(out, { recursive: true });

function buildTopPorts() {
  const lines = readFileSync(join(source, 'nmap-top1000-tcp.csv'), 'utf8').trim().split('\n');
  const [header, ...rows] = lines;
  if (header !== 'port,service,frequency') throw new Error(`Unexpected header in nmap-top1000-tcp.csv: ${header}`);
  const ports = rows.map((row) => {
    const [port, service] = row.split(',');
    const number = Number(port);
    if (!Number.isInteger(number) || number < 1 || number > 65535) throw new Error(`Bad port line: ${row}`);
    return [number, service ?? 'unknown'] as const;
  });
  if (ports.length !== 1000 || new Set(ports.map(([p]) => p)).size !== 1000) throw new Error('Expected 1,000 distinct ports');
  writeFileSync(
    join(out, 'top-ports.json'),
    `${JSON.stringify({
      source: 'nmap-services (Debian nmap 7.93) via shared/data/vulndb/nmap-top1000-tcp.csv: TCP ports by open-frequency, most frequent first',
      ports,
    })}\n`,
  );
  return ports.length;
}

// ---------------------------------------------------------------------------------------------
// Source formats (shared/data/vulndb/README.md). Parsed strictly so a changed format fails the build.
// ---------------------------------------------------------------------------------------------

const sourceRangeSchema = z.strictObject({
  versionStartIncluding: z.string().optional(),
  versionStartExcluding: z.string().optional(),
  versionEndIncluding: z.string().optional(),
  versionEndExcluding: z.string().optional(),
  exact: z.string().optional(),
  all: z.boolean().optional(),
  raw: z.string().optional(),
  raw_versionEndExcluding: z.string().optional(),
  note: z.string().optional(),
});

const sourceRecordSchema = z.object({
  cve: z.string().regex(/^CVE-\d{4}-\d{4,}$/),
  product: z.string(),
  published: z.string().nullable(),
  cvss_version: z.string().nullable(),
  cvss_score: z.number().nullable(),
  cvss_vector: z.string().nullable(),
  severity: z.enum(['CRITICAL', 'HIGH', 'MEDIUM', 'LOW']).nullable(),
  summary: z.string().nullable(),
  affected: z.array(sourceRangeSchema),
  references_patch: z.array(z.string()).optional(),
  sources: z.array(z.string()),
  affected_source: z.string().optional(),
  cvss_source: z.string().optional(),
  severity_source: z.string().optional(),
  vendor_severity: z.string().optional(),
  kev: z.object({ dateAdded: z.string(), knownRansomwareCampaignUse: z.string() }).optional(),
  epss: z.number().optional(),
  epss_percentile: z.number().optional(),
  fixed_in: z.string().optional(),
  fixed_in_list: z.array(z.string()).optional(),
  ghsa: z.string().optional(),
});
type SourceRecord = z.infer<typeof sourceRecordSchema>;

const kevSchema = z.object({
  catalogVersion: z.string(),
  dateReleased: z.string(),
  count: z.number(),
  vulnerabilities: z.array(z.object({ cveID: z.string(), dateAdded: z.string(), knownRansomwareCampaignUse: z.string() })),
});

const retireRangeSchema = z.strictObject({
  atOrAbove: z.string().optional(),
  above: z.string().optional(),
  below: z.string().optional(),
  excludes: z.array(z.string()).optional(),
});
const retireVulnerabilitySchema = z.object({
  ranges: z.array(retireRangeSchema),
  summary: z.string().optional(),
  identifiers: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
  severity: z.enum(['low', 'medium', 'high', 'critical']),
  info: z.array(z.string()).default([]),
});
const retireLibrarySchema = z.object({
  vulnerabilities: z.array(retireVulnerabilitySchema),
  npmname: z.string().optional(),
  bowername: z.array(z.string()).optional(),
});
type RetireVulnerability = z.infer<typeof retireVulnerabilitySchema>;

// ---------------------------------------------------------------------------------------------
// What the build changed, for PROVENANCE.md: every normalisation is logged with the record it touched.
// ---------------------------------------------------------------------------------------------

const changes = new Map<string, Set<string>>();
function note(kind: string, what: string) {
  const set = changes.get(kind) ?? new Set<string>();
  set.add(what);
  changes.set(kind, set);
}

// ---------------------------------------------------------------------------------------------
// Records being built.
// ---------------------------------------------------------------------------------------------

interface Draft {
  id: string;
  /** Where the ranges come from: `cves:<affected_source>` or `retire.js`. */
  origin: string;
  aliases: Set<string>;
  summary: string;
  published?: string;
  cvss?: { score: number; vector?: string; version: string };
  severity: VulnSeverity;
  scoreSource: ScoreSource;
  kev?: { added: string; ransomware: boolean };
  epss?: { score: number; percentile: number };
  affected: VersionRange[];
  unaffected: VersionRange[];
  fixedIn: string[];
  refs: string[];
}

interface ProductDraft {
  id: string;
  name: string;
  kind: ProductKind;
  names: Set<string>;
  portableSuffix: boolean;
  vulnerabilities: Map<string, Draft>;
  endOfLife: StoredEndOfLife[];
  sourceFiles: string[];
}

function bandOf(score: number): VulnSeverity {
  if (score >= 9) return 'critical';
  if (score >= 7) return 'high';
  if (score >= 4) return 'medium';
  if (score > 0) return 'low';
  return 'unknown';
}

/** The vendors' words as the shared README maps them (important/major → high, "highly critical" → critical …). */
const VENDOR_WORDS: Record<string, VulnSeverity> = {
  critical: 'critical', 'highly critical': 'critical',
  high: 'high', important: 'high', major: 'high',
  medium: 'medium', moderate: 'medium', 'moderately critical': 'medium',
  low: 'low', 'less critical': 'low', minor: 'low',
};

/** A one- or two-sentence summary of at most 200 characters. */
function shortSummary(text: string): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean.length <= 200) return clean;
  const sentence = clean.slice(0, 200).lastIndexOf('. ');
  if (sentence >= 80) return clean.slice(0, sentence + 1);
  const space = clean.slice(0, 199).lastIndexOf(' ');
  return `${clean.slice(0, space > 100 ? space : 199)}…`;
}

function isVersion(text: string): boolean {
  const parsed = parseVersion(text);
  return parsed !== undefined && parsed.rest === '';
}

/** "15.3" → "15", "2.4.49" → "2.4": the release line a fixed version belongs to. */
function branchOf(version: string): string {
  const parts = version.split('.');
  return parts.slice(0, Math.max(1, parts.length - 1)).join('.');
}

/** "2.4" → "2.5": the first version after a release line. */
function nextBranch(branch: string): string {
  const parts = branch.split('.').map(Number);
  parts[parts.length - 1] = (parts[parts.length - 1] ?? 0) + 1;
  return parts.join('.');
}

/** Vendor text in `raw` that still says which versions are affected, or the reason it is dropped. */
function rangesFromRaw(record: SourceRecord, raw: string): VersionRange[] | string {
  const constraint = /^>=\s*(\S+)\s*<\s*(\S+)$/.exec(raw);
  if (constraint) return [{ startIncluding: constraint[1]!, endExcluding: constraint[2]! }];
  const named = /^([a-z][\w-]*)\s+(\d\S*)$/i.exec(raw);
  if (named && aliasKey(named[1]!) === aliasKey(record.product)) return [{ exact: named[2]! }];
  if (/^PostgreSQL\s+[\d.]+(?:,\s*PostgreSQL\s+[\d.]+)*$/.test(raw)) {
    // The CNA record lists the releases that fixed it (15.3, 14.8 …): everything before them in each branch.
    return [...raw.matchAll(/PostgreSQL\s+([\d.]+)/g)].map((m) => ({ startIncluding: branchOf(m[1]!), endExcluding: m[1]! }));
  }
  if (/^nginx\/Windows/.test(raw)) return 'nginx for Windows builds only (a Windows server banner does not say so)';
  if (/dev$/.test(raw)) return `a development snapshot ("${raw}")`;
  return `not a version range ("${raw}")`;
}

/** One source bound, cleaned: PHP's "7.4.X" is 7.4.0. */
function cleanBound(record: SourceRecord, bound: string | undefined): string | undefined {
  if (bound === undefined) return undefined;
  const missingDot = /^(\d+)\.0(\d{2,})$/.exec(bound);
  if (missingDot) {
    note('Version missing a dot read as X.0.YY', `${record.product} ${record.cve} (${bound})`);
    return `${missingDot[1]}.0.${missingDot[2]}`;
  }
  if (/^\d+(?:\.\d+)*\.x$/i.test(bound)) {
    note('Wildcard "X.Y.X" start read as X.Y.0', `${record.product} ${record.cve} (${bound})`);
    return bound.replace(/\.x$/i, '.0');
  }
  return bound;
}

/**
 * The source's `affected` entries as ranges: raw vendor text parsed where it still says something,
 * joined ranges ("4.0.0-4.2.4") split, Oracle's "X and earlier" lists made into branch ranges, and
 * Apache's "fixed in" notes (the version that introduced the flaw) made into lower bounds.
 */
function normaliseAffected(record: SourceRecord): VersionRange[] {
  const id = `${record.product} ${record.cve}`;
  const ranges: VersionRange[] = [];
  let lowerBound: string | undefined;
  for (const entry of record.affected) {
    if (entry.all) {
      note('`all: true` not matched to every version (kept as "no version data")', `${id}: ${shortSummary(record.summary ?? '').slice(0, 90)}`);
      return [];
    }
    if (entry.note !== undefined) {
      // httpd-site: {versionEndExcluding: X, note: "fixed in"} marks the first affected release (CVE text: "2.4.17 to 2.4.48").
      lowerBound = entry.versionEndExcluding;
      note('Apache "fixed in" note read as the first affected release', `${id} (from ${lowerBound})`);
      continue;
    }
    if (entry.raw !== undefined) {
      const parsed = rangesFromRaw(record, entry.raw);
      if (typeof parsed === 'string') note('Vendor text that is not a version range dropped', `${id}: ${parsed}`);
      else {
        note('Vendor text parsed into ranges', `${id}: "${entry.raw}"`);
        ranges.push(...parsed);
      }
      continue;
    }
    if (entry.raw_versionEndExcluding !== undefined) {
      note('Range whose end is not a version dropped', `${id}: end "${entry.raw_versionEndExcluding}"`);
      continue;
    }
    const joined = entry.exact !== undefined ? /^(\d+(?:\.\d+)+)-(\d+(?:\.\d+)+)$/.exec(entry.exact) : null;
    if (joined) {
      note('"A-B" in `exact` read as the range A to B inclusive', `${id} (${entry.exact})`);
      ranges.push({ startIncluding: joined[1]!, endIncluding: joined[2]! });
      continue;
    }
    const earlier = entry.versionEndIncluding?.includes('and earlier') ? entry.versionEndIncluding : undefined;
    if (earlier) {
      note('Oracle "X and earlier" list read as one range per branch', `${id} ("${earlier}")`);
      for (const version of earlier.split(/\s+and earlier\s*/).map((part) => part.trim()).filter(Boolean)) {
        ranges.push({ startIncluding: `${branchOf(version)}.0`, endIncluding: version });
      }
      continue;
    }
    ranges.push(
      Object.fromEntries(
        Object.entries({
          startIncluding: cleanBound(record, entry.versionStartIncluding),
          startExcluding: cleanBound(record, entry.versionStartExcluding),
          endIncluding: cleanBound(record, entry.versionEndIncluding),
          endExcluding: cleanBound(record, entry.versionEndExcluding),
          exact: cleanBound(record, entry.exact),
        }).filter(([, value]) => value !== undefined),
      ),
    );
  }
  if (lowerBound !== undefined) {
    for (const range of ranges) if (!range.startIncluding && !range.startExcluding && !range.exact) range.startIncluding = lowerBound;
  }
  const startOnly = ranges.filter((range) => Object.keys(range).every((key) => key === 'startIncluding' || key === 'startExcluding'));
  const endOnly = ranges.filter((range) => Object.keys(range).every((key) => key === 'endIncluding' || key === 'endExcluding'));
  if (startOnly.length === 1 && endOnly.length === 1) {
    // httpd-site split "2.4.7 up to 2.4.51" into {start} and {end}; as alternatives they would cover every version.
    Object.assign(endOnly[0]!, startOnly[0]);
    ranges.splice(ranges.indexOf(startOnly[0]!), 1);
    note('A start-only and an end-only entry joined into one range', `${id} (${JSON.stringify(endOnly[0])})`);
  }
  const perLine = ranges.filter((range) => Object.keys(range).every((key) => key === 'endIncluding' || key === 'endExcluding'));
  if (perLine.length >= 2) {
    // Oracle's CNA records list "up to 5.6.34", "up to 5.7.16" per supported line; as alternatives every
    // one would reach down to the oldest version. Each but the lowest starts at the line after the previous.
    const end = (range: VersionRange) => (range.endIncluding ?? range.endExcluding)!;
    perLine.sort((a, b) => compareVersions(end(a), end(b)));
    for (const [index, range] of perLine.entries()) {
      if (index === 0) continue;
      range.startIncluding = `${nextBranch(branchOf(end(perLine[index - 1]!)))}.0`;
    }
    note('Several end-only ranges ("up to X" per line) each start after the previous line', id);
  }
  if (record.product === 'exchange') {
    note('Exchange build numbers written without zero padding (15.01.2507.039 → 15.1.2507.39)', id);
    return cumulativeUpdateRanges(record, ranges.map(exchangeBuildNumbers));
  }
  return ranges;
}

/** The CNA writes Exchange builds zero-padded (15.01.2507.039); Microsoft and OWA write 15.1.2507.39. */
function exchangeBuildNumbers(range: VersionRange): VersionRange {
  return Object.fromEntries(Object.entries(range).map(([key, bound]) => [key, String(bound).split('.').map((part) => (/^\d+$/.test(part) ? String(Number(part)) : part)).join('.')]));
}

/**
 * Exchange CNA data lists one "before build X" per cumulative update (CU), all starting at 15.x.0, so a
 * patched older CU would look affected by a newer CU's fix. A build is major.minor.CU.revision: per
 * product line the lowest fix keeps its start (older CUs are unsupported and stay affected), every
 * other range starts at its own CU (15.2.986.9 → from 15.2.986.0).
 */
function cumulativeUpdateRanges(record: SourceRecord, ranges: VersionRange[]): VersionRange[] {
  const byLine = new Map<string, VersionRange[]>();
  for (const range of ranges) {
    const end = range.endExcluding?.split('.');
    if (!end || end.length !== 4) continue;
    const line = `${Number(end[0])}.${Number(end[1])}`;
    byLine.set(line, [...(byLine.get(line) ?? []), range]);
  }
  for (const group of byLine.values()) {
    if (group.length < 2) continue;
    group.sort((a, b) => compareVersions(a.endExcluding!, b.endExcluding!));
    for (const range of group.slice(1)) {
      const [major, minor, build] = range.endExcluding!.split('.').map(Number);
      range.startIncluding = `${major}.${minor}.${build}.0`;
      delete range.startExcluding;
    }
    note('Exchange per-CU ranges start at their CU', `exchange ${record.cve}`);
  }
  return ranges;
}

/** Keeps ranges whose bounds are versions and whose start is not above their end. */
function validRanges(id: string, ranges: VersionRange[]): VersionRange[] {
  return ranges.filter((range) => {
    const bounds = Object.values(range).filter((bound): bound is string => bound !== undefined);
    if (bounds.length === 0) return false;
    // An exact version may carry a vendor tag (1.12.4-aem): it is compared for equality only.
    const bad = bounds.find((bound) => (bound === range.exact ? parseVersion(bound) === undefined : !isVersion(bound)));
    if (bad !== undefined) {
      note('Range with a bound that is not a version dropped', `${id}: "${bad}"`);
      return false;
    }
    const start = range.startIncluding ?? range.startExcluding;
    const end = range.endIncluding ?? range.endExcluding;
    if (start && end && compareVersions(start, end) > 0) {
      note('Range whose start is above its end dropped', `${id}: ${start} > ${end}`);
      return false;
    }
    return true;
  });
}

function draftFromRecord(record: SourceRecord): Draft {
  let severity: VulnSeverity;
  let scoreSource: ScoreSource;
  if (record.cvss_score !== null) {
    severity = bandOf(record.cvss_score);
    scoreSource = 'cvss';
  } else if (record.severity_source === 'nvd:cvss-v2' && record.severity) {
    severity = record.severity.toLowerCase() as VulnSeverity;
    scoreSource = 'cvss-v2-severity';
  } else if (record.severity) {
    severity = record.severity.toLowerCase() as VulnSeverity;
    scoreSource = 'vendor-severity';
  } else if (record.vendor_severity && VENDOR_WORDS[record.vendor_severity]) {
    severity = VENDOR_WORDS[record.vendor_severity]!;
    scoreSource = 'vendor-severity';
  } else {
    severity = 'unknown';
    scoreSource = 'none';
  }
  const id = `${record.product} ${record.cve}`;
  if (record.summary === null) note('No description in the source (summary says so)', id);
  const fixedIn = new Set<string>(record.fixed_in_list ?? []);
  const unaffected: VersionRange[] = [];
  if (record.fixed_in) {
    // nginx.org "not vulnerable: 1.23.2+, 1.22.1+": each fixed release covers the rest of its branch.
    for (const fixed of record.fixed_in.split(',').map((part) => part.trim().replace(/\+$/, ''))) {
      fixedIn.add(fixed);
      unaffected.push({ startIncluding: fixed, endExcluding: `${nextBranch(branchOf(fixed))}.0` });
    }
    note('nginx "not vulnerable" releases kept as unaffected branches', id);
  }
  return {
    id: record.cve,
    origin: `cves:${record.affected_source ?? 'none'}`,
    aliases: new Set(record.ghsa ? [record.ghsa] : []),
    summary: record.summary === null ? `${record.cve}: no description in the data; see the CVE record.` : shortSummary(record.summary),
    ...(record.published ? { published: record.published } : {}),
    ...(record.cvss_score !== null
      ? { cvss: { score: record.cvss_score, ...(record.cvss_vector ? { vector: record.cvss_vector } : {}), version: record.cvss_version ?? '3.x' } }
      : {}),
    severity,
    scoreSource,
    ...(record.kev ? { kev: { added: record.kev.dateAdded, ransomware: record.kev.knownRansomwareCampaignUse === 'Known' } } : {}),
    ...(record.epss !== undefined ? { epss: { score: record.epss, percentile: record.epss_percentile ?? 0 } } : {}),
    affected: validRanges(id, normaliseAffected(record)),
    unaffected: validRanges(id, unaffected),
    fixedIn: [...fixedIn].filter(isVersion),
    refs: (record.references_patch ?? []).slice(0, 2),
  };
}

// ---------------------------------------------------------------------------------------------
// retire.js (master format: `ranges` of atOrAbove/above/below with `excludes`, per-library names).
// ---------------------------------------------------------------------------------------------

/**
 * retire.js writes "no fix yet" as below 999.999.999 and "all of 2.x" as below 2.999.999: the first
 * becomes an open end, the second the next line (below 3.0.0).
 */
function retireBound(library: string, bound: string): string | undefined {
  const parts = bound.split('.');
  const nines = parts.findIndex((part) => Number(part) >= 999);
  if (nines < 0) return bound;
  if (nines === 0) {
    note('retire.js "below 999…" (no fix yet) read as an open end', `${library} below ${bound}`);
    return undefined;
  }
  const kept = parts.slice(0, nines).map(Number);
  kept[kept.length - 1] = (kept[kept.length - 1] ?? 0) + 1;
  const next = [...kept, ...parts.slice(nines).map(() => 0)].join('.');
  note('retire.js "below X.999" read as below the next line', `${library} below ${bound} → below ${next}`);
  return next;
}

function retireIds(library: string, vulnerability: RetireVulnerability): string[] {
  const { CVE, githubID, ...others } = vulnerability.identifiers;
  const cves = [CVE ?? []].flat();
  if (cves.length > 0) return cves;
  if (typeof githubID === 'string') return [githubID];
  const [kind, value] = Object.entries(others).find(([key]) => key !== 'summary') ?? ['entry', '0'];
  const first = [value].flat()[0] ?? '0';
  return [`RETIRE-${retireProductId(library)}-${kind}-${first.replace(/[^A-Za-z0-9.]+/g, '-')}`];
}

const ADVISORY_HOSTS = /github\.com\/advisories|security|advisor|snyk\.io|blog|release/i;

function retireReferences(info: string[]): string[] {
  const useful = info.filter((url) => /^https?:\/\//.test(url) && !/nvd\.nist\.gov|research\.insecurelabs\.org/.test(url));
  return [...useful.filter((url) => ADVISORY_HOSTS.test(url)), ...useful.filter((url) => !ADVISORY_HOSTS.test(url))].slice(0, 2);
}

function isEndOfLife(vulnerability: RetireVulnerability): boolean {
  const { CVE, githubID } = vulnerability.identifiers;
  const summary = vulnerability.summary ?? String(vulnerability.identifiers.summary ?? '');
  return !CVE && !githubID && /end[- ]of[- ]life|no longer (?:maintained|receiving)|discontinued/i.test(summary);
}

function retireDrafts(library: string, vulnerability: RetireVulnerability): Draft[] {
  const affected: VersionRange[] = [];
  const unaffected: VersionRange[] = [];
  for (const range of vulnerability.ranges) {
    const below = range.below !== undefined ? retireBound(library, range.below) : undefined;
    affected.push({
      ...(range.atOrAbove !== undefined ? { startIncluding: range.atOrAbove } : {}),
      ...(range.above !== undefined ? { startExcluding: range.above } : {}),
      ...(below !== undefined ? { endExcluding: below } : {}),
    });
    for (const excluded of range.excludes ?? []) unaffected.push({ exact: excluded });
  }
  const summary = vulnerability.summary ?? String(vulnerability.identifiers.summary ?? '');
  const ids = retireIds(library, vulnerability);
  const githubID = vulnerability.identifiers.githubID;
  return ids.map((id) => ({
    id,
    origin: 'retire.js',
    aliases: new Set([...(typeof githubID === 'string' && githubID !== id ? [githubID] : []), ...ids.filter((other) => other !== id)]),
    summary: shortSummary(summary || `${library} vulnerability`),
    severity: vulnerability.severity,
    scoreSource: 'vendor-severity',
    affected: validRanges(`${library} ${id}`, affected.map((range) => (isEmptyRange(range) ? { startIncluding: '0' } : range))),
    unaffected: validRanges(`${library} ${id}`, unaffected),
    fixedIn: [],
    refs: retireReferences(vulnerability.info),
  }));
}

/** Two entries for one id (retire.js lists some issues once per branch): ranges joined, worst rating kept. */
function mergeInto(existing: Draft, extra: Draft) {
  existing.affected.push(...extra.affected);
  existing.unaffected.push(...extra.unaffected);
  for (const alias of extra.aliases) if (alias !== existing.id) existing.aliases.add(alias);
  const order: VulnSeverity[] = ['unknown', 'low', 'medium', 'high', 'critical'];
  if (existing.scoreSource !== 'cvss' && order.indexOf(extra.severity) > order.indexOf(existing.severity)) existing.severity = extra.severity;
  if (existing.refs.length === 0) existing.refs = extra.refs;
}

// ---------------------------------------------------------------------------------------------
// CSV (RFC 4180 quoting) for epss/kev-epss-cvss.csv.
// ---------------------------------------------------------------------------------------------

function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += char;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows.filter((r) => r.length > 1 || r[0] !== '');
}

// ---------------------------------------------------------------------------------------------
// The build.
// ---------------------------------------------------------------------------------------------

const inputHashes = new Map<string, string>();
function readInput(path: string): string {
  const text = readFileSync(join(source, path), 'utf8');
  inputHashes.set(path, createHash('sha256').update(text).digest('hex'));
  return text;
}

function naturalIdOrder(a: string, b: string): number {
  const cve = /^CVE-(\d+)-(\d+)$/;
  const ma = cve.exec(a);
  const mb = cve.exec(b);
  if (ma && mb) return Number(ma[1]) - Number(mb[1]) || Number(ma[2]) - Number(mb[2]);
  if (ma || mb) return ma ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function byVersion(a: string, b: string, scheme: VersionScheme = 'vendor'): number {
  return compareVersions(a, b, scheme) || (a < b ? -1 : a > b ? 1 : 0);
}

/** Versions tied to an operating system or a build scheme, where "the next number" is not a release (IIS 7.5 → 8.0). */
const NO_PREDICTED_RELEASES = new Set(['iis', 'exchange']);

/**
 * Versions that may be given as "upgrade to ≥ X": the ends of ranges, exact versions and vendor fixed
 * releases in the product's data (never a range's start: that is where a flaw came in), plus the
 * predicted next release after an inclusive end (2.4.48 → 2.4.49) where that line is alive: the data
 * shows it went on past that end, or a CVE from the product's last two CVE years names it, or it is the
 * product's newest line. An end-of-life line (Apache 2.2.34, MySQL 5.7.44) so gets no made-up release.
 * Pre-releases are never advice. Equal versions written differently are kept once, shortest spelling.
 * Versions order by the product's scheme (SemVer for JavaScript libraries).
 */
function fixCandidates(productId: string, vulnerabilities: Draft[], scheme: VersionScheme): string[] {
  const known = new Set<string>();
  const advisable = new Set<string>();
  const inclusiveEnds = new Set<string>();
  const lineOf = (version: string) => parseVersion(version, scheme)!.release.slice(0, -1).join('.');
  const year = (id: string) => Number(/^CVE-(\d{4})-/.exec(id)?.[1] ?? 0);
  const lastYear = Math.max(0, ...vulnerabilities.map((vulnerability) => year(vulnerability.id)));
  const liveLines = new Set<string>();
  for (const vulnerability of vulnerabilities) {
    for (const range of vulnerability.affected) {
      for (const bound of Object.values(range)) if (bound !== undefined) known.add(bound);
      for (const bound of [range.endExcluding, range.endIncluding, range.exact]) {
        if (bound === undefined) continue;
        advisable.add(bound);
        if (year(vulnerability.id) >= lastYear - 1) liveLines.add(lineOf(bound));
      }
      if (range.endIncluding) inclusiveEnds.add(range.endIncluding);
      if (range.exact) inclusiveEnds.add(range.exact);
    }
    // An unaffected branch's start is a real fixed release; its end (next branch .0) is the build's own guess.
    for (const range of vulnerability.unaffected) for (const bound of [range.startIncluding, range.exact]) if (bound) advisable.add(bound);
    for (const fixed of vulnerability.fixedIn) advisable.add(fixed);
  }
  for (const version of advisable) known.add(version);
  const newestLine = [...known].sort((a, b) => byVersion(a, b, scheme)).map(lineOf).at(-1);
  const candidates = new Set(advisable);
  for (const end of NO_PREDICTED_RELEASES.has(productId) ? [] : inclusiveEnds) {
    const next = successorVersion(end, scheme);
    if (!next) continue;
    const line = lineOf(end);
    const lineWentOn = [...known].some((version) => lineOf(version) === line && compareVersions(version, end, scheme) > 0);
    if (lineWentOn || liveLines.has(line) || line === newestLine) candidates.add(next);
  }
  const usable = [...candidates].filter((version) => {
    const parsed = parseVersion(version, scheme);
    return parsed !== undefined && parsed.rest === '' && parsed.prerelease.length === 0 && !parsed.qualifiers.some((qualifier) => qualifier[0] === -1);
  });
  const sorted = usable.sort((a, b) => compareVersions(a, b, scheme) || a.length - b.length || (a < b ? -1 : 1));
  return sorted.filter((version, index) => index === 0 || compareVersions(sorted[index - 1]!, version, scheme) !== 0);
}

function buildVulndb() {
  const catalog: Record<string, { name: string; kind: ProductKind; aliases: readonly string[] }> = PRODUCT_CATALOG;
  const products = new Map<string, ProductDraft>();
  const productFor = (id: string, name: string, kind: ProductKind): ProductDraft => {
    const existing = products.get(id);
    if (existing) return existing;
    const created: ProductDraft = {
      id, name, kind, names: new Set(), portableSuffix: id === 'openssh', vulnerabilities: new Map(), endOfLife: [], sourceFiles: [],
    };
    products.set(id, created);
    return created;
  };

  // 1. Per-product CVE files.
  const cveFiles = readdirSync(join(source, 'cves')).filter((file) => file.endsWith('.jsonl')).sort();
  const sourceCounts = new Map<string, number>();
  for (const file of cveFiles) {
    const id = basename(file, '.jsonl');
    const entry = catalog[id];
    if (!entry) throw new Error(`cves/${file}: product "${id}" is not in PRODUCT_CATALOG (lambdas/scanner/vulndb/products.ts); add it with its names`);
    const product = productFor(id, entry.name, entry.kind);
    product.sourceFiles.push(`cves/${file}`);
    const lines = readInput(`cves/${file}`).split('\n').filter((line) => line.trim() !== '');
    sourceCounts.set(id, lines.length);
    for (const [index, line] of lines.entries()) {
      const parsed = sourceRecordSchema.safeParse(JSON.parse(line));
      if (!parsed.success) throw new Error(`cves/${file} line ${index + 1}: ${parsed.error.message}`);
      const record = parsed.data;
      if (record.product !== id) throw new Error(`cves/${file} line ${index + 1}: product "${record.product}"`);
      const draft = draftFromRecord(record);
      const existing = product.vulnerabilities.get(draft.id);
      if (existing) {
        note('Duplicate record for one CVE merged', `${id} ${draft.id}`);
        mergeInto(existing, draft);
      } else product.vulnerabilities.set(draft.id, draft);
    }
  }

  // 2. retire.js: every library (its own ranges, excludes and ratings); CVE data enriches the records it shares.
  const retire = z.record(z.string(), z.unknown()).parse(JSON.parse(readInput('retirejs/jsrepository-master.json')));
  let retireLibraries = 0;
  for (const [library, raw] of Object.entries(retire).sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (library === 'retire-example' || library === 'dont check') continue;
    const parsed = retireLibrarySchema.safeParse(raw);
    if (!parsed.success) throw new Error(`retire.js ${library}: ${parsed.error.message}`);
    retireLibraries++;
    const id = retireProductId(library);
    const entry = catalog[id];
    const product = productFor(id, entry?.name ?? library, 'javascript-library');
    product.sourceFiles.push('retirejs/jsrepository-master.json');
    for (const name of [library, parsed.data.npmname, ...(parsed.data.bowername ?? [])]) if (name) product.names.add(name);
    for (const vulnerability of parsed.data.vulnerabilities) {
      if (isEndOfLife(vulnerability)) {
        const range = retireDrafts(library, vulnerability)[0]!.affected[0]!;
        product.endOfLife.push({ range: toStoredRange(range), summary: shortSummary(vulnerability.summary ?? ''), severity: vulnerability.severity });
        note('retire.js end-of-life notices kept apart from vulnerabilities', `${library}: ${shortSummary(vulnerability.summary ?? '').slice(0, 80)}`);
        continue;
      }
      for (const draft of retireDrafts(library, vulnerability)) {
        const existing = product.vulnerabilities.get(draft.id);
        if (!existing) product.vulnerabilities.set(draft.id, draft);
        else if (existing.origin === 'cves:RetireJS/retire.js') {
          // The CVE file took this record from retire.js but without `excludes` and with 999 bounds
          // reshaped: retire.js's own ranges replace them; CVSS, KEV, EPSS and dates stay from the CVE file.
          existing.affected = draft.affected;
          existing.unaffected = draft.unaffected;
          existing.origin = 'retire.js';
          for (const alias of draft.aliases) if (alias !== existing.id) existing.aliases.add(alias);
          if (existing.refs.length === 0) existing.refs = draft.refs;
          note('retire.js ranges (with excludes) used for JavaScript CVE records', `${id} ${draft.id}`);
        } else if (existing.origin === 'retire.js') {
          note('retire.js entries for one id joined (one per branch)', `${id} ${draft.id}`);
          mergeInto(existing, draft);
        } else {
          note('CVE record kept with its own ranges although retire.js lists it too', `${id} ${draft.id} (${existing.origin})`);
          for (const alias of draft.aliases) if (alias !== existing.id) existing.aliases.add(alias);
        }
      }
    }
  }

  // 3. CISA KEV (authoritative for "exploited") and EPSS/CVSS for KEV CVEs.
  const kev = kevSchema.parse(JSON.parse(readInput('cisa-kev.json')));
  const kevById = new Map(kev.vulnerabilities.map((entry) => [entry.cveID, entry]));
  const [csvHeader, ...csvRows] = parseCsv(readInput('epss/kev-epss-cvss.csv'));
  if (csvHeader?.join(',') !== 'CVE,CVSS3,EPSS,EPSS Percentile,Description,Vendor,Product') throw new Error(`Unexpected EPSS header: ${csvHeader?.join(',')}`);
  const epssById = new Map(csvRows.map(([cve, cvss, epss, percentile]) => [cve!, { cvss: Number(cvss), epss: Number(epss), percentile: Number(percentile) }]));
  for (const product of products.values()) {
    for (const draft of product.vulnerabilities.values()) {
      const listed = kevById.get(draft.id);
      if (listed) {
        if (!draft.kev) note('Marked exploited from the KEV catalog (the record did not say)', `${product.id} ${draft.id}`);
        draft.kev = { added: listed.dateAdded, ransomware: listed.knownRansomwareCampaignUse === 'Known' };
      } else if (draft.kev) {
        note('KEV flag kept although the catalog shipped does not list the CVE', `${product.id} ${draft.id}`);
      }
      const scores = epssById.get(draft.id);
      if (scores && !draft.epss && Number.isFinite(scores.epss)) {
        draft.epss = { score: scores.epss, percentile: scores.percentile };
        note('EPSS added from kev-epss-cvss.csv', `${product.id} ${draft.id}`);
      }
      if (scores && !draft.cvss && Number.isFinite(scores.cvss) && scores.cvss > 0) {
        draft.cvss = { score: scores.cvss, version: '3.x' };
        draft.severity = bandOf(scores.cvss);
        draft.scoreSource = 'cvss';
        note('CVSS v3 score (no vector) added from kev-epss-cvss.csv', `${product.id} ${draft.id}`);
      }
    }
  }

  // 4. Products as stored: sorted, ranges de-duplicated, fix candidates and safe versions computed.
  const stored: StoredProduct[] = [];
  const aliasOwners = new Map<string, string>();
  for (const product of [...products.values()].sort((a, b) => (a.id < b.id ? -1 : 1))) {
    const claim = (name: string, required: boolean) => {
      const key = aliasKey(name);
      const owner = aliasOwners.get(key);
      if (!owner || owner === product.id) {
        aliasOwners.set(key, product.id);
        return true;
      }
      if (required) throw new Error(`Name "${name}" would resolve to both ${owner} and ${product.id}`);
      note('retire.js npm/bower name shared by several libraries kept for the first', `"${name}" → ${owner}, not ${product.id}`);
      return false;
    };
    for (const name of [product.id, product.name, ...(catalog[product.id]?.aliases ?? [])]) claim(name, true);
    const extraNames = [...product.names].sort().filter((name) => name !== product.id && name !== product.name && claim(name, false));
    const drafts = [...product.vulnerabilities.values()].sort((a, b) => naturalIdOrder(a.id, b.id));
    const scheme = versionSchemeOf(product.kind);
    const dedupe = (ranges: VersionRange[]) => {
      const seen = new Map(ranges.map((range) => [JSON.stringify(toStoredRange(range)), range]));
      return [...seen.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, range]) => range);
    };
    for (const draft of drafts) {
      draft.affected = dedupe(draft.affected);
      draft.unaffected = dedupe(draft.unaffected);
      draft.fixedIn = [...new Set(draft.fixedIn)].sort((a, b) => byVersion(a, b, scheme));
    }
    const candidates = fixCandidates(product.id, drafts, scheme);
    const options = { portableSuffix: product.portableSuffix };
    const prepare = prepareRangeFor(scheme);
    const prepared = drafts.map((draft) => ({ affected: draft.affected.map(prepare), unaffected: draft.unaffected.map(prepare) }));
    const safe = candidates.filter((version) => {
      const parsed = parseVersion(version, scheme)!;
      return !prepared.some((vulnerability) => isAffected(parsed, vulnerability.affected, vulnerability.unaffected, options));
    });
    stored.push({
      id: product.id,
      name: product.name,
      kind: product.kind,
      ...(extraNames.length ? { names: extraNames } : {}),
      ...(product.portableSuffix ? { portableSuffix: true } : {}),
      fixCandidates: candidates,
      safeVersions: safe,
      ...(product.endOfLife.length ? { endOfLife: product.endOfLife } : {}),
      vulnerabilities: drafts.map(storedVulnerability),
    });
  }
  return { stored, sourceCounts, kev, retireLibraries, csvRows: csvRows.length };
}

function storedVulnerability(draft: Draft): StoredVulnerability {
  return {
    id: draft.id,
    ...(draft.aliases.size ? { aliases: [...draft.aliases].sort() } : {}),
    summary: draft.summary,
    ...(draft.published ? { published: draft.published } : {}),
    ...(draft.cvss ? { cvss: [draft.cvss.score, draft.cvss.vector ?? null, draft.cvss.version] as [number, string | null, string] } : {}),
    severity: draft.severity,
    scoreSource: draft.scoreSource,
    ...(draft.kev ? { kev: [draft.kev.added, draft.kev.ransomware] as [string, boolean] } : {}),
    ...(draft.epss ? { epss: [draft.epss.score, draft.epss.percentile] as [number, number] } : {}),
    affected: draft.affected.map(toStoredRange),
    ...(draft.unaffected.length ? { unaffected: draft.unaffected.map(toStoredRange) } : {}),
    ...(draft.fixedIn.length ? { fixedIn: draft.fixedIn } : {}),
    ...(draft.refs.length ? { refs: draft.refs } : {}),
  };
}

/** JSON with one vulnerability per line: small diffs when the data changes, still one JSON document. */
function serialise(knowledgeBase: StoredKnowledgeBase): string {
  const products = knowledgeBase.products.map((product) => {
    const { vulnerabilities, ...header } = product;
    const head = JSON.stringify(header).slice(0, -1);
    const body = vulnerabilities.map((vulnerability) => `  ${JSON.stringify(vulnerability)}`).join(',\n');
    return `${head},"vulnerabilities":[\n${body}\n]}`;
  });
  return `{"format":${knowledgeBase.format},"products":[\n${products.join(',\n')}\n]}\n`;
}

// ---------------------------------------------------------------------------------------------
// PROVENANCE.md
// ---------------------------------------------------------------------------------------------

function sourceCommits(): string[] {
  try {
    const readme = readFileSync(join(source, 'README.md'), 'utf8');
    return readme
      .split('\n')
      .filter((line) => /^\| [^|]+ \| [^|]*[0-9a-f]{40}/.test(line))
      .map((line) => {
        const [name, commit, license] = line.split('|').slice(1, 4).map((cell) => cell.trim());
        return `| ${name} | ${commit} | ${license} |`;
      });
  } catch {
    return [];
  }
}

interface ProvenanceInput {
  stored: StoredProduct[];
  sourceCounts: Map<string, number>;
  kev: z.infer<typeof kevSchema>;
  retireLibraries: number;
  csvRows: number;
  bytes: number;
}

function provenance({ stored, sourceCounts, kev, retireLibraries, csvRows, bytes }: ProvenanceInput): string {
  const count = (product: StoredProduct, test: (vulnerability: StoredVulnerability) => boolean) => product.vulnerabilities.filter(test).length;
  const rows = stored.map((product) => ({
    id: product.id,
    name: product.name,
    source: sourceCounts.has(product.id) ? `cves (${sourceCounts.get(product.id)})${product.kind === 'javascript-library' ? ' + retire.js' : ''}` : 'retire.js',
    records: product.vulnerabilities.length,
    ranged: count(product, (v) => v.affected.length > 0),
    cvss: count(product, (v) => v.scoreSource === 'cvss'),
    vendor: count(product, (v) => v.scoreSource === 'vendor-severity'),
    v2: count(product, (v) => v.scoreSource === 'cvss-v2-severity'),
    none: count(product, (v) => v.scoreSource === 'none'),
    kev: count(product, (v) => v.kev !== undefined),
    epss: count(product, (v) => v.epss !== undefined),
    eol: product.endOfLife?.length ?? 0,
    safe: product.safeVersions.at(-1) ?? '—',
  }));
  const total = (key: 'records' | 'ranged' | 'cvss' | 'vendor' | 'v2' | 'none' | 'kev' | 'epss' | 'eol') => rows.reduce((sum, row) => sum + row[key], 0);
  const table = rows.map(
    (r) => `| ${r.id} | ${r.name} | ${r.source} | ${r.records} | ${r.ranged} | ${r.records - r.ranged} | ${r.cvss} | ${r.vendor} | ${r.v2} | ${r.none} | ${r.kev} | ${r.epss} | ${r.eol} |`,
  );
  const cveFiles = sourceCounts.size;
  const changeList = [...changes.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([kind, items]) => {
      const list = [...items].sort();
      const shown = list.length > 12 ? [...list.slice(0, 12), `… and ${list.length - 12} more`] : list;
      return `- **${kind}** (${items.size}): ${shown.join('; ')}`;
    });
  const unranged = stored.flatMap((product) => product.vulnerabilities.filter((v) => v.affected.length === 0).map((v) => `${product.id} ${v.id}${v.kev ? ' (KEV)' : ''}`));
  const hashes = [...inputHashes.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([path, hash]) => `| ${path} | \`${hash}\` |`);
  return `# Vulnerability knowledge base: provenance

Generated by \`npm run build:vulndb\` (bin/build-vulndb.ts) from the offline data in \`shared/data/vulndb\`.
Do not edit: rebuild. The scanner reads only \`vulndb.json\` (bundled), never the shared data.

## Output

| file | bytes | what |
|---|---|---|
| vulndb.json | ${bytes} | ${stored.length} products, ${total('records')} vulnerabilities, one per line |

## Sources

- \`cves/*.jsonl\`: ${cveFiles} product files, ${[...sourceCounts.values()].reduce((a, b) => a + b, 0)} records (normalised CVE records: version ranges, CVSS, vendor rating, KEV, EPSS; see the shared README).
- \`cisa-kev.json\`: CISA KEV catalog version ${kev.catalogVersion} (released ${kev.dateReleased}), ${kev.vulnerabilities.length} entries. Every record is marked exploited from it.
- \`epss/kev-epss-cvss.csv\`: ${csvRows} KEV CVEs with NVD CVSS v3 score and FIRST EPSS score and percentile.
- \`retirejs/jsrepository-master.json\`: ${retireLibraries} JavaScript libraries. The master format is used, not v5: it keeps
  each vulnerability's ranges together and its \`excludes\`, so a CVE with two ranges stays one record.

Commits and licenses, as the shared README states them:

| source | commit (snapshot date) | license / terms |
|---|---|---|
${sourceCommits().join('\n')}

Input files (SHA-256):

| file | sha256 |
|---|---|
${hashes.join('\n')}

## How each record's score was chosen

- **CVSS v3** (\`scoreSource: "cvss"\`) where the CVE file has a v3.x score (CNA, CISA ADP, Oracle's text, NVD);
  else the NVD v3 score from kev-epss-cvss.csv (KEV CVEs; no vector, version "3.x"). Severity is the CVSS band:
  ≥ 9.0 critical, ≥ 7.0 high, ≥ 4.0 medium, else low.
- **Vendor severity** (\`"vendor-severity"\`) where there is no CVSS v3 score: the vendor's rating as the CVE
  file maps it (Apache important → high, OpenSSL moderate → medium, Drupal "highly critical" → critical,
  nginx major → high), and retire.js's own rating for JavaScript libraries.
- **CVSS v2 severity** (\`"cvss-v2-severity"\`): five records where NVD has only a v2 score.
- **None** (\`"none"\`, severity \`unknown\`): no score and no rating in any source (most PHP ChangeLog records,
  OpenSSL "unknown"). The finding counts them and takes its severity from the rated ones.

## Counts per product

Columns: records; matched by version (with ranges); without version data (listed, never matched);
score source (CVSS v3 / vendor severity / CVSS v2 severity / none); in KEV; with EPSS; end-of-life notices.

| id | name | source | records | with ranges | no ranges | cvss | vendor | cvss-v2 | none | kev | epss | eol |
|---|---|---|---|---|---|---|---|---|---|---|---|---|
${table.join('\n')}
| **total** | | | ${total('records')} | ${total('ranged')} | ${total('records') - total('ranged')} | ${total('cvss')} | ${total('vendor')} | ${total('v2')} | ${total('none')} | ${total('kev')} | ${total('epss')} | ${total('eol')} |

## Fixed version ("upgrade to ≥ X")

The candidates are the versions the product's data names as ends of ranges, exact versions and vendor
fixed releases (nginx's "not vulnerable 1.22.1+", PHP's ChangeLog release) — never a range's start, which
is where a flaw came in — plus, for an inclusive end
(\`<= 2.4.48\`), the predicted next release (2.4.49; OpenSSL letters step 1.0.2k → 1.0.2l). A predicted release
is used only where that line is alive: the data shows it went on past the end, a CVE from the product's
last two CVE years names it, or it is the product's newest line. This keeps an end-of-life line (Apache
2.2.34, MySQL 5.7.44) from advising a release that never came. IIS and Exchange get no predicted releases
(IIS versions follow Windows; Exchange builds are per cumulative update).
Pre-releases are never advice. \`safeVersions\` are the candidates no vulnerability of the product affects.
For a detected version the matcher advises the lowest safe version above it; when there is none, the
lowest candidate above it that none of the matched vulnerabilities affects (and says so). Explicit
fixed data wins where it exists because it is among the candidates and is usually the lowest one.

## Normalisations made

${changeList.join('\n')}

## Records without version data (${unranged.length})

Kept so a report can say they exist; they are never matched to a version:
${unranged.join(', ')}.

## Gaps

- EPSS exists only for KEV CVEs; CVSS is missing for many older and PHP/OpenSSL records (see counts).
- Products with a handful of hand-picked CVEs (Postfix, vsftpd, Pure-FTPd, ProFTPD, IIS) and short
  windows (WordPress core and Joomla from 2022, PostgreSQL from 2023, Dovecot from 2024): "no CVE found"
  there means "none in this data", not "none exist".
- Many KEV CVEs for Exchange (17, including ProxyLogon and ProxyShell), Exim (5), Tomcat (4, including
  Ghostcat), PHP (CVE-2012-1823), Redis (CVE-2022-0543) and Drupal (CVE-2026-9082) have no version ranges
  in the data (listed above): they are never matched to a version; a finding names them as unchecked.
- PHP ranges list only the branches that got a fix, so a version of an end-of-life PHP branch can look
  clean; Apache httpd ranges are min–max per branch built from version lists.
- Oracle's MySQL records sometimes give one "up to X" for a newer line only (CVE-2024-21176: up to 8.4.0),
  which as written also covers every older line; only the clear per-line lists were split. MySQL advice is
  therefore conservative (the lowest version the data shows clean is 9.7.2).
- retire.js starts CVE-2020-11022 (jQuery) at 1.12.0 where NVD says 1.2; the retire.js range is used.
- nginx "not vulnerable" branches end at the next minor line (1.22.1+ → up to 1.23.0): the advisory data
  does not say more, and the next line has its own fixed release in the same list.
- CVE-2023-48795 (Terrapin, OpenSSH) is not in the data.
`;
}

// ---------------------------------------------------------------------------------------------
// js-libraries.json: retire.js extractors for the software check (JS-PROVENANCE.md says what was kept).
// ---------------------------------------------------------------------------------------------

/** What retire.js puts for `§§version§§` (repo.js `replaceVersion`): a digit, then digits, dots, letters, `_` or `-`. */
const RETIRE_VERSION_PATTERN = '[0-9][0-9.a-z_\\-]+';

const retireExtractorsSchema = z.object({
  uri: z.array(z.string()).optional(),
  filename: z.array(z.string()).optional(),
  filecontent: z.array(z.string()).optional(),
  filecontentreplace: z.array(z.string()).optional(),
  func: z.array(z.string()).optional(),
  hashes: z.record(z.string(), z.string()).optional(),
});

/** One library's extractors as the scanner reads them: ready-to-compile patterns, `§§version§§` substituted. */
interface JsLibraryExtractors {
  product: string;
  name: string;
  filename?: string[];
  uri?: string[];
  filecontent?: string[];
  /** retire.js `/pattern/replacement/`: the version is the match with `$n` groups put into the replacement. */
  filecontentreplace?: { pattern: string; replacement: string }[];
}

/**
 * The retire.js filename, URI and file-content extractors of every JavaScript library the knowledge
 * base holds. `func` (needs a browser) and `hashes` (needs whole files; the check reads only a file's
 * head) are left out. Every pattern is compiled here, so a pattern Node cannot run fails the build.
 */
function buildJsLibraries(stored: readonly StoredProduct[]) {
  const text = readFileSync(join(source, 'retirejs/jsrepository-master.json'), 'utf8');
  const repository = z.record(z.string(), z.unknown()).parse(JSON.parse(text));
  const products = new Map(stored.filter((product) => product.kind === 'javascript-library').map((product) => [product.id, product]));
  const substitute = (pattern: string) => {
    const ready = pattern.replaceAll('§§version§§', RETIRE_VERSION_PATTERN);
    new RegExp(ready); // throws on a pattern Node's engine cannot compile
    return ready;
  };
  const libraries: JsLibraryExtractors[] = [];
  const left = { func: 0, hashes: 0, withoutProduct: [] as string[] };
  for (const [library, raw] of Object.entries(repository).sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (library === 'retire-example' || library === 'dont check') continue;
    const product = products.get(retireProductId(library));
    if (!product) {
      left.withoutProduct.push(library);
      continue;
    }
    const extractors = retireExtractorsSchema.parse((raw as { extractors?: unknown }).extractors ?? {});
    left.func += extractors.func?.length ?? 0;
    left.hashes += Object.keys(extractors.hashes ?? {}).length;
    const replace = (extractors.filecontentreplace ?? []).map((entry) => {
      const parts = /^\/(.*[^\\])\/([^/]+)\/$/.exec(entry);
      if (!parts) throw new Error(`retire.js ${library}: filecontentreplace "${entry}" is not /pattern/replacement/`);
      return { pattern: substitute(parts[1]!), replacement: parts[2]! };
    });
    const entry: JsLibraryExtractors = {
      product: product.id,
      name: product.name,
      ...(extractors.filename?.length ? { filename: extractors.filename.map(substitute) } : {}),
      ...(extractors.uri?.length ? { uri: extractors.uri.map(substitute) } : {}),
      ...(extractors.filecontent?.length ? { filecontent: extractors.filecontent.map(substitute) } : {}),
      ...(replace.length ? { filecontentreplace: replace } : {}),
    };
    if (entry.filename || entry.uri || entry.filecontent || entry.filecontentreplace) libraries.push(entry);
  }
  const sha256 = createHash('sha256').update(text).digest('hex');
  const json = `{"source":"retirejs/jsrepository-master.json","sha256":"${sha256}","versionPattern":${JSON.stringify(RETIRE_VERSION_PATTERN)},"libraries":[\n${libraries
    .map((library) => `  ${JSON.stringify(library)}`)
    .join(',\n')}\n]}\n`;
  writeFileSync(join(out, 'js-libraries.json'), json);
  const count = (key: 'filename' | 'uri' | 'filecontent' | 'filecontentreplace') => libraries.reduce((sum, library) => sum + (library[key]?.length ?? 0), 0);
  const retireCommit = sourceCommits().find((row) => row.includes('RetireJS/retire.js')) ?? '| RetireJS/retire.js | (commit not found in the shared README) | Apache-2.0 |';
  writeFileSync(
    join(out, 'JS-PROVENANCE.md'),
    `# JavaScript library fingerprints: provenance

Generated by \`npm run build:vulndb\` (\`buildJsLibraries\` in bin/build-vulndb.ts). Do not edit: rebuild.
The software check reads only \`js-libraries.json\` (bundled), never the shared data.

| file | bytes | what |
|---|---|---|
| js-libraries.json | ${Buffer.byteLength(json)} | ${libraries.length} libraries: ${count('filename')} file-name, ${count('uri')} URI, ${count('filecontent')} file-content and ${count('filecontentreplace')} file-content-replace patterns |

## Source

| source | commit (snapshot date) | license / terms |
|---|---|---|
${retireCommit}

Input: \`retirejs/jsrepository-master.json\`, sha256 \`${sha256}\`.

## What was kept

- For every library of the knowledge base (vulndb.json, kind javascript-library), retire.js's own
  \`filename\`, \`uri\`, \`filecontent\` and \`filecontentreplace\` extractors, unchanged except that
  \`§§version§§\` is replaced by retire.js's own version pattern \`${RETIRE_VERSION_PATTERN}\` (as retire.js's
  \`replaceVersion\` does), and \`filecontentreplace\`'s \`/pattern/replacement/\` is split in two.
- Left out: ${left.func} \`func\` extractors (they read a variable in a running page; the scanner runs no
  JavaScript) and ${left.hashes} file hashes (the scanner reads only the head of a script file).
  Libraries without any kept extractor are left out.${left.withoutProduct.length ? ` Libraries not in the knowledge base: ${left.withoutProduct.join(', ')}.` : ''}
- The scanner applies them as retire.js does: file-name patterns to the file name, URI patterns to the
  whole URL, file-content patterns to the file's text; a trailing \`.min\`/\`-min\` is dropped from a version.
`,
  );
  return { libraries: libraries.length, bytes: Buffer.byteLength(json) };
}

const topPorts = buildTopPorts();
const { stored, sourceCounts, kev, retireLibraries, csvRows } = buildVulndb();
const json = serialise({ format: 1, products: stored });
writeFileSync(join(out, 'vulndb.json'), json);
const bytes = Buffer.byteLength(json);
writeFileSync(join(out, 'PROVENANCE.md'), provenance({ stored, sourceCounts, kev, retireLibraries, csvRows, bytes }));
const jsLibraries = buildJsLibraries(stored);
const hstsPreload = buildHstsPreload(hstsSource, out);
const wordpressVulns = buildWordPressVulns(source, out);
const endOfLife = buildEndOfLife(eolSource, out);
const takeover = buildTakeoverFingerprints(takeoverSource, out);
const dkimSelectors = buildDkimSelectors(dkimSource, out);

const counts = {
  topPorts,
  products: stored.length,
  vulnerabilities: stored.reduce((sum, product) => sum + product.vulnerabilities.length, 0),
  vulndbBytes: bytes,
  jsLibraries: jsLibraries.libraries,
  jsLibrariesBytes: jsLibraries.bytes,
  hstsPreloadNames: hstsPreload.names,
  hstsPreloadBytes: hstsPreload.bytes,
  wordpressPluginRecords: wordpressVulns.plugins.records,
  wordpressThemeRecords: wordpressVulns.themes.records,
  wordpressVulnsBytes: wordpressVulns.bytes,
  endOfLifeCycles: endOfLife.cycles,
  endOfLifeBytes: endOfLife.bytes,
  takeoverServices: takeover.services,
  takeoverBytes: takeover.bytes,
  dkimSelectors: dkimSelectors.selectors,
  dkimSelectorsBytes: dkimSelectors.bytes,
  ms: Math.round(performance.now() - started),
};
console.log(`Knowledge base written to ${relative(process.cwd(), out) || '.'}:`, counts);
