/**
 * WordPress plugins and themes with a version, matched to their known vulnerabilities (Wordfence
 * Intelligence, lambdas/scanner/vulndb/wordpress.ts): one finding per plugin or theme and version,
 * known exploited first, with the fixed version as advice and a link to each CVE's Wordfence record.
 *
 * Where the versions come from (DECISIONS "Scan modes"): in every scan, what the page itself loads
 * (`/wp-content/plugins/<slug>/…?ver=x` on the site's own hosts); in an active scan the WordPress
 * check's reading as well, which adds each plugin's readme.txt Stable tag and the theme's style.css
 * Version, and wins where both name a version.
 */
import { getDomain } from 'tldts';
import type { CveDetail, Finding, Severity } from '../../../domain/audit.js';
import { cveDetail, findingSeverity, type VulnerabilityFindingData } from '../../vulndb/index.js';
import {
  matchWordPressComponent,
  type MatchedWordPressVulnerability,
  WORDFENCE_ATTRIBUTION,
  type WordPressComponentKind,
  type WordPressVulnLookup,
} from '../../vulndb/wordpress.js';
import { sameSite } from '../exposure/site.js';
import { wordpressAssets } from '../wordpress/assets.js';
import { seenPlugins, seenThemes } from '../wordpress/plugins.js';
import { chooseVersion, coreAssetVersion, generatorVersion, type VersionSource } from '../wordpress/version.js';
import type { Confidence, Technology } from './types.js';

/** Where a plugin's or theme's version was read. */
export type ComponentVersionSource = 'readme.txt' | 'style.css' | 'asset-ver' | 'none';

/** A plugin or theme the site runs, as far as it was seen. */
export interface WordPressComponent {
  kind: WordPressComponentKind;
  /** The folder name under wp-content/plugins or wp-content/themes, as written. */
  slug: string;
  /** Its own name (readme.txt `=== Name ===`, style.css `Theme Name:`), when one was read. */
  name?: string;
  version: string | null;
  versionSource: ComponentVersionSource;
  /** Where it was seen, for the finding's evidence. */
  seenIn: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

/** The plugins and themes whose assets the page loads from the site's own hosts, with their `?ver=` (passive evidence). */
export function pageComponents(pageUrl: string, html: string): WordPressComponent[] {
  const host = new URL(pageUrl).hostname;
  const domain = getDomain(host) ?? undefined;
  const assets = wordpressAssets(html, pageUrl).filter((asset) => sameSite(asset.url.hostname, host, domain));
  if (!assets.some((asset) => asset.area === 'wp-content')) return [];
  // `?ver=` equal to the core release is WordPress's own stamp, not the plugin's.
  const core = chooseVersion([generatorVersion(html), coreAssetVersion(assets)].filter((source): source is VersionSource => source !== null)).version;
  const where = `asset URLs on ${pageUrl}`;
  return [
    ...seenPlugins(assets, core).map((seen): WordPressComponent => ({ kind: 'plugin', slug: seen.slug, version: seen.assetVersion ?? null, versionSource: seen.assetVersion ? 'asset-ver' : 'none', seenIn: where })),
    ...seenThemes(assets, core).map((seen): WordPressComponent => ({ kind: 'theme', slug: seen.slug, version: seen.assetVersion ?? null, versionSource: seen.assetVersion ? 'asset-ver' : 'none', seenIn: where })),
  ];
}

const SOURCES: ReadonlySet<string> = new Set<ComponentVersionSource>(['readme.txt', 'style.css', 'asset-ver', 'none']);

/** The plugins and themes in the WordPress check's data (`plugins` / `themes`: [{slug, version, source, name?}]). */
export function wordpressCheckComponents(data: unknown): WordPressComponent[] {
  if (!isRecord(data)) return [];
  const read = (entries: unknown, kind: WordPressComponentKind): WordPressComponent[] =>
    (Array.isArray(entries) ? entries : []).filter(isRecord).flatMap((entry): WordPressComponent[] => {
      const slug = text(entry.slug);
      if (!slug) return [];
      const version = text(entry.version) ?? null;
      const stated = text(entry.source);
      const versionSource: ComponentVersionSource = !version ? 'none' : stated && SOURCES.has(stated) ? (stated as ComponentVersionSource) : 'asset-ver';
      const name = text(entry.name);
      return [{ kind, slug, ...(name ? { name } : {}), version, versionSource, seenIn: 'the WordPress check' }];
    });
  return [...read(data.plugins, 'plugin'), ...read(data.themes, 'theme')];
}

/** One entry per plugin or theme: the WordPress check's reading first (readme.txt, style.css), the page's `?ver=` where it has none. */
export function mergeComponents(...lists: readonly (readonly WordPressComponent[])[]): WordPressComponent[] {
  const merged = new Map<string, WordPressComponent>();
  for (const component of lists.flat()) {
    const key = `${component.kind}\u0000${component.slug}`;
    const known = merged.get(key);
    if (!known) merged.set(key, component);
    else if (!known.version && component.version) merged.set(key, { ...component, ...(known.name ? { name: known.name } : {}) });
  }
  return [...merged.values()];
}

/** The finding id of a plugin's or theme's vulnerabilities: `cve.wordpress-plugin.<slug>`, stable across scans. */
export function componentFindingId(kind: WordPressComponentKind, slug: string): string {
  return `cve.wordpress-${kind}.${slug.toLowerCase().replace(/[^a-z0-9._-]+/g, '-')}`;
}

function label(component: WordPressComponent): string {
  const what = component.kind === 'plugin' ? 'WordPress plugin' : 'WordPress theme';
  return component.name && component.name !== component.slug ? `${what} ${component.name} (${component.slug})` : `${what} ${component.slug}`;
}

const HOW_READ: Record<ComponentVersionSource, string> = {
  'readme.txt': 'the Stable tag of its readme.txt',
  'style.css': 'the Version in its style.css',
  'asset-ver': 'the ?ver= on its asset URLs',
  none: '',
};

/** How sure the version is: the component's own files say it; a `?ver=` is usually the version but can be a cache buster. */
export function componentConfidence(source: ComponentVersionSource): Confidence {
  return source === 'readme.txt' || source === 'style.css' ? 'high' : 'medium';
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

function scoreText(v: MatchedWordPressVulnerability): string {
  const parts = [v.cvssScore !== undefined ? `CVSS ${v.cvssScore.toFixed(1)}` : 'not rated'];
  if (v.exploited) parts.push(`exploited in the wild, CISA KEV since ${v.kevDateAdded}`);
  return parts.join(', ');
}

/** A CVE's detail for the report, with its Wordfence record link(s) (the licence asks for one wherever a record is shown). */
export function componentCveDetail(v: MatchedWordPressVulnerability): CveDetail {
  return { ...cveDetail(v), references: v.references };
}

/** The findings, their data (VulnerabilityFindingData, like the knowledge base's products) and the technologies annotated. */
export interface ComponentOutcome {
  findings: Finding[];
  vulnerabilities: (VulnerabilityFindingData & { versionConfidence: Confidence; kind: WordPressComponentKind; slug: string; versionSource: ComponentVersionSource; fixedAfter?: string })[];
}

/** One finding per plugin or theme whose version matches known vulnerabilities. */
export function componentFindings(components: readonly WordPressComponent[], lookup: WordPressVulnLookup): ComponentOutcome {
  const findings: Finding[] = [];
  const vulnerabilities: ComponentOutcome['vulnerabilities'] = [];
  for (const component of components) {
    if (!component.version) continue;
    const match = matchWordPressComponent(lookup, component.kind, component.slug, component.version);
    const matched = match.vulnerabilities;
    if (matched.length === 0) continue;
    const name = label(component);
    const id = componentFindingId(component.kind, component.slug);
    const exploited = matched.filter((v) => v.exploited);
    const count = plural(matched.length, 'known vulnerability', 'known vulnerabilities');
    const exploitedNote = exploited.length ? ` (${exploited.length} exploited in the wild)` : '';
    const confidence = componentConfidence(component.versionSource);
    const top = matched.slice(0, 5).map((v) => `${v.id} (${scoreText(v)}): ${v.summary}`);
    const more = matched.length > 5 ? ` And ${matched.length - 5} more.` : '';
    const caution =
      confidence === 'medium'
        ? ` The version was read from ${HOW_READ[component.versionSource]}, not from the ${component.kind}'s own files: confirm it in the WordPress admin (${component.kind === 'plugin' ? 'Plugins' : 'Appearance → Themes'}) before acting on this.`
        : '';
    const description =
      `${name} ${component.version} matches ${count} in the Wordfence Intelligence data${exploited.length ? `, ${exploited.length} of them known to be exploited in the wild (CISA KEV)` : ''}. ` +
      `Most serious: ${top.join('; ')}.${more} Outdated plugins and themes are how most WordPress sites are broken into.${caution} ${WORDFENCE_ATTRIBUTION}`;

    const where = component.kind === 'plugin' ? 'Plugins → Installed Plugins' : 'Appearance → Themes';
    const subject = component.name ?? component.slug;
    const fix = match.fixedVersion
      ? `Update ${subject} to ${match.fixedVersion} or later (${where} in the WordPress admin).`
      : match.fixedAfter
        ? `Update ${subject} to a release later than ${match.fixedAfter} (${where} in the WordPress admin): the data does not name the first fixed release, each CVE's Wordfence record does.`
        : `No fixed release of ${subject} is known for ${matched.length === 1 ? 'this' : 'all of these'}: deactivate and remove it, or replace it with a maintained alternative.`;
    const later = (match.fixedVersion || match.fixedAfter) && match.laterAdvisories ? ' Later advisories affect that release too: install the newest release, not just the first fixed one.' : '';
    const kev = exploited.length
      ? ` ${exploited.length === 1 ? `${exploited[0]!.id} is` : `${exploited.length} of these are`} being exploited in the wild (CISA KEV): update now and check the site for signs of compromise (unknown admin users, changed files).`
      : '';
    const cvss = matched.map((v) => v.cvssScore).filter((score): score is number => score !== undefined);
    const severity: Severity = findingSeverity(matched, 'version-match');
    findings.push({
      id,
      check: 'software',
      title: `${name} ${component.version} has ${count}${exploitedNote}`,
      severity,
      category: 'Vulnerabilities',
      evidence: `${component.slug} ${component.version}${component.versionSource !== 'none' ? ` from ${HOW_READ[component.versionSource]}` : ''} (seen in ${component.seenIn})`,
      description,
      recommendation: `${fix}${later}${kev}`,
      ...(cvss.length ? { cvssScore: Math.max(...cvss) } : {}),
      cves: matched.map((v) => v.id),
      cveDetails: matched.map(componentCveDetail),
    });
    vulnerabilities.push({
      findingId: id,
      product: `wordpress-${component.kind}:${component.slug}`,
      productName: name,
      version: component.version,
      confidence: 'version-match',
      ...(match.fixedVersion ? { fixedVersion: match.fixedVersion, fixedVersionScope: match.laterAdvisories ? ('matched-only' as const) : ('all-known' as const) } : {}),
      ...(match.fixedAfter ? { fixedAfter: match.fixedAfter } : {}),
      exploited: exploited.length,
      unranged: [],
      versionConfidence: confidence,
      kind: component.kind,
      slug: component.slug,
      versionSource: component.versionSource,
    });
  }
  return { findings, vulnerabilities };
}

/** The technologies with the plugins and themes that were matched marked (knownVulnerabilities, findingId); the page's own readings added. */
export function annotateComponents(technologies: readonly Technology[], components: readonly WordPressComponent[], outcome: ComponentOutcome): Technology[] {
  const result = technologies.map((t) => ({ ...t }));
  for (const component of components) {
    const name = `WordPress ${component.kind} ${component.slug}`;
    let technology = result.find((t) => t.name === name && (t.version ?? null) === component.version);
    if (!technology) {
      technology = {
        name,
        category: 'cms',
        ...(component.version ? { version: component.version } : {}),
        confidence: componentConfidence(component.versionSource),
        source: component.versionSource === 'asset-ver' ? 'asset-version' : 'wordpress-check',
        evidence: [`${component.seenIn}: ${component.slug}${component.version ? ` ${component.version}` : ''}`],
        seenIn: [component.seenIn],
      };
      result.push(technology);
    }
    const found = outcome.vulnerabilities.find((v) => v.kind === component.kind && v.slug === component.slug);
    if (component.version) technology.knownVulnerabilities = found ? outcome.findings.find((f) => f.id === found.findingId)?.cves?.length ?? 0 : 0;
    if (found) technology.findingId = found.findingId;
  }
  return result;
}
