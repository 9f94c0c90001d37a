/**
 * A loopback stand-in for Have I Been Pwned, speaking API v3 as documented
 * (https://haveibeenpwned.com/API/v3), so the client is tested against the contract, not a mock:
 *
 * - `GET /api/v3/breachedaccount/{account}`: 403 without a user agent; 401 with HIBP's texts for a
 *   missing, malformed (not 32 hex) or unknown `hibp-api-key`; 429 with `retry-after` (seconds)
 *   past the rate limit; 404 when the account is in no breach; otherwise 200 with the breaches,
 *   truncated to `{Name}` unless `truncateResponse=false` (v3's default is truncated), unverified
 *   ones dropped with `includeUnverified=false`, filtered by `domain=`.
 * - `GET /api/v3/breacheddomain/{domain}`: same headers; 403 for a domain not verified by the key's
 *   owner; 404 when no alias is breached; else 200 `{alias: [breach names]}`.
 * - `GET /range/{prefix}` (Pwned Passwords, no key): 400 unless 5 hex characters; 200 with
 *   `SUFFIX:COUNT` lines (CRLF), padded with random `SUFFIX:0` lines to 800–1000 when `Add-Padding: true`.
 *
 * Every request is recorded (path, headers, time) for the tests to assert on.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A breach as HIBP serialises it (PascalCase). */
export interface HibpBreachJson {
  Name: string;
  Title: string;
  Domain: string;
  BreachDate: string;
  AddedDate: string;
  ModifiedDate: string;
  PwnCount: number;
  Description: string;
  LogoPath: string;
  DataClasses: string[];
  IsVerified: boolean;
  IsFabricated: boolean;
  IsSensitive: boolean;
  IsRetired: boolean;
  IsSpamList: boolean;
  IsMalware: boolean;
  IsSubscriptionFree: boolean;
  IsStealerLog: boolean;
}

export interface HibpServerOptions {
  apiKey: string;
  /** Lower-cased address → the breaches it appears in. */
  accounts?: Record<string, HibpBreachJson[]>;
  /** Domains verified by the key's owner → their breached aliases and breach names. */
  domains?: Record<string, Record<string, string[]>>;
  /** Passwords known to Pwned Passwords, with how often each was seen. */
  passwords?: Record<string, number>;
  /** Per-key limit for the breach APIs (HIBP's per-plan requests per minute); none by default. */
  rateLimit?: { requests: number; windowMs: number };
  /** Padding lines that reuse these passwords' own suffixes with count 0 (a client must not count them). */
  paddingWithSuffixesOf?: string[];
}

export interface RecordedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  at: number;
  status: number;
}

export interface HibpServer {
  /** `http://127.0.0.1:{port}/api/v3`, the client's `baseUrl`. */
  apiBaseUrl: string;
  /** `http://127.0.0.1:{port}`, the Pwned Passwords `baseUrl`. */
  passwordsBaseUrl: string;
  requests: RecordedRequest[];
  /** Answers the next `times` breach API requests with 429 and `retry-after: {seconds}`. */
  throttle(times: number, retryAfterSeconds: number, retryAfterHeader?: string): void;
  close(): Promise<void>;
}

const FORBIDDEN_PORT = 2024;

/** Starts the server on a random loopback port (never 2024). */
export async function startHibpServer(options: HibpServerOptions): Promise<HibpServer> {
  const requests: RecordedRequest[] = [];
  const sent: number[] = [];
  let throttled: { times: number; header: string } | undefined;

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://hibp.local');
    const record = (status: number) => requests.push({ path: `${url.pathname}${url.search}`, headers: request.headers, at: Date.now(), status });
    const answer = (status: number, body: string, headers: Record<string, string> = {}) => {
      record(status);
      response.writeHead(status, { 'content-type': status === 200 && url.pathname.startsWith('/api/') ? 'application/json; charset=utf-8' : 'text/plain', ...headers });
      response.end(body);
    };
    if (request.method !== 'GET') return answer(405, 'Method not allowed');

    const range = /^\/range\/([^/]*)$/.exec(url.pathname);
    if (range) {
      const prefix = decodeURIComponent(range[1]!);
      if (!/^[0-9a-f]{5}$/i.test(prefix)) return answer(400, 'The hash prefix was not in a valid format');
      return answer(200, rangeBody(prefix.toUpperCase(), options, request.headers['add-padding'] === 'true'));
    }

    const api = /^\/api\/v3\/(breachedaccount|breacheddomain)\/([^/]+)$/.exec(url.pathname);
    if (!api) return answer(404, '');
    const userAgent = request.headers['user-agent'];
    if (!userAgent || !userAgent.trim()) return answer(403, 'Forbidden - a user agent must be specified with each request.');
    const key = request.headers['hibp-api-key'];
    if (key === undefined) return answer(401, JSON.stringify({ statusCode: 401, message: 'Access denied due to missing hibp-api-key.' }));
    if (typeof key !== 'string' || !/^[0-9a-f]{32}$/i.test(key)) {
      return answer(401, JSON.stringify({ statusCode: 401, message: 'Access denied due to improperly formed hibp-api-key.' }));
    }
    if (key !== options.apiKey) return answer(401, JSON.stringify({ statusCode: 401, message: 'Access denied due to invalid hibp-api-key.' }));

    const now = Date.now();
    if (throttled && throttled.times > 0) {
      throttled.times -= 1;
      return answer(429, JSON.stringify({ statusCode: 429, message: 'Rate limit is exceeded.' }), { 'retry-after': throttled.header });
    }
    if (options.rateLimit) {
      const { requests: limit, windowMs } = options.rateLimit;
      while (sent.length > 0 && sent[0]! <= now - windowMs) sent.shift();
      if (sent.length >= limit) {
        const seconds = Math.max(1, Math.ceil((sent[0]! + windowMs - now) / 1000));
        return answer(429, JSON.stringify({ statusCode: 429, message: `Rate limit is exceeded. Try again in ${seconds} seconds.` }), { 'retry-after': String(seconds) });
      }
      sent.push(now);
    }

    const subject = decodeURIComponent(api[2]!).toLowerCase();
    if (api[1] === 'breachedaccount') {
      let breaches = options.accounts?.[subject] ?? [];
      if (url.searchParams.get('includeUnverified') === 'false') breaches = breaches.filter((b) => b.IsVerified);
      const domain = url.searchParams.get('domain');
      if (domain) breaches = breaches.filter((b) => b.Domain.toLowerCase() === domain.toLowerCase());
      if (breaches.length === 0) return answer(404, '');
      const full = url.searchParams.get('truncateResponse') === 'false';
      return answer(200, JSON.stringify(full ? breaches : breaches.map((b) => ({ Name: b.Name }))));
    }
    const aliases = options.domains?.[subject];
    if (!aliases) return answer(403, JSON.stringify({ statusCode: 403, message: 'The domain has not been verified by the owner of this API key.' }));
    if (Object.keys(aliases).length === 0) return answer(404, '');
    return answer(200, JSON.stringify(aliases));
  });

  let port = FORBIDDEN_PORT;
  while (port === FORBIDDEN_PORT) {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    port = (server.address() as AddressInfo).port;
    if (port === FORBIDDEN_PORT) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  return {
    apiBaseUrl: `http://127.0.0.1:${port}/api/v3`,
    passwordsBaseUrl: `http://127.0.0.1:${port}`,
    requests,
    throttle(times, retryAfterSeconds, retryAfterHeader) {
      throttled = { times, header: retryAfterHeader ?? String(retryAfterSeconds) };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function sha1(text: string): string {
  return createHash('sha1').update(text, 'utf8').digest('hex').toUpperCase();
}

function rangeBody(prefix: string, options: HibpServerOptions, padding: boolean): string {
  const lines = new Map<string, number>();
  for (const [password, count] of Object.entries(options.passwords ?? {})) {
    const hash = sha1(password);
    if (hash.startsWith(prefix)) lines.set(hash.slice(5), count);
  }
  if (padding) {
    for (const password of options.paddingWithSuffixesOf ?? []) {
      const hash = sha1(password);
      if (hash.startsWith(prefix) && !lines.has(hash.slice(5))) lines.set(hash.slice(5), 0);
    }
    const target = 800 + Math.floor(Math.random() * 201);
    while (lines.size < target) {
      const suffix = randomBytes(18).toString('hex').toUpperCase().slice(0, 35);
      if (!lines.has(suffix)) lines.set(suffix, 0);
    }
  }
  return [...lines.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([suffix, count]) => `${suffix}:${count}`)
    .join('\r\n');
}

/** A breach in HIBP's serialisation, with the given fields over plausible defaults. */
export function hibpBreach(fields: Partial<HibpBreachJson> & Pick<HibpBreachJson, 'Name' | 'BreachDate' | 'DataClasses'>): HibpBreachJson {
  return {
    Title: fields.Name,
    Domain: `${fields.Name.toLowerCase()}.com`,
    AddedDate: `${fields.BreachDate}T00:00:00Z`,
    ModifiedDate: `${fields.BreachDate}T00:00:00Z`,
    PwnCount: 1000,
    Description: `In ${fields.BreachDate.slice(0, 4)}, <a href="https://example.com">${fields.Name}</a> suffered a data breach.`,
    LogoPath: `https://haveibeenpwned.com/Content/Images/PwnedLogos/${fields.Name}.png`,
    IsVerified: true,
    IsFabricated: false,
    IsSensitive: false,
    IsRetired: false,
    IsSpamList: false,
    IsMalware: false,
    IsSubscriptionFree: false,
    IsStealerLog: false,
    ...fields,
  };
}
