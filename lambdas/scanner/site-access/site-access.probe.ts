/**
 * DECISIONS "Blocked is a result": before any check reads the site's pages, the scan loads the
 * landing page once, as a browser would (redirects followed; over http when https does not
 * answer), and asks whether what came back is the site or a wall in front of it. (A rate limit
 * with a `Retry-After` the deadline allows is waited out once by the scan's polite HTTP client.)
 */
import type { HttpClient, HttpResponse } from '../net/http-client.js';
import { detectBlock, type SiteBlock } from './block.js';

export interface SiteAccess {
  /** The landing page as the scanner got it (null when neither scheme answered). */
  landing: { url: string; status: number } | null;
  /** The wall in front of the site; null when the scanner saw the site itself (or nothing at all). */
  block: SiteBlock | null;
  /** Why neither scheme answered, when neither did. */
  error?: string;
  /** The URL that answered: the target's, or the same address over http when https did not answer at all. */
  askedUrl?: string;
}

export interface SiteAccessOptions {
  signal: AbortSignal;
  timeoutMs?: number;
  maxRedirects?: number;
}

const LANDING_TIMEOUT_MS = 7_000;
const LANDING_MAX_BYTES = 64 * 1024;

/** The target URL with another scheme (an explicit port stays). */
function withScheme(url: string, protocol: 'https:' | 'http:'): string {
  const copy = new URL(url);
  copy.protocol = protocol;
  return copy.href;
}

function describe(error: unknown): string {
  const err = error as { code?: unknown; message?: unknown };
  return [typeof err.code === 'string' ? err.code : undefined, typeof err.message === 'string' ? err.message : String(error)].filter(Boolean).join(': ');
}

/** Loads the landing page once and reads it for a wall. */
export async function probeSiteAccess(client: HttpClient, targetUrl: string, options: SiteAccessOptions): Promise<SiteAccess> {
  const load = async (): Promise<{ response: HttpResponse; askedUrl: string }> => {
    const ask = async (url: string) => ({
      response: await client.request(url, { followRedirects: options.maxRedirects ?? 5, timeoutMs: options.timeoutMs ?? LANDING_TIMEOUT_MS, maxBodyBytes: LANDING_MAX_BYTES, signal: options.signal }),
      askedUrl: url,
    });
    try {
      return await ask(targetUrl);
    } catch (error) {
      // A site without HTTPS is still a site: a browser typing the name would land on http.
      if (new URL(targetUrl).protocol !== 'https:' || options.signal.aborted) throw error;
      try {
        return await ask(withScheme(targetUrl, 'http:'));
      } catch {
        throw error;
      }
    }
  };
  try {
    const { response, askedUrl } = await load();
    return { landing: { url: response.url, status: response.status }, block: detectBlock(response), askedUrl };
  } catch (error) {
    return { landing: null, block: null, error: describe(error) };
  }
}
