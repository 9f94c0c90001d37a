import type { CheckResult } from './audit.js';
import { num, record, str } from './unknown-values.js';

/**
 * DECISIONS "Rescan target" (issue 27 item 3): which site a stored scan looked at, and whether it
 * saw it at all. Pure readings of the http check's stored data (lambdas/scanner/checks/http.check.ts
 * `analyzeHttp`: `url` is the page it analyzed after redirects, https when https answered, else http;
 * `responses.{https,http}` each session with its redirects).
 *
 * - The landing page loaded when the http check finished `ok` and the page it analyzed answered
 *   2xx or 3xx. A 401/403 landing page is a wall in front of the site (DECISIONS "Blocked is a
 *   result"), a 404 or 5xx is not the site's page; a check skipped because the site blocked or
 *   rate-limited the scanner, or that ended in an error (neither scheme answered), loaded nothing.
 * - A scan's site is the scheme it was asked for and the origin (scheme, host, port) its landing
 *   page was reached at: `https://x/` that ends on `http://x/` is not the scan of `http://x/` — the
 *   TLS check judges the scheme asked for, and the software check reads the target URL itself.
 * - A check ran in full when it finished `ok`, was not limited (its `data.notChecked` lists nothing),
 *   the scan's landing page loaded (a scan that did not see the site can fix nothing), and — when
 *   compared with an earlier scan — the checks that read the site's pages only when both scans
 *   reached the same site. Monitoring diffs, "resolved" alerts, time-to-fix and Essential Eight's
 *   evidence for a strategy all read this one rule.
 */

/** The checks whose findings depend on which scheme and host were read (the pages, their headers, the TLS of the scheme asked for). */
export const PAGE_CHECKS: ReadonlySet<string> = new Set(['http', 'software', 'wordpress', 'exposure', 'tls']);

export interface Landing {
  loaded: boolean;
  /** The page the http check analyzed, after redirects (absent when nothing answered). */
  url?: string;
  /** Its status. */
  status?: number;
  /** Why it did not load, in words for the report ("it answered 404"). */
  reason?: string;
}

/** A page answered with the site itself: 2xx, or a redirect the client stopped following. */
const loadedStatus = (status: number) => status >= 200 && status < 400;

/** The landing page as the stored http check saw it. */
export function landingOf(checks: readonly CheckResult[]): Landing {
  const http = checks.find((check) => check.name === 'http');
  if (!http) return { loaded: false, reason: 'the http check did not run' };
  if (http.status !== 'ok') {
    const why = http.cause === 'blocked' ? 'the site blocked the scanner' : http.cause === 'rate_limited' ? 'the site limited our requests' : http.status === 'skipped' ? 'it was not asked for' : 'it did not answer';
    return { loaded: false, reason: http.reason ? `${why}: ${http.reason}` : why };
  }
  const data = record(http.data);
  const url = str(data?.url);
  const analyzed = str(data?.analyzed);
  const session = analyzed ? record(record(data?.responses)?.[analyzed]) : undefined;
  const status = num(record(data?.observatory)?.statusCode) ?? num(session?.status);
  if (!url || status === undefined) return { loaded: false, reason: 'the page the scan read was not recorded' };
  if (!loadedStatus(status)) return { loaded: false, url, status, reason: `it answered ${status}` };
  return { loaded: true, url, status };
}

/** True when the scan saw the site's landing page (see `landingOf`). */
export const landingLoaded = (checks: readonly CheckResult[]): boolean => landingOf(checks).loaded;

/** `scheme://host[:port]` of a URL (default ports left out, host lower case); undefined when it is not an http(s) URL. */
export function originOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.origin : undefined;
  } catch {
    return undefined;
  }
}

/** What a scan holds that says which site it looked at. */
export interface SiteScan {
  checks: readonly CheckResult[];
  /** The URL the scan was asked for; without it, the scheme reached counts as the scheme asked. */
  targetUrl?: string;
}

/**
 * The site a scan looked at: `"{scheme asked} {origin reached}"` (`"https https://www.example.com"`),
 * or undefined when its landing page did not load (it looked at no site).
 */
export function siteOf(scan: SiteScan): string | undefined {
  const landing = landingOf(scan.checks);
  const reached = landing.loaded ? originOf(landing.url) : undefined;
  if (!reached) return undefined;
  const asked = originOf(scan.targetUrl)?.split(':')[0] ?? reached.split(':')[0];
  return `${asked} ${reached}`;
}

/** Limited to its passive part (or to what a block or rate limit left): some part was not looked at. */
export const ranLimited = (check: CheckResult): boolean => Array.isArray(check.data?.notChecked) && check.data.notChecked.length > 0;

export interface RunInFullOptions {
  /**
   * The site the scan is compared with (`siteOf` the earlier scan). A string: the page checks count
   * only when this scan reached the same site. `null`: the earlier scan's site is not known (its
   * landing page did not load), so no page check is comparable. Absent: no comparison.
   */
  sameSiteAs?: string | null;
}

/** The checks of a scan that ran in full (see the module's comment); empty when its landing page did not load. */
export function checksRunInFull(scan: SiteScan, options: RunInFullOptions = {}): Set<string> {
  const site = siteOf(scan);
  if (site === undefined) return new Set();
  const comparable = (name: string) => options.sameSiteAs === undefined || !PAGE_CHECKS.has(name) || options.sameSiteAs === site;
  return new Set(scan.checks.filter((check) => check.status === 'ok' && !ranLimited(check) && comparable(check.name)).map((check) => check.name));
}
