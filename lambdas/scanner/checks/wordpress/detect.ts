/**
 * Is the site WordPress, and where is it installed? Signals on the landing page: the generator
 * meta tag, assets under /wp-content/ or /wp-includes/ on the site's own host (a page that merely
 * embeds an image from someone else's blog is not WordPress), and the REST API's discovery header
 * `Link: <…/wp-json/>; rel="https://api.w.org/"`. WordPress may live in a subfolder (/blog/): the
 * REST root and the asset URLs say which.
 */
import type { HttpHeaders } from '../../net/http-client.js';
import { sameSite } from '../exposure/site.js';
import type { WordPressAsset } from './assets.js';
import { hasWordPressGenerator } from './version.js';

/** Whether the landing page shows WordPress, by what, and where it is installed. */
export interface WordPressDetection {
  detected: boolean;
  /** What showed it: `generator`, `rest-link`, `assets`. */
  signals: string[];
  /** The folder WordPress is installed in on the site's origin, with slashes around it: `/`, `/blog/`. */
  basePath: string;
  /** The REST API root the Link header announced, when it did. */
  restRoot?: string;
}

/** The REST root of `Link: <https://shop.example/wp-json/>; rel="https://api.w.org/"`. */
export function restRootOf(headers: HttpHeaders): string | undefined {
  for (const value of headers.link ?? []) {
    for (const part of value.split(/,(?=\s*<)/)) {
      const match = /<([^>]+)>\s*;\s*rel\s*=\s*"?https:\/\/api\.w\.org\/"?/i.exec(part);
      if (match) return match[1];
    }
  }
  return undefined;
}

/** The install folder a REST root implies: /blog/wp-json/ → /blog/; /blog/index.php?rest_route=/ → /blog/. */
function basePathOfRestRoot(root: URL): string | undefined {
  if (root.searchParams.has('rest_route')) return root.pathname.replace(/index\.php$/, '').replace(/\/?$/, '/');
  const at = root.pathname.indexOf('/wp-json');
  return at >= 0 ? root.pathname.slice(0, at + 1) : undefined;
}

/** Reads the landing page for WordPress. `site` is the target host and its registrable domain. */
export function detectWordPress(
  page: { url: string; headers: HttpHeaders; body: string },
  assets: readonly WordPressAsset[],
  site: { host: string; domain: string | undefined },
): WordPressDetection {
  const signals: string[] = [];
  if (hasWordPressGenerator(page.body)) signals.push('generator');
  const restRoot = restRootOf(page.headers);
  let rest: URL | undefined;
  if (restRoot) {
    try {
      rest = new URL(restRoot, page.url);
      signals.push('rest-link');
    } catch {
      rest = undefined;
    }
  }
  const own = assets.filter((asset) => asset.area !== 'wp-admin' && sameSite(asset.url.hostname, site.host, site.domain));
  // A CDN in front of the uploads and scripts (another host) still shows WordPress when there are several.
  const elsewhere = assets.filter((asset) => asset.area !== 'wp-admin' && !own.includes(asset));
  if (own.length > 0 || elsewhere.length >= 3) signals.push('assets');

  let basePath = rest && sameSite(rest.hostname, site.host, site.domain) ? basePathOfRestRoot(rest) : undefined;
  if (!basePath) {
    const core = own.find((asset) => asset.area === 'wp-includes') ?? own.find((asset) => asset.area === 'wp-content');
    if (core) basePath = core.url.pathname.slice(0, core.url.pathname.toLowerCase().indexOf(`/${core.area}/`) + 1);
  }
  return { detected: signals.length > 0, signals, basePath: basePath ?? '/', ...(rest ? { restRoot: rest.href } : {}) };
}
