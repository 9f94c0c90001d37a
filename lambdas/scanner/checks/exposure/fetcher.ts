/**
 * A bounded GET helper for checks that read many paths of one site (exposure, wordpress): never
 * more than `maxRequests` requests, at most `concurrency` at a time, each body capped, and no new
 * request once the check's own stop time has passed, so what was measured is kept and reported
 * as incomplete instead of the whole check ending as a timeout. Only GET: HEAD answers are not
 * trusted (many servers send 200 to HEAD for anything, or no length), and the scanner never POSTs.
 */
import type { HttpClient, HttpHeaders, HttpResponse } from '../../net/http-client.js';

/** What one GET brought back, as the pure analyses read it. */
export interface Sample {
  /** The path (and query) asked for, relative to the site origin: `/.git/HEAD`. */
  path: string;
  /** The URL of the final response (after redirects, when they were followed). */
  url: string;
  status: number;
  headers: HttpHeaders;
  /** The body, cut at the request's cap. */
  body: string;
  /** Bytes of body received (up to the cap). */
  bytes: number;
  truncated: boolean;
  /** Each redirect followed before this response. */
  redirects: HttpResponse['redirects'];
}

/** A GET that got no response: refused, timed out, reset, or not sent because the budget ran out. */
export interface FetchFailure {
  path: string;
  error: string;
}

/** Where a fetcher sends its GETs and the bounds it keeps. */
export interface FetcherOptions {
  client: HttpClient;
  /** Scheme, host and port every path is appended to: `https://shop.example`. */
  origin: string;
  signal: AbortSignal;
  /** performance.now() after which no request starts (the check's budget minus time to analyze). */
  stopAt: number;
  maxRequests: number;
  concurrency: number;
  /** Default body cap. */
  maxBodyBytes: number;
  /** Per-request ceiling; also never past stopAt. */
  timeoutMs: number;
}

/** Per-request overrides (a smaller cap for a file read only to be identified). */
export interface GetOptions {
  maxBodyBytes?: number;
  followRedirects?: number;
  headers?: Record<string, string>;
}

/** Bounded GETs on one origin. */
export interface Fetcher {
  /** GET `path` (or an absolute URL) on the origin; never throws. */
  get(path: string, options?: GetOptions): Promise<Sample | FetchFailure>;
  /** Requests started so far. */
  readonly sent: number;
  /** True when a request was not sent because the request cap or the stop time was reached. */
  readonly incomplete: boolean;
}

/** The slowest answer still worth waiting for once the stop time is near. */
const MIN_TIMEOUT_MS = 300;

/** True when the GET got a response (of any status). */
export function isSample(result: Sample | FetchFailure): result is Sample {
  return 'status' in result;
}

/** Builds a fetcher whose queue holds requests beyond `concurrency` until a slot frees up. */
export function createFetcher(options: FetcherOptions): Fetcher {
  let sent = 0;
  let incomplete = false;
  let running = 0;
  const waiting: (() => void)[] = [];

  const slot = async () => {
    if (running >= options.concurrency) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
  };
  const release = () => {
    running--;
    waiting.shift()?.();
  };

  async function get(path: string, getOptions: GetOptions = {}): Promise<Sample | FetchFailure> {
    await slot();
    try {
      const left = options.stopAt - performance.now();
      if (sent >= options.maxRequests || left < MIN_TIMEOUT_MS || options.signal.aborted) {
        incomplete = true;
        return { path, error: 'not sent: the check had used its request budget or time' };
      }
      sent++;
      const url = /^https?:\/\//i.test(path) ? path : `${options.origin}${path}`;
      const response = await options.client.request(url, {
        method: 'GET',
        followRedirects: getOptions.followRedirects ?? 0,
        maxBodyBytes: getOptions.maxBodyBytes ?? options.maxBodyBytes,
        // AbortSignal.timeout takes whole milliseconds only.
        timeoutMs: Math.floor(Math.max(MIN_TIMEOUT_MS, Math.min(options.timeoutMs, left))),
        signal: options.signal,
        ...(getOptions.headers ? { headers: getOptions.headers } : {}),
      });
      return toSample(path, response);
    } catch (error) {
      const err = error as { code?: unknown; message?: unknown };
      return { path, error: [err.code, err.message].filter((part) => typeof part === 'string' && part).join(': ') || String(error) };
    } finally {
      release();
    }
  }

  return {
    get,
    get sent() {
      return sent;
    },
    get incomplete() {
      return incomplete;
    },
  };
}

/** An HTTP response as a Sample, so analyses read every response the same way. */
export function toSample(path: string, response: HttpResponse): Sample {
  return {
    path,
    url: response.url,
    status: response.status,
    headers: response.headers,
    body: response.body,
    bytes: Buffer.byteLength(response.body, 'utf8'),
    truncated: response.bodyTruncated === true,
    redirects: response.redirects,
  };
}
