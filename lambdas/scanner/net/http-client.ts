import http from 'node:http';
import { connect as netConnect, isIP, type LookupFunction, type Socket } from 'node:net';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { DomainError } from '../../domain/errors.js';
import { scannerUserAgent } from '../../domain/product.js';
import { isLoopbackName, refusedAddress } from '../target-guard.js';
import { readAsBrowser } from './browser-head.js';
import { trustingContext } from './trust-store.js';

/** Header names lower-cased; every value a header was sent with, in order (set-cookie!). */
export type HttpHeaders = Record<string, string[]>;

/** One response of a redirect chain that was followed. */
export interface HttpRedirect {
  url: string;
  status: number;
  location: string;
  /** The hop's own headers (a redirect may set cookies or HSTS). */
  headers?: HttpHeaders;
}

export interface HttpResponse {
  url: string;
  status: number;
  /** Header names lower-cased; repeated headers (set-cookie) keep every value. */
  headers: HttpHeaders;
  /** The body, cut at the request's maxBodyBytes (after decompression). */
  body: string;
  /** True when the body was longer than maxBodyBytes and was cut. */
  bodyTruncated?: boolean;
  /** Each hop followed before this response, in order. */
  redirects: HttpRedirect[];
  /** The address the final response came from. */
  address?: string;
  /**
   * Whether Node's root store trusted the certificate (chain and host name) of every HTTPS
   * response in the chain; undefined when no hop was HTTPS. Judging certificates is the TLS
   * check's job: this only says whether a browser would have shown the page without a warning.
   */
  certificateTrusted?: boolean;
  /** Why the first untrusted certificate was not trusted (an OpenSSL code such as DEPTH_ZERO_SELF_SIGNED_CERT). */
  certificateError?: string;
}

/** POST only with a body of Rampart's own (an alert destination's delivery), never to a scan target. */
export type HttpMethod = 'GET' | 'HEAD' | 'OPTIONS' | 'TRACE' | 'POST';

export interface HttpRequestOptions {
  method?: HttpMethod;
  headers?: Record<string, string>;
  /** How many redirects to follow (default 0: the 3xx itself is returned). */
  followRedirects?: number;
  /** Body bytes kept (default 256 KiB); the connection is closed once they have arrived. */
  maxBodyBytes?: number;
  /** For the whole exchange, redirects included (default 10 s). */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Sent as the request body (POST). */
  body?: string;
  /** Called with the URL of every hop (the first, then each redirect) before it is connected to; throws to refuse it (passive-net.ts: the browsers' restricted ports). */
  beforeHop?: (url: URL) => void;
}

/**
 * HTTP(S) GET/HEAD/OPTIONS/TRACE to the target's pinned addresses; redirects to other hosts are
 * resolved through the scanner's resolver and guarded like the target itself.
 */
export interface HttpClient {
  request(url: string, options?: HttpRequestOptions): Promise<HttpResponse>;
}

export interface HttpClientOptions {
  /** Host (lower case, no trailing dot) → the scan target's addresses, resolved once and already guarded: never resolved again. */
  pinned: ReadonlyMap<string, readonly string[]>;
  /** The scanner's resolver, for hosts a redirect leads to (A and AAAA together). */
  resolve: (host: string) => Promise<string[]>;
  /** Local development and tests only: lets requests reach private and loopback addresses. */
  allowPrivateTargets: boolean;
  userAgent?: string;
  /** PEM certificates trusted instead of Node's root store when judging `certificateTrusted` (tests). */
  ca?: string[];
  /**
   * Refuse an HTTPS peer whose certificate Node's trust store (or `ca`) does not accept, before anything
   * is sent: for requests that carry Rampart's own data (alert deliveries). The scanner itself only reports trust.
   */
  verifyCertificates?: boolean;
}

/**
 * Only for callers that name no deployment (tests, tools): every scan passes its own
 * `ScanSettings.userAgent` (DECISIONS "Scanner identity"), the local default's here.
 */
export const DEFAULT_USER_AGENT = scannerUserAgent('Rampart', 'http://localhost:3000');
export const DEFAULT_MAX_BODY_BYTES = 256 * 1024;
export const DEFAULT_HTTP_TIMEOUT_MS = 10_000;

/** A request (or a redirect) would reach an address the scanner must not touch. */
export class HttpTargetRefusedError extends DomainError {
  /** Without an address: the name itself means this machine (localhost and names under it). */
  constructor(host: string, address?: string) {
    super(
      'target_not_allowed',
      address
        ? `${host} resolves to ${address}, a private or reserved address. Rampart only scans sites on the public internet.`
        : `${host} is a name for this machine. Rampart only scans sites on the public internet.`,
      address ? { host, address } : { host },
    );
  }
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** Headers Node keeps once (a repeat is dropped); every other repeated header is joined with ", ". */
const SINGLE_VALUE_HEADERS = new Set([
  'age', 'authorization', 'content-length', 'content-type', 'etag', 'expires', 'from', 'host', 'if-modified-since',
  'if-unmodified-since', 'last-modified', 'location', 'max-forwards', 'proxy-authorization', 'referer', 'retry-after',
  'server', 'user-agent',
]);

/**
 * A header as a browser-like client (and the MDN Observatory, on Node) reads it: the first value
 * for single-valued headers, repeats joined with ", " otherwise; undefined when absent.
 */
export function headerValue(headers: Readonly<Record<string, readonly string[]>>, name: string): string | undefined {
  const values = headers[name.toLowerCase()];
  if (!values || values.length === 0) return undefined;
  return SINGLE_VALUE_HEADERS.has(name.toLowerCase()) ? values[0] : values.join(', ');
}

/**
 * Builds the scanner's HTTP client on node:http/node:https. Every connection goes to an address
 * that was guarded: the target's pinned addresses (given to the socket through `lookup`, so the
 * Host header and SNI carry the name while DNS is never asked again: no rebinding), or for any
 * other host, addresses from the scanner's resolver that pass the target guard — checked again
 * at every redirect hop.
 */
export function createHttpClient(options: HttpClientOptions): HttpClient {
  const userAgent = options.userAgent ?? DEFAULT_USER_AGENT;

  async function addressesFor(host: string, signal: AbortSignal): Promise<readonly string[]> {
    // The engine guarded the pinned addresses when it resolved the target (and let loopback through only when told to).
    const pinned = options.pinned.get(host);
    if (pinned && pinned.length > 0) return pinned;
    if (!options.allowPrivateTargets && isLoopbackName(host)) throw new HttpTargetRefusedError(host);
    const addresses = isIP(host) ? [host] : await abortable(options.resolve(host), signal);
    if (addresses.length === 0) {
      throw Object.assign(new Error(`${host} has no address`), { code: 'ENOTFOUND' });
    }
    const refused = refusedAddress(addresses, options.allowPrivateTargets);
    if (refused) throw new HttpTargetRefusedError(host, refused);
    return addresses;
  }

  return {
    async request(url, requestOptions = {}) {
      const timeoutMs = requestOptions.timeoutMs ?? DEFAULT_HTTP_TIMEOUT_MS;
      const deadline = AbortSignal.timeout(timeoutMs);
      const signal = requestOptions.signal ? AbortSignal.any([deadline, requestOptions.signal]) : deadline;
      const maxBodyBytes = requestOptions.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
      const follow = requestOptions.followRedirects ?? 0;
      let method: HttpMethod = requestOptions.method ?? 'GET';
      let current = parseUrl(url);
      const redirects: HttpRedirect[] = [];
      let trusted: boolean | undefined;
      let certificateError: string | undefined;

      try {
        for (;;) {
          requestOptions.beforeHop?.(current);
          const host = bareHost(current);
          const addresses = await addressesFor(host, signal);
          const exchanged = await exchange(current, host, method, addresses, {
            headers: { 'user-agent': userAgent, ...lowerCaseKeys(requestOptions.headers ?? {}) },
            maxBodyBytes,
            signal,
            ca: options.ca,
            verifyCertificates: options.verifyCertificates === true,
            ...(requestOptions.body === undefined ? {} : { body: requestOptions.body }),
          });
          if (exchanged.trusted !== undefined) {
            trusted = (trusted ?? true) && exchanged.trusted;
            certificateError ??= exchanged.certificateError;
          }
          const location = exchanged.headers.location?.[0];
          const next = location && REDIRECT_STATUSES.has(exchanged.status) ? redirectTarget(location, current) : undefined;
          if (!next || redirects.length >= follow) {
            return {
              url: current.href,
              status: exchanged.status,
              headers: exchanged.headers,
              body: exchanged.body,
              ...(exchanged.truncated ? { bodyTruncated: true } : {}),
              redirects,
              address: exchanged.address,
              ...(trusted === undefined ? {} : { certificateTrusted: trusted }),
              ...(certificateError ? { certificateError } : {}),
            };
          }
          redirects.push({ url: current.href, status: exchanged.status, location: location!, headers: exchanged.headers });
          // A POST is never followed anywhere: its body is not sent twice (a redirect may lead elsewhere).
          if (method === 'POST') throw Object.assign(new Error(`${current.host} answered ${exchanged.status} with a redirect`), { code: 'ERR_REDIRECT' });
          if (exchanged.status === 303 && method !== 'HEAD') method = 'GET';
          current = next;
        }
      } catch (error) {
        throw signal.aborted ? abortError(signal, deadline, current, timeoutMs) : error;
      }
    },
  };
}

interface Exchanged {
  status: number;
  headers: HttpHeaders;
  body: string;
  truncated: boolean;
  address?: string;
  trusted?: boolean;
  certificateError?: string;
}

/** One request on a fresh socket to one of `addresses`; the socket is destroyed once the answer (or the cap) is in. */
function exchange(
  url: URL,
  host: string,
  method: HttpMethod,
  addresses: readonly string[],
  options: { headers: Record<string, string>; maxBodyBytes: number; signal: AbortSignal; ca?: string[]; verifyCertificates?: boolean; body?: string },
): Promise<Exchanged> {
  const secure = url.protocol === 'https:';
  // Hands the socket the guarded addresses instead of asking DNS: the name is still used for Host and SNI.
  const lookup: LookupFunction = (_hostname, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, addresses.map((address) => ({ address, family: isIP(address) })));
    else callback(null, addresses[0]!, isIP(addresses[0]!));
  };
  const port = Number(url.port || (secure ? 443 : 80));
  // The socket is ours (not an agent's): its TLS state is read from it, and the client reads it through readAsBrowser.
  let socket: Socket | TLSSocket | undefined;
  const requestOptions: http.RequestOptions = {
    hostname: host,
    port,
    path: `${url.pathname}${url.search}`,
    method,
    headers: {
      host: url.host,
      accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
      'accept-encoding': 'gzip, deflate, br',
      ...options.headers,
    },
    // Read what browsers read: llhttp's lenient mode for this response only (control characters in
    // values, bare LF, Transfer-Encoding with Content-Length…), never process-wide, so Rampart's own
    // servers stay strict. A desync cannot hurt a client that sends one request per socket and closes it.
    insecureHTTPParser: true,
    createConnection: () => {
      socket = secure
        ? tlsConnect({ host, port, lookup, rejectUnauthorized: options.verifyCertificates === true, servername: isIP(host) ? undefined : host, ...(options.ca ? { secureContext: trustingContext(options.ca) } : {}) })
        : netConnect({ host, port, lookup });
      return readAsBrowser(socket) as Socket;
    },
  };

  return new Promise<Exchanged>((resolve, reject) => {
    const request = http.request(requestOptions);
    let settled = false;
    const cleanups: (() => void)[] = [];
    const finish = (outcome: { value?: Exchanged; error?: unknown }) => {
      if (settled) return;
      settled = true;
      options.signal.removeEventListener('abort', onAbort);
      request.destroy();
      for (const cleanup of cleanups) cleanup();
      if (outcome.value) resolve(outcome.value);
      else reject(outcome.error);
    };
    const onAbort = () => finish({ error: options.signal.reason });
    if (options.signal.aborted) return onAbort();
    options.signal.addEventListener('abort', onAbort, { once: true });

    let received: http.IncomingMessage | undefined;
    // Bytes after a complete response (past its Content-Length on a closing connection) are an error
    // to llhttp and nothing to a browser: the response already read stands.
    request.on('error', (error) => {
      if (!received?.complete) finish({ error });
    });
    request.on('response', (response) => {
      received = response;
      const tls = secure && socket && 'authorized' in socket ? socket : undefined;
      const base = {
        status: response.statusCode ?? 0,
        headers: headersOf(response.rawHeaders),
        address: socket?.remoteAddress,
        ...(tls
          ? { trusted: tls.authorized, ...(tls.authorized ? {} : { certificateError: String(tls.authorizationError ?? 'unknown') }) }
          : {}),
      };
      const chunks: Buffer[] = [];
      let size = 0;
      const done = (truncated: boolean) =>
        finish({ value: { ...base, body: Buffer.concat(chunks).toString('utf8'), truncated } });
      if (method === 'HEAD' || base.status === 204 || base.status === 304) return done(false);

      const decoded = decoder(response, headerValue(base.headers, 'content-encoding'));
      if (decoded !== response) cleanups.push(() => decoded.destroy());
      decoded.on('data', (chunk: Buffer) => {
        if (settled) return;
        const room = options.maxBodyBytes - size;
        if (chunk.length > room) {
          chunks.push(chunk.subarray(0, room));
          return done(true);
        }
        chunks.push(chunk);
        size += chunk.length;
      });
      decoded.on('end', () => done(false));
      // A body that stops halfway (reset, corrupt gzip) still leaves its headers and what arrived.
      decoded.on('error', () => done(true));
      response.on('error', () => done(true));
    });
    request.end(options.body);
  });
}

/** The response stream, decompressed when the server used gzip, deflate or brotli. */
function decoder(response: http.IncomingMessage, encoding: string | undefined): Readable {
  const coding = encoding?.trim().toLowerCase();
  const unzip =
    coding === 'gzip' || coding === 'x-gzip'
      ? zlib.createGunzip()
      : coding === 'deflate'
        ? zlib.createInflate()
        : coding === 'br'
          ? zlib.createBrotliDecompress()
          : undefined;
  if (!unzip) return response;
  response.on('error', (error) => unzip.destroy(error));
  return response.pipe(unzip);
}

function headersOf(raw: readonly string[]): HttpHeaders {
  const headers = new Map<string, string[]>();
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    const values = headers.get(name) ?? [];
    values.push(raw[i + 1]!);
    headers.set(name, values);
  }
  return Object.fromEntries(headers);
}

function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}

function parseUrl(url: string): URL {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw Object.assign(new Error(`Only http and https URLs can be requested, not ${parsed.protocol}`), { code: 'ERR_INVALID_URL_SCHEME' });
  }
  return parsed;
}

/** Where a redirect leads, or undefined when it leads somewhere a web client would not follow. */
function redirectTarget(location: string, base: URL): URL | undefined {
  try {
    const next = new URL(location, base);
    return next.protocol === 'http:' || next.protocol === 'https:' ? next : undefined;
  } catch {
    return undefined;
  }
}

/** The host as the pinned map and the guard know it: lower case, no IPv6 brackets, no trailing dot. */
function bareHost(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
}

function abortable<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function abortError(signal: AbortSignal, deadline: AbortSignal, url: URL, timeoutMs: number): Error {
  if (deadline.aborted) {
    return Object.assign(new Error(`No answer from ${url.host} within ${timeoutMs} ms`), { code: 'ETIMEDOUT' });
  }
  const reason: unknown = signal.reason;
  return Object.assign(new Error(reason instanceof Error ? reason.message : 'The request was aborted'), { code: 'ABORT_ERR' });
}
