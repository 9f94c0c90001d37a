/**
 * The WordPress core version, from every place a site gives it away, each kept with what it said:
 * the generator meta tag, the feed's <generator>, the wp-links-opml.php comment, readme.html (old
 * releases only: current readmes carry no version), and `?ver=` on core
 * assets. Then one version is chosen, with a confidence that says how much the sources agree.
 */
import { startTags } from '../http/html.js';
import { isVersionLike, type WordPressAsset } from './assets.js';

/** Where a version was read. */
export type VersionSourceName = 'generator' | 'feed' | 'opml' | 'readme' | 'core-assets';

/** One source of the core version and what it said. */
export interface VersionSource {
  source: VersionSourceName;
  version: string;
  /** Where it was read, for the report: the tag or URL. */
  evidence?: string;
}

/** How much the sources agree on the chosen version. */
export type VersionConfidence = 'high' | 'medium' | 'low';

/** The generator meta tag: `<meta name="generator" content="WordPress 6.1.9">` (plugins add their own: WooCommerce 7.1.0). */
export function generatorVersion(html: string): VersionSource | null {
  for (const tag of startTags(html)) {
    if (tag.name !== 'meta' || tag.attributes.get('name')?.trim().toLowerCase() !== 'generator') continue;
    const content = tag.attributes.get('content')?.trim() ?? '';
    const version = /^WordPress\s+(\d[\w.-]*)/i.exec(content)?.[1];
    if (version) return { source: 'generator', version, evidence: `<meta name="generator" content="${content}">` };
  }
  return null;
}

/** True when the page names WordPress as its generator, with or without a version. */
export function hasWordPressGenerator(html: string): boolean {
  return startTags(html).some(
    (tag) => tag.name === 'meta' && tag.attributes.get('name')?.trim().toLowerCase() === 'generator' && /^WordPress\b/i.test(tag.attributes.get('content')?.trim() ?? ''),
  );
}

/** RSS `<generator>https://wordpress.org/?v=6.1.9</generator>` or Atom `<generator uri="https://wordpress.org/" version="6.1.9">`. */
export function feedVersion(xml: string): VersionSource | null {
  const rss = /<generator>\s*https?:\/\/wordpress\.org\/\?v=([\w.-]+)\s*<\/generator>/i.exec(xml);
  if (rss) return { source: 'feed', version: rss[1]!, evidence: rss[0] };
  const atom = /<generator[^>]*uri="https?:\/\/wordpress\.org\/?"[^>]*version="([\w.-]+)"[^>]*>/i.exec(xml);
  if (atom) return { source: 'feed', version: atom[1]!, evidence: atom[0] };
  return null;
}

/** wp-links-opml.php: `<!-- generator="WordPress/6.1.9" -->`. */
export function opmlVersion(xml: string): VersionSource | null {
  const match = /<!--\s*generator="WordPress\/([\w.-]+)"\s*-->/i.exec(xml);
  return match ? { source: 'opml', version: match[1]!, evidence: match[0] } : null;
}

/** True when the page is WordPress's readme.html. */
export function isWordPressReadme(html: string): boolean {
  return /<title>\s*WordPress\s*(?:&#8250;|›|&rsaquo;)\s*ReadMe\s*<\/title>/i.test(html);
}

/** readme.html of old releases: `<br /> Version 4.2.2` under the logo. Newer readmes carry no version. */
export function readmeVersion(html: string): VersionSource | null {
  if (!isWordPressReadme(html)) return null;
  const match = /<br\s*\/?>\s*Version\s+(\d[\w.-]*)/i.exec(html);
  return match ? { source: 'readme', version: match[1]!, evidence: match[0].replace(/\s+/g, ' ') } : null;
}

/**
 * Bundled libraries under wp-includes carry their own versions in `?ver=` (jQuery 3.6.1,
 * jquery-migrate 3.3.2, wp-polyfill 3.15.0, regenerator-runtime 0.13.9 …), not WordPress's.
 */
const THIRD_PARTY = /^js\/(jquery\/|dist\/vendor\/|tinymce\/|mediaelement\/|plupload\/|thickbox\/|codemirror\/|crop\/|jcrop\/|imgareaselect\/|swfupload\/|underscore|backbone|imagesloaded|masonry|hoverintent|hoverIntent|swfobject|json2|clipboard|twemoji|zxcvbn|colorpicker|tw-sack)/;

/**
 * `?ver=` on core assets (wp-includes and wp-admin), the most common version-like value. Plugin
 * and theme assets carry their own versions, bundled libraries theirs, and block scripts a hash.
 */
export function coreAssetVersion(assets: readonly WordPressAsset[]): VersionSource | null {
  const counts = new Map<string, number>();
  for (const asset of assets) {
    if (asset.area === 'wp-content' || !asset.ver || !isVersionLike(asset.ver) || THIRD_PARTY.test(asset.rest)) continue;
    counts.set(asset.ver, (counts.get(asset.ver) ?? 0) + 1);
  }
  const best = [...counts.entries()].sort((a, b) => b[1] - a[1])[0];
  if (!best) return null;
  return { source: 'core-assets', version: best[0], evidence: `?ver=${best[0]} on ${best[1]} core asset${best[1] === 1 ? '' : 's'}` };
}

/** How far each source is trusted: the generator, feed and OPML are written by core itself; ?ver can be rewritten by cache plugins. */
const WEIGHT: Record<VersionSourceName, number> = { generator: 3, feed: 3, opml: 3, readme: 2, 'core-assets': 1 };

/** 6.1 and 6.1.0 are the same release. */
function same(a: string, b: string): boolean {
  const strip = (v: string) => v.replace(/(\.0)+$/, '');
  return strip(a) === strip(b);
}

/**
 * The version the sources point to and how sure that is: high when two or more sources agree and
 * none disagrees; medium when one core-written source says it alone, or the sources disagree but
 * the stronger side has two; low when only asset `?ver=` values say it, or a lone source is contradicted.
 */
export function chooseVersion(sources: readonly VersionSource[]): { version: string | null; confidence: VersionConfidence | null } {
  if (sources.length === 0) return { version: null, confidence: null };
  const groups: { version: string; score: number; sources: VersionSource[] }[] = [];
  for (const source of sources) {
    const group = groups.find((g) => same(g.version, source.version));
    if (group) {
      group.score += WEIGHT[source.source];
      group.sources.push(source);
    } else {
      groups.push({ version: source.version, score: WEIGHT[source.source], sources: [source] });
    }
  }
  groups.sort((a, b) => b.score - a.score || b.sources.length - a.sources.length);
  const chosen = groups[0]!;
  // The most precise spelling (6.1.0 over 6.1) of the chosen release.
  const version = chosen.sources.map((s) => s.version).sort((a, b) => b.length - a.length)[0]!;
  const agreeing = new Set(chosen.sources.map((s) => s.source)).size;
  const contradicted = groups.length > 1;
  const onlyAssets = chosen.sources.every((s) => s.source === 'core-assets');
  let confidence: VersionConfidence;
  if (onlyAssets) confidence = 'low';
  else if (agreeing >= 2 && !contradicted) confidence = 'high';
  else if (!contradicted || agreeing >= 2) confidence = 'medium';
  else confidence = 'low';
  return { version, confidence };
}
