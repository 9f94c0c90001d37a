/**
 * The typed loader of the committed knowledge base (`lambdas/scanner/data/vulndb.json`, written by
 * `npm run build:vulndb`). The JSON is imported statically so esbuild bundles it with the scanner:
 * nothing is read from disk at run time. Products are expanded and their ranges parsed on first use.
 */
import { createHash } from 'node:crypto';
import data from '../data/vulndb.json' with { type: 'json' };
import { aliasKey, PRODUCT_CATALOG, versionSchemeOf } from './products.js';
import { type PreparedRange, prepareRangeFor, type RangeOptions, toVersionRange } from './range.js';
import type {
  EndOfLifeNotice,
  ProductInfo,
  ProductKind,
  StoredKnowledgeBase,
  StoredProduct,
  StoredVulnerability,
  UnrangedVulnerability,
  Vulnerability,
  VulnSeverity,
} from './types.js';
import { mustParseVersion, type ParsedVersion, type VersionScheme } from './version.js';

/** A vulnerability with its ranges parsed once. */
export interface PreparedVulnerability {
  readonly vulnerability: Vulnerability;
  /** What a match reports (the vulnerability without its ranges). */
  readonly reported: Readonly<Omit<Vulnerability, 'affected' | 'unaffected' | 'fixedIn'>>;
  /** Report order, ascending: [not exploited, −score, −EPSS, −CVE year, −CVE number, id]. */
  readonly sortKey: readonly [number, number, number, number, number, string];
  readonly affected: readonly PreparedRange[];
  readonly unaffected: readonly PreparedRange[];
}

/** A known version that can be upgrade advice. */
export interface VersionPoint {
  readonly text: string;
  readonly parsed: ParsedVersion;
}

/** One product, ready for matching. */
export interface ProductData {
  readonly info: ProductInfo;
  /** How its versions order: every version matched against it must be parsed by this scheme. */
  readonly scheme: VersionScheme;
  readonly options: RangeOptions;
  readonly vulnerabilities: readonly PreparedVulnerability[];
  /** Sorted ascending. */
  readonly fixCandidates: readonly VersionPoint[];
  /** Sorted ascending: candidates no vulnerability of the product affects. */
  readonly safeVersions: readonly VersionPoint[];
  readonly endOfLife: readonly { range: PreparedRange; notice: EndOfLifeNotice }[];
  /** The vulnerabilities without version data. */
  readonly unranged: readonly UnrangedVulnerability[];
}

/** Where a vulnerability without a CVSS score ranks: the lower end of its rating's CVSS band. */
const BAND_FLOOR: Record<VulnSeverity, number> = { critical: 9, high: 7, medium: 4, low: 0.1, unknown: 0 };

/** The score a vulnerability ranks by: its CVSS score, else the floor of its rating's band. */
export function rankScore(vulnerability: Pick<Vulnerability, 'cvssScore' | 'severity'>): number {
  return vulnerability.cvssScore ?? BAND_FLOOR[vulnerability.severity];
}

function sortKeyOf(vulnerability: Vulnerability): PreparedVulnerability['sortKey'] {
  const cve = /^CVE-(\d+)-(\d+)$/.exec(vulnerability.id);
  return [
    vulnerability.exploited ? 0 : 1,
    -rankScore(vulnerability),
    -(vulnerability.epss ?? -1),
    cve ? -Number(cve[1]) : 0,
    cve ? -Number(cve[2]) : 0,
    vulnerability.id,
  ];
}

const knowledgeBase = data as unknown as StoredKnowledgeBase;
if (knowledgeBase.format !== 1) throw new Error(`vulndb.json format ${String(knowledgeBase.format)} is not supported; rebuild with npm run build:vulndb`);

let fingerprint: string | undefined;

/**
 * SHA-256 of the bundled knowledge base: it changes exactly when `npm run build:vulndb` changed the
 * data, so monitoring can tell a new knowledge base (KEV entries without a rescan, issue 8).
 */
export function knowledgeBaseFingerprint(): string {
  return (fingerprint ??= createHash('sha256').update(JSON.stringify(knowledgeBase)).digest('hex'));
}

const storedById = new Map<string, StoredProduct>(knowledgeBase.products.map((product) => [product.id, product]));
const catalog: Record<string, { aliases: readonly string[] }> = PRODUCT_CATALOG;

function aliasesOf(product: StoredProduct): string[] {
  return [...new Set([product.id, product.name, ...(catalog[product.id]?.aliases ?? []), ...(product.names ?? [])])];
}

const idByAlias = new Map<string, string>();
for (const product of knowledgeBase.products) for (const alias of aliasesOf(product)) idByAlias.set(aliasKey(alias), product.id);

function expand(stored: StoredVulnerability): Vulnerability {
  return {
    id: stored.id,
    aliases: stored.aliases ?? [],
    summary: stored.summary,
    ...(stored.published ? { published: stored.published } : {}),
    ...(stored.cvss
      ? { cvssScore: stored.cvss[0], ...(stored.cvss[1] ? { cvssVector: stored.cvss[1] } : {}), cvssVersion: stored.cvss[2] }
      : {}),
    severity: stored.severity,
    scoreSource: stored.scoreSource,
    exploited: stored.kev !== undefined,
    ...(stored.kev ? { kevDateAdded: stored.kev[0], ransomware: stored.kev[1] } : {}),
    ...(stored.epss ? { epss: stored.epss[0], epssPercentile: stored.epss[1] } : {}),
    affected: stored.affected.map(toVersionRange),
    unaffected: (stored.unaffected ?? []).map(toVersionRange),
    fixedIn: stored.fixedIn ?? [],
    references: stored.refs ?? [],
  };
}

function infoOf(product: StoredProduct): ProductInfo {
  return { id: product.id, name: product.name, kind: product.kind as ProductKind, aliases: aliasesOf(product), vulnerabilities: product.vulnerabilities.length };
}

const prepared = new Map<string, ProductData>();

/** The product's data, expanded on first use; undefined for an id the knowledge base does not have. */
export function productData(id: string): ProductData | undefined {
  const cached = prepared.get(id);
  if (cached) return cached;
  const stored = storedById.get(id);
  if (!stored) return undefined;
  const scheme = versionSchemeOf(stored.kind as ProductKind);
  const point = (text: string): VersionPoint => ({ text, parsed: mustParseVersion(text, scheme) });
  const prepare = prepareRangeFor(scheme);
  const vulnerabilities = stored.vulnerabilities.map(expand);
  const product: ProductData = {
    info: infoOf(stored),
    scheme,
    options: stored.portableSuffix ? { portableSuffix: true } : {},
    vulnerabilities: vulnerabilities.map((vulnerability) => {
      const { affected, unaffected, fixedIn: _fixedIn, ...reported } = vulnerability;
      return { vulnerability, reported, sortKey: sortKeyOf(vulnerability), affected: affected.map(prepare), unaffected: unaffected.map(prepare) };
    }),
    fixCandidates: stored.fixCandidates.map(point),
    safeVersions: stored.safeVersions.map(point),
    endOfLife: (stored.endOfLife ?? []).map((entry) => ({
      range: prepare(toVersionRange(entry.range)),
      notice: { summary: entry.summary, severity: entry.severity },
    })),
    unranged: vulnerabilities
      .filter((v) => v.affected.length === 0)
      .map((v) => ({ id: v.id, summary: v.summary, severity: v.severity, ...(v.cvssScore !== undefined ? { cvssScore: v.cvssScore } : {}), exploited: v.exploited })),
  };
  prepared.set(id, product);
  return product;
}

/** The product id for a name as banners and fingerprints write it ("Apache", "Microsoft-IIS", "angular.js"). */
export function resolveProduct(name: string): string | undefined {
  return idByAlias.get(aliasKey(name));
}

/** Every product in the knowledge base, by id. */
export function knownProducts(): ProductInfo[] {
  return knowledgeBase.products.map(infoOf);
}
