/**
 * DECISIONS "Blocked is a result": is the scanner seeing the site, or a bot challenge, an edge
 * block, a rate limit or a maintenance page in front of it? A pure reading of one response (status,
 * headers, body). The vendor signatures live in ./vendors.ts (converted from wafw00f's, licence
 * kept there); the generic rule (401/403/406/429/451/503 on the landing page, or a challenge body)
 * catches the rest without a vendor name.
 */
import type { HttpHeaders } from '../net/http-client.js';

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
  headers: HttpHeaders;
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

const header = (headers: HttpHeaders, name: string): string | undefined => headers[name]?.join(', ');

/** Retry-After in seconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3); undefined when absent or unreadable. */
export function retryAfterSeconds(headers: HttpHeaders, now: number = Date.now()): number | undefined {
  const value = headers['retry-after']?.[0]?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/** Challenge pages a browser solves and a scanner cannot, whoever serves them. */
const CHALLENGE_BODY = /<title>\s*(just a moment\.\.\.|attention required!|checking your browser|ddos-guard|one moment, please)|(captcha-delivery|challenge-platform|cf-chl-|_incapsula_resource|\/\.well-known\/sgcaptcha|px-captcha|g-recaptcha|hcaptcha\.com\/1\/api\.js|challenges\.cloudflare\.com\/turnstile)/i;

/**
 * The wall in front of the site, or null when the response is the site's own. `vendors` are the
 * vendor signatures (./vendors.ts); each returns a block, or null when the response is not its.
 */
export function detectBlock(response: ObservedResponse, vendors: readonly VendorSignature[] = []): SiteBlock | null {
  for (const vendor of vendors) {
    const kind = vendor.match(response);
    if (kind) return blockOf(response, kind, vendor.id, vendor.name);
  }
  return genericBlock(response);
}

/** One vendor's signature: the kind of wall when the response is that vendor's block or challenge page. */
export interface VendorSignature {
  id: string;
  name: string;
  match(response: ObservedResponse): BlockKind | null;
}

/** The generic rule: a blocking status on the page, or a challenge body whatever its status. */
export function genericBlock(response: ObservedResponse): SiteBlock | null {
  if (CHALLENGE_BODY.test(response.body.slice(0, 64 * 1024))) return blockOf(response, 'challenge', null, null);
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
