/**
 * The WordPress asset URLs a page references (wp-includes, wp-admin, wp-content), with their
 * `?ver=` values. Read from the raw markup, not only from tags: WordPress also writes asset URLs
 * into inline scripts as escaped JSON (`"concatemoji":"https:\/\/…\/wp-emoji-release.min.js?ver=6.1.9"`).
 */

/** The WordPress folder an asset is served from. */
export type AssetArea = 'wp-includes' | 'wp-admin' | 'wp-content';

/** An asset URL of the page under a WordPress folder. */
export interface WordPressAsset {
  url: URL;
  area: AssetArea;
  /** The path from the area folder on: `js/jquery/jquery.min.js`, `plugins/contact-form-7/includes/js/index.js`. */
  rest: string;
  /** The `ver` query parameter, when there is one. */
  ver?: string;
}

const ASSET = /[^\s"'<>()\\]*\b(wp-includes|wp-admin|wp-content)\/[^\s"'<>()\\]*/gi;

/** Undoes the escaping a URL gets inside JSON and HTML attributes. */
function unescape(html: string): string {
  return html.replace(/\\\//g, '/').replace(/&#0?38;|&amp;/gi, '&');
}

/** Every distinct WordPress asset URL of the page, resolved against the page's URL, in page order. */
export function wordpressAssets(html: string, pageUrl: string): WordPressAsset[] {
  const seen = new Set<string>();
  const assets: WordPressAsset[] = [];
  for (const match of unescape(html).matchAll(ASSET)) {
    const raw = match[0].replace(/[,.;]+$/, '');
    let url: URL;
    try {
      url = new URL(raw, pageUrl);
    } catch {
      continue;
    }
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || seen.has(url.href)) continue;
    const located = /\/(wp-includes|wp-admin|wp-content)\/(.*)$/i.exec(url.pathname);
    if (!located) continue;
    seen.add(url.href);
    const ver = url.searchParams.get('ver') ?? undefined;
    assets.push({ url, area: located[1]!.toLowerCase() as AssetArea, rest: located[2]!, ...(ver ? { ver } : {}) });
  }
  return assets;
}

/** A version as WordPress and plugins write them (6.1.9, 6.1, 5.3.2-beta1), not a build hash or a date. */
export function isVersionLike(value: string): boolean {
  return /^\d{1,2}\.\d{1,3}(\.\d{1,4}){0,2}([-.]?(alpha|beta|rc|RC)[-.]?\d*)?$/.test(value);
}
