/**
 * DECISIONS "Blocked is a result": is the scanner seeing the site, or a bot challenge, an edge
 * block, a rate limit or a maintenance page in front of it? A pure reading of one response (status,
 * headers, body). The vendor signatures live in ./vendors.ts (partly converted from wafw00f's,
 * licence kept there); the generic rule (401/403/406/429/451/503 on the landing page, or a challenge
 * body) catches the rest without a vendor name. Fixtures: test/fixtures/blocks/.
 */
import { THIN_PAGE_CHARS, VENDOR_SIGNATURES, viewOf } from './vendors.js';

/** What kind of wall the scanner met. */
export type BlockKind =
  /** A bot challenge (JavaScript, CAPTCHA, "Just a moment..."): a browser would get through, the scanner cannot. */
  | 'challenge'
  /** An edge rule refused the request (403 "Access Denied", a WAF block page, a geo block). */
  | 'block'
  /** 429, or 503 with Retry-After: the site limits how fast it is asked. */
  | 'rate_limited'
  /** 503 or another 5xx without a vendor's mark: maintenance or an outage. */
  | 'unavailable'
  /** 401: the whole site needs a login. */
  | 'auth';

/** One response, as the detector reads it. */
export interface ObservedResponse {
  url: string;
  status: number;
  headers: Readonly<Record<string, readonly string[]>>;
  body: string;
}

export interface SiteBlock {
  kind: BlockKind;
  /** Stable vendor id (`cloudflare`, `akamai`, `imperva`, …) or null when only the generic rule matched. */
  vendor: string | null;
  /** The vendor's name as the report prints it ("Cloudflare"), or null. */
  vendorName: string | null;
  status: number;
  url: string;
  /** One sentence for the report: what the scanner got instead of the site. */
  reason: string;
  /** Seconds the site asked the scanner to wait (Retry-After), when it said. */
  retryAfterSeconds?: number;
}

/** Statuses that, on the landing page, mean the scanner is not seeing the site. */
export const BLOCKING_STATUSES: ReadonlySet<number> = new Set([401, 403, 406, 429, 451, 503]);

const header = (headers: ObservedResponse['headers'], name: string): string | undefined => headers[name]?.join(', ');

/** Retry-After in seconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3); undefined when absent or unreadable. */
export function retryAfterSeconds(headers: ObservedResponse['headers'], now: number = Date.now()): number | undefined {
  const value = headers['retry-after']?.[0]?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value);
  // An HTTP date starts with the day's name (IMF-fixdate, RFC 850 and asctime alike); Date.parse alone takes "-5" for a year.
  if (!/^[a-z]{3}/i.test(value)) return undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/** Titles of challenge pages a browser solves and a scanner cannot, whoever serves them. */
const CHALLENGE_TITLE = /^(just a moment\.\.\.|attention required!|checking your browser|ddos-guard|one moment, please|please wait while your request is being verified)/i;
/**
 * The machinery of a challenge interstitial, and only of one: the scripts vendors inject into normal
 * pages (Cloudflare's /cdn-cgi/challenge-platform/…/scripts/jsd/, Imperva's _Incapsula_Resource?SWJIYLWA)
 * are left out, since an app's shell has next to no text too. Counts on a refusal (4xx/5xx) or a page
 * with next to no text, never on a real page.
 */
const INTERSTITIAL = /captcha-delivery\.com|\/cdn-cgi\/challenge-platform\/(h\/[a-z]\/)?orchestrate\/|cf_chl_opt|_incapsula_resource\?cwudnsai|\/\.well-known\/sgcaptcha|px-captcha/i;
/** CAPTCHA widgets: a contact form on a real page embeds them, so they count only on a refusal. */
const CAPTCHA_WIDGET = /g-recaptcha|www\.google\.com\/recaptcha\/|hcaptcha\.com\/1\/api\.js|challenges\.cloudflare\.com\/turnstile/i;

/** A challenge page by its looks alone (title or machinery), whoever serves it. */
function looksLikeChallenge(response: ObservedResponse): boolean {
  const view = viewOf(response);
  if (CHALLENGE_TITLE.test(view.title)) return true;
  const refusal = view.status >= 400;
  if (INTERSTITIAL.test(view.body) && (refusal || view.textLength < THIN_PAGE_CHARS)) return true;
  return refusal && CAPTCHA_WIDGET.test(view.body);
}

/**
 * The wall in front of the site, or null when the response is the site's own: for the landing page,
 * where any of the generic rule's statuses means the scanner is not seeing the site. `vendors` are
 * the vendor signatures (./vendors.ts by default); each returns a kind, or null when the response
 * is not its wall.
 */
export function detectBlock(response: ObservedResponse, vendors: readonly VendorSignature[] = VENDOR_SIGNATURES): SiteBlock | null {
  return vendorBlock(response, vendors) ?? genericBlock(response);
}

/**
 * The wall in front of one path other than the landing page (a check's probe of /.git/config, a
 * WordPress path): a vendor's challenge or block page, a challenge body, or a rate limit (429, or 503
 * with Retry-After). A plain 401/403/404 there is the site's own answer about that path, not a wall.
 */
export function detectPathBlock(response: ObservedResponse, vendors: readonly VendorSignature[] = VENDOR_SIGNATURES): SiteBlock | null {
  const byVendor = vendorBlock(response, vendors);
  if (byVendor) return byVendor;
  if (looksLikeChallenge(response)) return blockOf(response, 'challenge', null, null);
  if (response.status === 429 || (response.status === 503 && retryAfterSeconds(response.headers) !== undefined)) return blockOf(response, 'rate_limited', null, null);
  return null;
}

function vendorBlock(response: ObservedResponse, vendors: readonly VendorSignature[]): SiteBlock | null {
  for (const vendor of vendors) {
    const kind = vendor.match(response);
    if (kind) return blockOf(response, kind, vendor.id, vendor.name);
  }
  return null;
}

/** One vendor's signature: the kind of wall when the response is that vendor's block or challenge page. */
export interface VendorSignature {
  id: string;
  name: string;
  match(response: ObservedResponse): BlockKind | null;
}

/** The generic rule: a blocking status on the page, or a challenge body whatever its status. */
export function genericBlock(response: ObservedResponse): SiteBlock | null {
  if (looksLikeChallenge(response)) return blockOf(response, 'challenge', null, null);
  const { status } = response;
  if (status === 429) return blockOf(response, 'rate_limited', null, null);
  if (status === 503) return blockOf(response, retryAfterSeconds(response.headers) !== undefined ? 'rate_limited' : 'unavailable', null, null);
  if (status === 401) return blockOf(response, 'auth', null, null);
  if (BLOCKING_STATUSES.has(status)) return blockOf(response, 'block', null, null);
  return null;
}

const KIND_WORDS: Record<BlockKind, string> = {
  challenge: 'a bot-protection challenge (a page a browser solves and a scanner cannot)',
  block: 'a block page: an edge rule refused the scanner’s requests',
  rate_limited: 'a rate limit: it asked the scanner to slow down',
  unavailable: 'a server error or maintenance page instead of the site',
  auth: 'a login prompt for the whole site',
};

export function blockOf(response: ObservedResponse, kind: BlockKind, vendor: string | null, vendorName: string | null): SiteBlock {
  const by = vendorName ? ` from ${vendorName}` : '';
  const retry = retryAfterSeconds(response.headers);
  return {
    kind,
    vendor,
    vendorName,
    status: response.status,
    url: response.url,
    reason: `The site answered the scanner with ${KIND_WORDS[kind]}${by} (HTTP ${response.status}), so its pages were not checked.`,
    ...(retry === undefined ? {} : { retryAfterSeconds: retry }),
  };
}

/** For vendor signatures: a header's joined value (lower-case name). */
export { header as headerOf };

/**
 * Thrown by a check whose own request for a page met a wall the scan's first look did not (the site
 * started rate-limiting mid-scan, say): the engine reports the check as kept out, never as run.
 */
export class SiteKeptOutError extends Error {
  constructor(readonly block: SiteBlock) {
    super(block.reason);
    this.name = 'SiteKeptOutError';
  }
}

/** Throws SiteKeptOutError when the response is a wall rather than the site's page. */
export function assertSiteSeen(response: ObservedResponse): void {
  const block = detectBlock(response);
  if (block) throw new SiteKeptOutError(block);
}
