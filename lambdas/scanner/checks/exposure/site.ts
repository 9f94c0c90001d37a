/**
 * The site's landing page and the origin its paths are read from. A target given as
 * https://shop.example/ may answer only over http, or redirect to https://www.shop.example/: the
 * files worth looking for live on the origin that actually serves the site, as long as it is
 * still the customer's (the same registrable domain), never a third party the site links to.
 */
import type { HttpClient, HttpResponse } from '../../net/http-client.js';
import { assertSiteSeen } from '../../site-access/block.js';

/** How many redirects the landing request follows (as the http check does). */
export const LANDING_REDIRECTS = 5;

/** The landing page's response and the origin the site's paths are read from. */
export interface Landing {
  response: HttpResponse;
  /** Scheme, host and port of the site, no trailing slash: `https://www.shop.example`. */
  origin: string;
  /** Requests it took (2 when the first scheme got no answer), for the check's request count. */
  attempts: number;
}

/** The target URL with the other scheme (an explicit port stays). */
export function withScheme(url: string, protocol: 'https:' | 'http:'): string {
  const copy = new URL(url);
  copy.protocol = protocol;
  return copy.href;
}

/** True when `host` is the target's host or another name of its registrable domain (www., cdn.). */
export function sameSite(host: string, targetHost: string, domain: string | undefined): boolean {
  const h = host.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
  const t = targetHost.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
  if (h === t) return true;
  if (!domain) return false;
  const d = domain.toLowerCase();
  return h === d || h.endsWith(`.${d}`);
}

/**
 * The origin whose paths belong to the site: the last URL of the redirect chain that is still on
 * the target's registrable domain (a redirect to a payment provider or a parking page is not the
 * customer's server).
 */
export function siteOrigin(response: Pick<HttpResponse, 'url' | 'redirects'>, targetHost: string, domain: string | undefined, fallback: string): string {
  const urls = [...response.redirects.map((hop) => hop.url), response.url];
  for (const url of urls.reverse()) {
    const parsed = new URL(url);
    if (sameSite(parsed.hostname, targetHost, domain)) return parsed.origin;
  }
  return new URL(fallback).origin;
}

/**
 * GET the target's page (redirects followed), over the scheme it was given and, when that gets no
 * answer at all, over the other one. Throws when neither answers.
 */
export async function fetchLanding(
  client: HttpClient,
  target: { url: string; host: string },
  domain: string | undefined,
  options: { signal: AbortSignal; timeoutMs: number; maxBodyBytes: number },
): Promise<Landing> {
  const first = target.url;
  const second = withScheme(target.url, new URL(target.url).protocol === 'https:' ? 'http:' : 'https:');
  const errors: string[] = [];
  for (const url of [first, second]) {
    const attempts = errors.length + 1;
    let response: HttpResponse;
    try {
      response = await client.request(url, {
        followRedirects: LANDING_REDIRECTS,
        timeoutMs: options.timeoutMs,
        maxBodyBytes: options.maxBodyBytes,
        signal: options.signal,
      });
    } catch (error) {
      if (options.signal.aborted) throw error;
      const err = error as { code?: unknown; message?: unknown };
      errors.push(`${new URL(url).protocol.slice(0, -1)}: ${[err.code, err.message].filter((p) => typeof p === 'string' && p).join(': ') || String(error)}`);
      continue;
    }
    // A challenge or a rate limit is not the site's landing page: the check is kept out, not run on it.
    assertSiteSeen(response);
    return { response, origin: siteOrigin(response, target.host, domain, url), attempts };
  }
  throw new Error(`The site answered neither over HTTPS nor over HTTP (${errors.join('; ')})`);
}
