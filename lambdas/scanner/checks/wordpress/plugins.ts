/**
 * Plugins and themes the page loads assets from (`/wp-content/plugins/<slug>/…?ver=x`), the Stable
 * tag of a plugin's readme.txt and the Version of a theme's style.css. `?ver=` on a plugin asset is
 * the plugin's version only when the plugin set one: WordPress puts its own version there otherwise,
 * so a value equal to the core version is not taken as the plugin's. Slugs keep their case: web
 * servers compare paths case-sensitively, and premium themes ship as `Divi` or `Avada`.
 */
import { isVersionLike, type WordPressAsset } from './assets.js';

/** A plugin or theme whose assets the page loads. */
export interface SeenComponent {
  slug: string;
  /** The most common version-like `?ver=` of its assets, when it differs from the core version. */
  assetVersion?: string;
  /** The folder its assets load from (`https://shop.example/wp-content/plugins/woocommerce/`). */
  folder: string;
}

/** Where a plugin's version was read. */
export type PluginVersionSource = 'readme.txt' | 'asset-ver' | 'none';

/** A plugin as data.plugins reports it. */
export interface Plugin {
  slug: string;
  version: string | null;
  /** Where the version came from: the readme's Stable tag, the assets' ?ver, or nowhere. */
  source: PluginVersionSource;
  /** Its name, from the readme's `=== Name ===`. */
  name?: string;
}

/** Where a theme's version was read. */
export type ThemeVersionSource = 'style.css' | 'asset-ver' | 'none';

/** A theme as data.themes reports it. */
export interface Theme {
  slug: string;
  version: string | null;
  /** Where the version came from: its style.css header, the assets' ?ver, or nowhere. */
  source: ThemeVersionSource;
  /** Its name, from style.css `Theme Name:`. */
  name?: string;
}

const SLUG = /^[a-z0-9][a-z0-9._-]{0,99}$/i;

function components(assets: readonly WordPressAsset[], kind: 'plugins' | 'themes', coreVersion: string | null): SeenComponent[] {
  const seen = new Map<string, { folder: string; versions: Map<string, number> }>();
  for (const asset of assets) {
    if (asset.area !== 'wp-content') continue;
    const match = new RegExp(`^${kind}/([^/]+)/`, 'i').exec(asset.rest);
    const slug = match?.[1];
    if (!slug || !SLUG.test(slug)) continue;
    const marker = `/wp-content/${kind}/${slug}/`.toLowerCase();
    const path = asset.url.pathname;
    const folder = `${asset.url.origin}${path.slice(0, path.toLowerCase().indexOf(marker) + marker.length)}`;
    const entry = seen.get(slug) ?? { folder, versions: new Map<string, number>() };
    if (asset.ver && isVersionLike(asset.ver) && asset.ver !== coreVersion) entry.versions.set(asset.ver, (entry.versions.get(asset.ver) ?? 0) + 1);
    seen.set(slug, entry);
  }
  return [...seen.entries()].map(([slug, { folder, versions }]) => {
    const best = [...versions.entries()].sort((a, b) => b[1] - a[1])[0];
    return { slug, folder, ...(best ? { assetVersion: best[0] } : {}) };
  });
}

/** Plugins whose assets the page loads, in page order. */
export function seenPlugins(assets: readonly WordPressAsset[], coreVersion: string | null): SeenComponent[] {
  return components(assets, 'plugins', coreVersion);
}

/** Themes whose assets the page loads (the active theme and its parent), in page order. */
export function seenThemes(assets: readonly WordPressAsset[], coreVersion: string | null): SeenComponent[] {
  return components(assets, 'themes', coreVersion);
}

/**
 * The Stable tag of a plugin readme.txt (`=== Name ===` … `Stable tag: 5.3.2`); null when the body
 * is not a readme (an HTML error page) or the tag is `trunk` or missing.
 */
export function readmeStableTag(body: string): string | null {
  const start = body.trimStart();
  if (start.startsWith('<')) return null;
  if (!/^===.*===\s*$/m.test(body) && !/^Stable tag:/im.test(body)) return null;
  const tag = /^\s*Stable tag:\s*([^\s]+)\s*$/im.exec(body)?.[1];
  return tag && isVersionLike(tag) ? tag : null;
}

/** The plugin's name in its readme.txt: `=== Contact Form 7 ===`; null when the body is not a readme. */
export function readmeName(body: string): string | null {
  if (body.trimStart().startsWith('<')) return null;
  const name = /^\s*===\s*(.+?)\s*===\s*$/m.exec(body)?.[1]?.trim();
  return name && name.length <= 120 ? name : null;
}

/**
 * A theme's name and version from the header comment of its style.css (`Theme Name: Astra`,
 * `Version: 4.6.4`); null when the body is not a theme stylesheet (an HTML error page, or no Theme Name).
 */
export function themeStyle(body: string): { name: string; version: string | null } | null {
  if (body.trimStart().startsWith('<')) return null;
  const header = /\/\*([\s\S]*?)\*\//.exec(body)?.[1];
  if (!header) return null;
  const field = (label: string) => new RegExp(`^[\\s*]*${label}\\s*:\\s*(.+?)\\s*$`, 'im').exec(header)?.[1];
  const name = field('Theme Name');
  if (!name) return null;
  const version = field('Version');
  return { name, version: version && isVersionLike(version) ? version : null };
}

/** A plugin's version: its readme's Stable tag first (written by its author), else its assets' ?ver. */
export function pluginVersion(seen: SeenComponent, stableTag: string | null, name?: string | null): Plugin {
  const named = name ? { name } : {};
  if (stableTag) return { slug: seen.slug, version: stableTag, source: 'readme.txt', ...named };
  if (seen.assetVersion) return { slug: seen.slug, version: seen.assetVersion, source: 'asset-ver', ...named };
  return { slug: seen.slug, version: null, source: 'none', ...named };
}

/** A theme's version: its style.css Version first, else its assets' ?ver. */
export function themeVersion(seen: SeenComponent, style: { name: string; version: string | null } | null): Theme {
  const named = style ? { name: style.name } : {};
  if (style?.version) return { slug: seen.slug, version: style.version, source: 'style.css', ...named };
  if (seen.assetVersion) return { slug: seen.slug, version: seen.assetVersion, source: 'asset-ver', ...named };
  return { slug: seen.slug, version: null, source: 'none', ...named };
}
