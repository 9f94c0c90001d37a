/**
 * Probe of the wordpress check: the landing page, and only when it shows WordPress, the files
 * WordPress itself serves to anyone: the feed, wp-links-opml.php, readme.html, xmlrpc.php (a GET:
 * it answers that it takes POSTs, and the scanner never sends one), the REST users list, the
 * uploads folder, wp-content/debug.log, the readme.txt of at most ten plugins and the style.css of at
 * most two themes (the active one and its parent) seen on the page. Read-only GETs, at most 22, four
 * at a time; no login, no password ever tried.
 */
import type { HttpClient } from '../../net/http-client.js';
import { createFetcher, type Fetcher, type FetchFailure, isSample, type Sample, toSample } from '../exposure/fetcher.js';
import { fetchLanding, sameSite } from '../exposure/site.js';
import { wordpressAssets } from './assets.js';
import { detectWordPress, type WordPressDetection } from './detect.js';
import { type SeenComponent, seenPlugins, seenThemes } from './plugins.js';
import { restUsers } from './users.js';

/** Plugins whose readme.txt is read, in page order. */
export const MAX_PLUGIN_READMES = 10;
/** Themes whose style.css is read: a child theme and its parent. */
export const MAX_THEME_STYLES = 2;
/** Requests per site: the landing page, six of WordPress's files (the feed after up to two redirects), two users routes, ten readmes and two stylesheets fit; a worst case loses its last one. */
export const MAX_REQUESTS = 22;
/** Requests open at once. */
export const CONCURRENCY = 4;
const MAX_BODY_BYTES = 64 * 1024;
/** A readme's Stable tag and a log's first entries are at the top. */
const SMALL_BODY_BYTES = 16 * 1024;
/** Plugins often load their assets in the footer: read enough of the page to see them. */
const LANDING_BYTES = 1024 * 1024;
const REQUEST_TIMEOUT_MS = 4_000;
const RESERVE_MS = 600;
/** Redirects followed by hand, and only within the site (a feed moved to FeedBurner is not the customer's). */
const SAME_SITE_HOPS = 2;

/** The answers of the users endpoint(s) tried, in order. */
export interface UsersAttempt {
  path: string;
  status: number;
  body: string;
}

/** Everything the WordPress probe retrieved (null: that request got no answer); the analysis reads only this. */
export interface WordPressProbe {
  origin: string;
  landing: Sample;
  detection: WordPressDetection;
  feed: Sample | null;
  opml: Sample | null;
  readme: Sample | null;
  xmlrpc: Sample | null;
  users: UsersAttempt[];
  uploads: Sample | null;
  debugLog: Sample | null;
  /** slug → the answer for its readme.txt (null when it got none). */
  pluginReadmes: Record<string, Sample | null>;
  /** slug → the answer for its style.css (null when it got none). */
  themeStyles: Record<string, Sample | null>;
  failures: FetchFailure[];
  sent: number;
  incomplete: boolean;
}

/** The probe's inputs: the scan's guarded client, the target, and its signal and time. */
export interface WordPressProbeOptions {
  client: HttpClient;
  target: { url: string; host: string };
  domain: string | undefined;
  signal: AbortSignal;
  budgetMs: number;
}


/**
 * The users list: the pretty-permalink route first, or the query-string route first when the REST
 * root the site announced uses it; the other one only when the first did not list anyone (a
 * security plugin often blocks one spelling and forgets the other).
 */
export function usersPaths(detection: WordPressDetection): string[] {
  const base = detection.basePath;
  const pretty = `${base}wp-json/wp/v2/users?per_page=100`;
  const query = `${base}?rest_route=/wp/v2/users&per_page=100`;
  return detection.restRoot?.includes('rest_route=') ? [query, pretty] : [pretty, query];
}

/** Probe: landing, detection, then WordPress's own files, four at a time. */
export async function probeWordPress(options: WordPressProbeOptions): Promise<WordPressProbe> {
  const started = performance.now();
  const landing = await fetchLanding(options.client, options.target, options.domain, {
    signal: options.signal,
    timeoutMs: Math.floor(Math.min(7_000, options.budgetMs / 2)),
    maxBodyBytes: LANDING_BYTES,
  });
  const page = toSample(new URL(landing.response.url).pathname, landing.response);
  const site = { host: options.target.host, domain: options.domain };
  const detection = detectWordPress(page, wordpressAssets(page.body, page.url), site);
  const empty = { feed: null, opml: null, readme: null, xmlrpc: null, users: [], uploads: null, debugLog: null, pluginReadmes: {}, themeStyles: {} };
  if (!detection.detected) {
    return { origin: landing.origin, landing: page, detection, ...empty, failures: [], sent: landing.attempts, incomplete: false };
  }

  const fetcher = createFetcher({
    client: options.client,
    origin: landing.origin,
    signal: options.signal,
    stopAt: started + options.budgetMs - RESERVE_MS,
    maxRequests: MAX_REQUESTS - landing.attempts,
    concurrency: CONCURRENCY,
    maxBodyBytes: MAX_BODY_BYTES,
    timeoutMs: REQUEST_TIMEOUT_MS,
  });
  const failures: FetchFailure[] = [];
  const keep = (result: Sample | FetchFailure): Sample | null => {
    if (isSample(result)) return result;
    failures.push(result);
    return null;
  };
  const base = detection.basePath;
  const assets = wordpressAssets(page.body, page.url);
  const plugins = seenPlugins(assets, null).slice(0, MAX_PLUGIN_READMES);
  const themes = seenThemes(assets, null).slice(0, MAX_THEME_STYLES);
  // Read a component's files where its assets come from when that is the site's own host (or a CDN of its domain).
  const folderOf = (component: SeenComponent, kind: 'plugins' | 'themes') =>
    sameSite(new URL(component.folder).hostname, site.host, site.domain) ? component.folder : `${landing.origin}${base}wp-content/${kind}/${component.slug}/`;

  const [feed, opml, readme, xmlrpc, users, uploads, debugLog, ...components] = await Promise.all([
    followWithinSite(fetcher, `${base}?feed=rss2`, site).then(keep),
    fetcher.get(`${base}wp-links-opml.php`).then(keep),
    fetcher.get(`${base}readme.html`).then(keep),
    fetcher.get(`${base}xmlrpc.php`, { maxBodyBytes: SMALL_BODY_BYTES }).then(keep),
    fetchUsers(fetcher, usersPaths(detection), keep),
    fetcher.get(`${base}wp-content/uploads/`).then(keep),
    fetcher.get(`${base}wp-content/debug.log`, { maxBodyBytes: SMALL_BODY_BYTES }).then(keep),
    ...plugins.map((plugin) => fetcher.get(`${folderOf(plugin, 'plugins')}readme.txt`, { maxBodyBytes: SMALL_BODY_BYTES }).then(keep)),
    ...themes.map((theme) => fetcher.get(`${folderOf(theme, 'themes')}style.css`, { maxBodyBytes: SMALL_BODY_BYTES }).then(keep)),
  ]);
  const readmes = components.slice(0, plugins.length);
  const styles = components.slice(plugins.length);
  return {
    origin: landing.origin,
    landing: page,
    detection,
    feed,
    opml,
    readme,
    xmlrpc,
    users,
    uploads,
    debugLog,
    pluginReadmes: Object.fromEntries(plugins.map((plugin, i) => [plugin.slug, readmes[i] ?? null])),
    themeStyles: Object.fromEntries(themes.map((theme, i) => [theme.slug, styles[i] ?? null])),
    failures,
    sent: landing.attempts + fetcher.sent,
    incomplete: fetcher.incomplete,
  };
}

async function fetchUsers(fetcher: Fetcher, paths: readonly string[], keep: (result: Sample | FetchFailure) => Sample | null): Promise<UsersAttempt[]> {
  const attempts: UsersAttempt[] = [];
  for (const path of paths) {
    const sample = keep(await fetcher.get(path));
    if (!sample) continue;
    attempts.push({ path, status: sample.status, body: sample.body });
    if (sample.status >= 200 && sample.status < 300 && restUsers(sample.body).length > 0) break;
  }
  return attempts;
}

/** GET, following redirects only while they stay on the site (to /feed/ from ?feed=rss2, to https). */
async function followWithinSite(fetcher: Fetcher, path: string, site: { host: string; domain: string | undefined }): Promise<Sample | FetchFailure> {
  let result = await fetcher.get(path);
  for (let hop = 0; hop < SAME_SITE_HOPS && isSample(result); hop++) {
    const location = result.headers.location?.[0];
    if (![301, 302, 303, 307, 308].includes(result.status) || !location) break;
    const next = new URL(location, result.url);
    if (!['http:', 'https:'].includes(next.protocol) || !sameSite(next.hostname, site.host, site.domain)) break;
    result = await fetcher.get(next.href);
  }
  return result;
}
