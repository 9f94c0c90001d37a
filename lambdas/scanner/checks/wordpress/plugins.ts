/**
 * Plugins and themes the page loads assets from (`/wp-content/plugins/<slug>/…?ver=x`), and the
 * Stable tag of a plugin's readme.txt. `?ver=` on a plugin asset is the plugin's version only
 * when the plugin set one: WordPress puts its own version there otherwise, so a value equal to
 * the core version is not taken as the plugin's.
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
}

const SLUG = /^[a-z0-9][a-z0-9._-]{0,99}$/i;

function components(assets: readonly WordPressAsset[], kind: 'plugins' | 'themes', coreVersion: string | null): SeenComponent[] {
  const seen = new Map<string, { folder: string; versions: Map<string, number> }>();
  for (const asset of assets) {
    if (asset.area !== 'wp-content') continue;
    const match = new RegExp(`^${kind}/([^/]+)/`, 'i').exec(asset.rest);
    const slug = match?.[1]?.toLowerCase();
    if (!slug || !SLUG.test(slug)) continue;
    const marker = `/wp-content/${kind}/${slug}/`;
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

/** A plugin's version: its readme's Stable tag first (written by its author), else its assets' ?ver. */
export function pluginVersion(seen: SeenComponent, stableTag: string | null): Plugin {
  if (stableTag) return { slug: seen.slug, version: stableTag, source: 'readme.txt' };
  if (seen.assetVersion) return { slug: seen.slug, version: seen.assetVersion, source: 'asset-ver' };
  return { slug: seen.slug, version: null, source: 'none' };
}
