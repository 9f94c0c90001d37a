import { getDomain } from 'tldts';
import type { CheckResult } from './audit.js';
import { landingOf } from './scan-site.js';
import { record, records, str } from './unknown-values.js';

/**
 * DECISIONS "Rescan target" (issue 27 item 3): a monitoring rescan or a Quick Scan of a domain scans
 * the site the customer has — the scheme, host and port the domain's last completed scan reached
 * after its redirects — not `https://{domain}/` whatever the site serves: an http-only site stays
 * http (scanning https:// there reads no page and used to "fix" what it could not see).
 *
 * - No earlier scan, or one whose landing page did not load: `https://{domain}/` (the default a
 *   visitor's browser tries first; the http check still reads http when https does not answer).
 * - The site reached must stay within the domain's registrable domain (tldts, private suffixes
 *   counted, as "Who may scan at once" does): a redirect to another domain (a shop hosted by a
 *   platform, a parked page, a login provider) is someone else's site, which the customer has not
 *   proved control of (DECISIONS "Scan modes": an active scan needs proof of the registrable
 *   domain) and whose findings would not be theirs. Then the last hop of the redirect chain still on
 *   the customer's own domain is scanned (it answered, at that scheme), else the default.
 * - Only the origin is kept: the rescan starts at the site's root, as the first scan did.
 */

/** What the rule reads of the last completed scan of the domain. */
export interface LastScan {
  checks: readonly CheckResult[];
}

const OPTIONS = { allowPrivateDomains: true };

/** True when `host` is `domain`, or shares its registrable domain (an IP literal only matches itself). */
function withinDomain(host: string, domain: string): boolean {
  const [a, b] = [host.toLowerCase().replace(/\.$/, ''), domain.toLowerCase().replace(/\.$/, '')];
  if (a === b) return true;
  const registrable = getDomain(b, OPTIONS);
  return registrable !== null && registrable === getDomain(a, OPTIONS);
}

/** The URL's origin with a `/` path, when it is http(s) on the customer's domain. */
function siteRoot(url: string | undefined, domain: string): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return undefined;
    return withinDomain(parsed.hostname.replace(/^\[|\]$/g, ''), domain) ? `${parsed.origin}/` : undefined;
  } catch {
    return undefined;
  }
}

/** The URLs the landing page's session went through, last first: the page reached, then each redirect back to the first request. */
function chainOf(checks: readonly CheckResult[], reached: string): string[] {
  const data = record(checks.find((check) => check.name === 'http')?.data);
  const analyzed = str(data?.analyzed);
  const session = analyzed ? record(record(data?.responses)?.[analyzed]) : undefined;
  const hops = records(session?.redirects)
    .map((hop) => str(hop.url))
    .filter((url): url is string => url !== undefined);
  return [reached, ...hops.reverse()];
}

/** The URL to scan for `domain` (a site key or host as stored in the domains list), given its last completed scan. */
export function rescanTarget(domain: string, lastCompletedScan?: LastScan): string {
  const fallback = `https://${domain}/`;
  if (!lastCompletedScan) return fallback;
  const landing = landingOf(lastCompletedScan.checks);
  if (!landing.loaded || !landing.url) return fallback;
  for (const url of chainOf(lastCompletedScan.checks, landing.url)) {
    const root = siteRoot(url, domain);
    if (root) return root;
  }
  return fallback;
}
