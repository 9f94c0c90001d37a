/**
 * Fingerprints in a page's markup: `<meta name="generator">`, the URLs of its scripts and styles
 * (retire.js file-name and URI extractors, library file names with a `?ver=`, CMS asset paths and
 * the version WordPress and Drupal put on their core assets), and which script files are worth
 * reading for a library's own header. Pure functions over a captured page.
 */
import { startTags } from '../http/html.js';
import { generatorSightings, sighting } from './headers.js';
import { fileNameOf, librariesInContent, libraryNamedBy, librariesInUrl } from './js-libraries.js';
import type { Confidence, Sighting, TechnologyCategory } from './types.js';

/** A script or stylesheet a page loads. */
export interface PageAsset {
  /** Absolute URL. */
  url: string;
  kind: 'script' | 'stylesheet';
}

/** What the fingerprints read from a page's markup. */
export interface PageMarkup {
  assets: PageAsset[];
  /** Every `<meta name="generator" content>` value, in order. */
  generators: string[];
}

function absolute(reference: string, base: string): string | undefined {
  try {
    const url = new URL(reference.trim(), base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** The page's script and stylesheet URLs (resolved against `<base href>` and the page URL) and its generator tags. */
export function readMarkup(html: string, pageUrl: string): PageMarkup {
  const tags = startTags(html);
  const baseHref = tags.find((tag) => tag.name === 'base' && tag.attributes.has('href'))?.attributes.get('href');
  const base = (baseHref && absolute(baseHref, pageUrl)) || pageUrl;
  const assets: PageAsset[] = [];
  const seen = new Set<string>();
  const add = (reference: string | undefined, kind: PageAsset['kind']) => {
    const url = reference ? absolute(reference, base) : undefined;
    if (url && !seen.has(url)) {
      seen.add(url);
      assets.push({ url, kind });
    }
  };
  const generators: string[] = [];
  for (const tag of tags) {
    if (tag.name === 'script') add(tag.attributes.get('src'), 'script');
    else if (tag.name === 'link') {
      const rel = (tag.attributes.get('rel') ?? '').toLowerCase().split(/\s+/);
      if (rel.includes('stylesheet')) add(tag.attributes.get('href'), 'stylesheet');
      else if (rel.includes('modulepreload') || (rel.includes('preload') && tag.attributes.get('as') === 'script')) add(tag.attributes.get('href'), 'script');
    } else if (tag.name === 'meta' && tag.attributes.get('name')?.trim().toLowerCase() === 'generator') {
      const content = tag.attributes.get('content')?.trim();
      if (content) generators.push(content);
    }
  }
  return { assets, generators };
}

/** A cache-busting parameter that holds a release number (`?ver=6.1.9`, `?v=9.5.11`), not a hash or a timestamp. */
function versionParameter(url: URL): { name: string; version: string } | undefined {
  for (const name of ['ver', 'v', 'version']) {
    const value = url.searchParams.get(name);
    if (value && /^\d{1,4}(?:\.\d{1,6}){1,3}$/.test(value)) return { name, version: value };
  }
  return undefined;
}

/** Paths only one product's assets live under: its presence, without a version. */
const ASSET_PATHS: { test: (url: URL) => boolean; name: string; category: TechnologyCategory }[] = [
  { test: (u) => /\/wp-(?:content|includes)\//.test(u.pathname), name: 'WordPress', category: 'cms' },
  { test: (u) => /\/sites\/(?:default|all)\/(?:files|themes|modules)\/|\/(?:core\/)?misc\/drupal\.js$/.test(u.pathname), name: 'Drupal', category: 'cms' },
  { test: (u) => /\/media\/(?:jui|system)\/js\/|\/components\/com_[a-z0-9_]+\//.test(u.pathname), name: 'Joomla!', category: 'cms' },
  { test: (u) => /\/typo3(?:conf|temp)\//.test(u.pathname), name: 'TYPO3', category: 'cms' },
  { test: (u) => /\/static\/version\d+\/frontend\/|\/skin\/frontend\//.test(u.pathname), name: 'Magento', category: 'cms' },
  { test: (u) => u.hostname === 'cdn.shopify.com', name: 'Shopify', category: 'cms' },
  { test: (u) => u.pathname.includes('/_next/static/'), name: 'Next.js', category: 'framework' },
];

/**
 * Where a CMS stamps its own release on its core assets: WordPress `?ver=` under wp-includes and
 * wp-admin, Drupal 8+ `?v=` under core/. Bundled vendor libraries there carry their own versions.
 */
const CORE_ASSETS: { test: RegExp; exclude: RegExp; name: string }[] = [
  { test: /\/wp-(?:includes|admin)\//, exclude: /\/dist\/vendor\//, name: 'WordPress' },
  { test: /\/core\/(?:misc|modules|themes|assets)\//, exclude: /\/core\/assets\/vendor\//, name: 'Drupal' },
];

/** Core-registered library copies whose `?ver=` is the library's own release (WordPress, Drupal). */
const CORE_LIBRARY_PATH = /\/wp-includes\/js\/|\/core\/assets\/vendor\//;

/**
 * Sightings from a page: generator tags, libraries in script URLs, a library file name with a
 * release in its `?ver=`, CMS asset paths, and the CMS release most of its core assets carry.
 */
export function pageSightings(pageUrl: string, markup: PageMarkup): Sighting[] {
  const found: Sighting[] = [];
  for (const generator of markup.generators) found.push(...generatorSightings(generator, `generator meta tag on ${pageUrl}`, 'meta-generator'));

  const presence = new Map<string, Sighting>();
  const votes = new Map<string, Map<string, string[]>>();
  for (const asset of markup.assets) {
    let url: URL;
    try {
      url = new URL(asset.url);
    } catch {
      continue;
    }
    const fromUrl = asset.kind === 'script' ? librariesInUrl(asset.url) : [];
    for (const library of fromUrl) {
      found.push(
        sighting({
          name: library.name,
          version: library.version,
          category: 'javascript-library',
          confidence: 'medium',
          source: library.source,
          where: `script ${library.source === 'script-filename' ? 'file name' : 'URL'} ${asset.url}`,
          value: library.source === 'script-filename' ? fileNameOf(asset.url) : asset.url,
        }),
      );
    }
    const parameter = versionParameter(url);
    const named = asset.kind === 'script' ? libraryNamedBy(fileNameOf(asset.url)) : undefined;
    if (named && fromUrl.length === 0) {
      const confidence: Confidence = parameter ? (CORE_LIBRARY_PATH.test(url.pathname) ? 'medium' : 'low') : 'medium';
      found.push(
        sighting({
          name: named.name,
          ...(parameter ? { version: parameter.version } : {}),
          category: 'javascript-library',
          confidence,
          source: parameter ? 'asset-version' : 'script-filename',
          where: parameter ? `asset URL ${asset.url}` : `script file name ${asset.url}`,
          value: parameter ? `${fileNameOf(asset.url)}?${parameter.name}=${parameter.version}` : fileNameOf(asset.url),
        }),
      );
    }
    for (const rule of ASSET_PATHS) {
      if (!presence.has(rule.name) && rule.test(url)) {
        presence.set(rule.name, sighting({ name: rule.name, category: rule.category, confidence: 'medium', source: 'asset-path', where: `asset paths on ${pageUrl}`, value: url.pathname }));
      }
    }
    if (parameter && !named && fromUrl.length === 0) {
      const core = CORE_ASSETS.find((rule) => rule.test.test(url.pathname) && !rule.exclude.test(url.pathname));
      if (core) {
        const byVersion = votes.get(core.name) ?? new Map<string, string[]>();
        byVersion.set(parameter.version, [...(byVersion.get(parameter.version) ?? []), `${fileNameOf(asset.url)}?${parameter.name}=${parameter.version}`]);
        votes.set(core.name, byVersion);
      }
    }
  }
  found.push(...presence.values());
  for (const [name, byVersion] of votes) {
    const total = [...byVersion.values()].reduce((sum, files) => sum + files.length, 0);
    // The release most core assets carry; a plugin that registers under wp-includes is outvoted.
    const [version, files] = [...byVersion.entries()].sort((a, b) => b[1].length - a[1].length)[0]!;
    found.push(
      sighting({
        name,
        version,
        category: 'cms',
        confidence: 'medium',
        source: 'asset-version',
        where: `core asset versions on ${pageUrl}`,
        value: `${files[0]} (${files.length} of ${total} core assets with a release number)`,
      }),
    );
  }
  return found;
}

/** Names that suggest a file bundling libraries, read after the ones that name a library. */
const BUNDLE_NAME = /vendor|librar|lib[s.-]|bundle|plugins|common|main|app|all|scripts/i;

/**
 * Up to `limit` same-host script files worth reading for a library's own header: only those whose
 * URL gave no version; a file named after a library first, then names that suggest a bundle.
 */
export function scriptsToRead(pageUrl: string, markup: PageMarkup, limit: number): string[] {
  let host: string;
  try {
    host = new URL(pageUrl).host;
  } catch {
    return [];
  }
  const candidates = markup.assets.filter((asset) => {
    if (asset.kind !== 'script') return false;
    let url: URL;
    try {
      url = new URL(asset.url);
    } catch {
      return false;
    }
    if (url.host !== host) return false;
    if (librariesInUrl(asset.url).length > 0) return false;
    const named = libraryNamedBy(fileNameOf(asset.url));
    return !(named && versionParameter(url));
  });
  const rank = (url: string) => (libraryNamedBy(fileNameOf(url)) ? 0 : BUNDLE_NAME.test(fileNameOf(url)) ? 1 : 2);
  return candidates
    .map((asset, index) => ({ url: asset.url, rank: rank(asset.url), index }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .slice(0, limit)
    .map((c) => c.url);
}

/** Sightings from the head of one script file: the libraries its own text names with their versions. */
export function scriptSightings(url: string, text: string): Sighting[] {
  return librariesInContent(text).map((library) =>
    sighting({
      name: library.name,
      version: library.version,
      category: 'javascript-library',
      confidence: 'high',
      source: 'script-content',
      where: `script file ${url}`,
      value: library.matched,
    }),
  );
}
