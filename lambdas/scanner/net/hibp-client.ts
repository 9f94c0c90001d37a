/**
 * Have I Been Pwned API v3 client (https://haveibeenpwned.com/API/v3), on the global `fetch`.
 *
 * - Every call sends the `hibp-api-key` and a descriptive `user-agent` (HIBP answers 403 without one).
 * - `breachedAccount` asks for the full breach model (`truncateResponse=false`: v3 truncates to
 *   names by default); 404 means "not in any breach" and becomes `[]`.
 * - 429 carries `retry-after` (seconds): the client waits that long, when it fits in
 *   `maxRetryWaitMs` and the caller's signal, at most twice; then it answers `rate-limited`.
 * - 401/403 become `unauthorized`; anything else unexpected becomes `error`. Only an abort by the
 *   caller's own signal throws.
 * - Client-side pacing: at most `rateLimit.requests` lookups in any `rateLimit.windowMs`, shared by
 *   every lookup of one client instance. The default (10 a minute) is the cheapest plan's rate
 *   (Pwned 1), so a scan of N addresses cannot exceed the plan whatever N is.
 * - Across processes (issue 30 item 6): the plan's rate is the key's, not a process's, and up to ten
 *   scan workers run at once. With `sharedLimit` (the table's counter, lambdas/composition/scanner.ts)
 *   every request also takes a slot of the plan's rate shared by all of them, waiting for the next
 *   window when it fits `maxRetryWaitMs`, else answering `rate-limited`.
 *
 * Results never carry the email address or the key, so they may be logged.
 */
import * as z from 'zod';
import { isPasswordPwned, PWNED_PASSWORDS_URL, type PasswordCheck } from '../pwned-passwords.js';

export const HIBP_BASE_URL = 'https://haveibeenpwned.com/api/v3';
/** Pwned 1, HIBP's cheapest subscription, allows 10 requests a minute; higher plans allow more. */
export const HIBP_DEFAULT_RATE_LIMIT = { requests: 10, windowMs: 60_000 } as const;
/** How often a 429 is retried before the lookup gives up as `rate-limited`. */
export const HIBP_MAX_RETRIES = 2;
const DEFAULT_MAX_RETRY_WAIT_MS = 3_000;
const DEFAULT_REQUEST_TIMEOUT_MS = 8_000;
/** HIBP always sends retry-after with a 429; this is only for an answer that lacks it. */
const FALLBACK_RETRY_AFTER_SECONDS = 2;

/** One breach, from HIBP's breach model (the fields Rampart uses; HIBP adds fields without versioning). */
export interface Breach {
  /** Stable, unique name (e.g. `Adobe`). */
  name: string;
  /** Display title. */
  title: string;
  /** The breached site's domain ('' when HIBP has none, e.g. spam lists). */
  domain: string;
  /** When the breach happened (YYYY-MM-DD; HIBP calls it a guide only). */
  breachDate: string;
  /** When HIBP loaded it (ISO 8601), i.e. when the data was known to circulate. */
  addedDate: string | undefined;
  pwnCount: number | undefined;
  /** What the breach exposed: `Email addresses`, `Passwords`, `Names` … */
  dataClasses: string[];
  isVerified: boolean;
  isFabricated: boolean;
  isSensitive: boolean;
  isSpamList: boolean;
}

/** A domain search: each breached alias (the part before `@`) and the names of its breaches. */
export type DomainBreaches = Record<string, string[]>;

export type LookupOutcome = 'ok' | 'rate-limited' | 'unauthorized' | 'error';

/** A lookup's result: the value, or why there is none (no email address or key in `reason`). */
export type LookupResult<T> =
  | { outcome: 'ok'; value: T }
  | { outcome: Exclude<LookupOutcome, 'ok'>; reason: string; status?: number; retryAfterSeconds?: number };

export interface LookupOptions {
  /** Aborts the lookup, including any wait for the rate limit (the promise then rejects with its reason). */
  signal?: AbortSignal;
}

/** What the breaches check needs: the port the HIBP client implements (tests may give their own). */
export interface BreachLookup {
  /** Every breach an email address appears in; `[]` when HIBP knows none. */
  breachedAccount(email: string, options?: LookupOptions): Promise<LookupResult<Breach[]>>;
  /** Every breached alias on a domain verified in HIBP's dashboard by the key's owner; `{}` when none. */
  breachedDomain(domain: string, options?: LookupOptions): Promise<LookupResult<DomainBreaches>>;
}

export interface HibpClient extends BreachLookup {
  /** Pwned Passwords k-anonymity lookup (no key, no rate limit): see `pwned-passwords.ts`. */
  isPasswordPwned(password: string, options?: LookupOptions): Promise<PasswordCheck>;
}

/** One slot of a rate shared by every process using the key (a table counter): taken, or when the next window opens. */
export interface SharedRateLimit {
  take(): Promise<{ allowed: true } | { allowed: false; retryAfterMs: number }>;
}

export interface HibpClientOptions {
  apiKey: string;
  /** Default `https://haveibeenpwned.com/api/v3`. */
  baseUrl?: string;
  /** Default `https://api.pwnedpasswords.com`. */
  passwordsBaseUrl?: string;
  /** Names the consumer, as HIBP asks (e.g. `Rampart-security-scanner`); required. */
  userAgent: string;
  /**
   * The longest one lookup waits for the rate limit, HIBP's `retry-after` or the client's own
   * pacing (default 3 s). A longer wait is not started: the lookup answers `rate-limited` at once.
   */
  maxRetryWaitMs?: number;
  /** At most `requests` lookups in any `windowMs` (default 10 a minute: the cheapest plan). */
  rateLimit?: { requests: number; windowMs: number };
  /** Per-request timeout when HIBP does not answer (default 8 s). */
  requestTimeoutMs?: number;
  /** The plan's rate shared with every other process using the key; none: this process's pacing only. */
  sharedLimit?: SharedRateLimit;
}

const breachSchema = z
  .object({
    Name: z.string().min(1),
    Title: z.string().optional(),
    Domain: z.string().optional(),
    BreachDate: z.string().regex(/^\d{4}-\d{2}-\d{2}/),
    AddedDate: z.string().optional(),
    PwnCount: z.number().optional(),
    DataClasses: z.array(z.string()).default([]),
    IsVerified: z.boolean().default(true),
    IsFabricated: z.boolean().default(false),
    IsSensitive: z.boolean().default(false),
    IsSpamList: z.boolean().default(false),
  })
  .transform(
    (b): Breach => ({
      name: b.Name,
      title: b.Title ?? b.Name,
      domain: b.Domain ?? '',
      breachDate: b.BreachDate.slice(0, 10),
      addedDate: b.AddedDate,
      pwnCount: b.PwnCount,
      dataClasses: b.DataClasses,
      isVerified: b.IsVerified,
      isFabricated: b.IsFabricated,
      isSensitive: b.IsSensitive,
      isSpamList: b.IsSpamList,
    }),
  );
const accountAnswer = z.array(breachSchema);
const domainAnswer = z.record(z.string(), z.array(z.string()));

/** Reads a `breachedaccount` answer (HIBP's PascalCase breach model); undefined when it is not one (a truncated answer, say). */
export function readBreaches(json: unknown): Breach[] | undefined {
  const parsed = accountAnswer.safeParse(json);
  return parsed.success ? parsed.data : undefined;
}

/** Reads a `breacheddomain` answer: alias → breach names; undefined when it is not one. */
export function readDomainBreaches(json: unknown): DomainBreaches | undefined {
  const parsed = domainAnswer.safeParse(json);
  return parsed.success ? parsed.data : undefined;
}

/**
 * Sliding-window pacing: a request may go only while fewer than `requests` others reached HIBP in
 * the last `windowMs`. HIBP counts arrivals, which the client cannot see, so a request counts from
 * the moment it is sent until its answer is in, and then at the time of the answer (never before
 * its arrival): a slow answer cannot make the next request arrive inside the window.
 */
export function createPacer(rate: { requests: number; windowMs: number }, now: () => number = Date.now) {
  const entries: { at: number; answered: boolean }[] = [];
  let blockedUntil = 0;
  return {
    /** How long to wait before the next request may go (0 = now). */
    waitMs(): number {
      const t = now();
      for (let i = entries.length - 1; i >= 0; i -= 1) {
        if (entries[i]!.answered && entries[i]!.at <= t - rate.windowMs) entries.splice(i, 1);
      }
      const times = entries.map((e) => (e.answered ? e.at : Math.max(e.at, t))).sort((a, b) => a - b);
      let at = Math.max(t, blockedUntil);
      if (times.length >= rate.requests) at = Math.max(at, times[times.length - rate.requests]! + rate.windowMs);
      return at - t;
    },
    /** Takes a slot now (when `waitMs()` is 0); call the returned function once the answer is in. */
    take(): () => void {
      const entry = { at: now(), answered: false };
      entries.push(entry);
      return () => {
        entry.at = now();
        entry.answered = true;
      };
    },
    /** HIBP said to wait (429 + retry-after): no request of this client goes before `untilMs`. */
    blockUntil(untilMs: number) {
      blockedUntil = Math.max(blockedUntil, untilMs);
    },
  };
}

/** Creates the HIBP client. Build it once (composition) so its pacing spans every scan of the process. */
export function createHibpClient(options: HibpClientOptions): HibpClient {
  if (!options.apiKey.trim()) throw new Error('createHibpClient: apiKey is empty');
  if (!options.userAgent.trim()) throw new Error('createHibpClient: userAgent is empty (HIBP answers 403 without one)');
  const baseUrl = (options.baseUrl ?? HIBP_BASE_URL).replace(/\/+$/, '');
  const passwordsBaseUrl = options.passwordsBaseUrl ?? PWNED_PASSWORDS_URL;
  const maxWaitMs = options.maxRetryWaitMs ?? DEFAULT_MAX_RETRY_WAIT_MS;
  const timeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const rate = options.rateLimit ?? HIBP_DEFAULT_RATE_LIMIT;
  if (!(rate.requests >= 1 && rate.windowMs > 0)) throw new Error('createHibpClient: rateLimit needs at least 1 request in a positive window');
  const pacer = createPacer(rate);

  async function get<T>(path: string, parse: (body: unknown) => T | undefined, empty: T, signal: AbortSignal | undefined): Promise<LookupResult<T>> {
    let throttled = false;
    for (let attempt = 0; ; attempt += 1) {
      // Wait for the pacing (and any retry-after), but never start a wait past this attempt's allowance.
      const waitUntil = Date.now() + maxWaitMs;
      for (let wait = pacer.waitMs(); wait > 0; wait = pacer.waitMs()) {
        if (Date.now() + wait > waitUntil) {
          const seconds = Math.ceil(wait / 1000);
          const why = throttled ? 'Have I Been Pwned answered 429 (too many requests)' : `The client's pacing (${rate.requests} lookups per ${rate.windowMs / 1000} s) is used up`;
          return {
            outcome: 'rate-limited',
            ...(throttled ? { status: 429 } : {}),
            retryAfterSeconds: seconds,
            reason: `${why}: the next lookup may go in ${seconds} s, longer than the ${maxWaitMs} ms one lookup may wait`,
          };
        }
        await sleep(wait, signal);
      }
      // The key's rate across processes: a slot now, or a wait for the next window that fits this attempt's allowance.
      if (options.sharedLimit) {
        for (;;) {
          const slot = await options.sharedLimit.take();
          if (slot.allowed) break;
          if (Date.now() + slot.retryAfterMs > waitUntil) {
            const seconds = Math.max(1, Math.ceil(slot.retryAfterMs / 1000));
            return {
              outcome: 'rate-limited',
              retryAfterSeconds: seconds,
              reason: `The plan's rate (${rate.requests} lookups a minute, shared by every scanner) is used up: the next lookup may go in ${seconds} s, longer than the ${maxWaitMs} ms one lookup may wait`,
            };
          }
          await sleep(slot.retryAfterMs, signal);
        }
      }

      let response: Response;
      let body: string;
      const answered = pacer.take();
      const requestSignal = signal ? AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs);
      try {
        response = await fetch(`${baseUrl}${path}`, {
          headers: { 'hibp-api-key': options.apiKey, 'user-agent': options.userAgent, accept: 'application/json' },
          // The key travels in a custom header, which fetch would carry across a redirect to any host.
          redirect: 'error',
          signal: requestSignal,
        });
        body = await response.text().catch(() => '');
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        return { outcome: 'error', reason: describeFetchError(error, timeoutMs) };
      } finally {
        answered();
      }

      const status = response.status;
      if (status === 200) {
        let json: unknown;
        try {
          json = JSON.parse(body);
        } catch {
          return { outcome: 'error', status, reason: 'Have I Been Pwned answered 200 with a body that is not JSON' };
        }
        const value = parse(json);
        return value === undefined
          ? { outcome: 'error', status, reason: 'Have I Been Pwned answered 200 with a body that is not the documented breach model' }
          : { outcome: 'ok', value };
      }
      if (status === 404) return { outcome: 'ok', value: empty };
      if (status === 401) return { outcome: 'unauthorized', status, reason: `Have I Been Pwned refused the API key (401${detail(body)})` };
      if (status === 403) {
        return { outcome: 'unauthorized', status, reason: `Have I Been Pwned refused the request (403${detail(body)}): the user agent is missing, or the key's plan or domain verification does not allow this lookup` };
      }
      if (status === 429) {
        const retryAfterSeconds = parseRetryAfter(response.headers.get('retry-after'));
        pacer.blockUntil(Date.now() + retryAfterSeconds * 1000);
        throttled = true;
        if (attempt >= HIBP_MAX_RETRIES) {
          return { outcome: 'rate-limited', status, retryAfterSeconds, reason: `Have I Been Pwned answered 429 (too many requests) ${attempt + 1} times; retry after ${retryAfterSeconds} s` };
        }
        continue;
      }
      return { outcome: 'error', status, reason: `Have I Been Pwned answered HTTP ${status}${detail(body)}` };
    }
  }

  return {
    breachedAccount: (email, lookup = {}) =>
      get(
        `/breachedaccount/${encodeURIComponent(email.trim())}?truncateResponse=false`,
        readBreaches,
        [],
        lookup.signal,
      ),
    breachedDomain: (domain, lookup = {}) =>
      get(
        `/breacheddomain/${encodeURIComponent(domain.trim().toLowerCase())}`,
        readDomainBreaches,
        {},
        lookup.signal,
      ),
    isPasswordPwned: (password, lookup = {}) =>
      isPasswordPwned(password, { baseUrl: passwordsBaseUrl, userAgent: options.userAgent, signal: lookup.signal, timeoutMs }),
  };
}

/** `retry-after` is delta-seconds (what HIBP sends) or an HTTP date; rounded up, never below 1 s. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number {
  if (value === null || value.trim() === '') return FALLBACK_RETRY_AFTER_SECONDS;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.max(1, Math.ceil(Number(trimmed)));
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? FALLBACK_RETRY_AFTER_SECONDS : Math.max(1, Math.ceil((date - now) / 1000));
}

/** A short, single-line excerpt of an error body: HIBP's `message` when it is JSON (`{statusCode, message}`), else the text. */
function detail(body: string): string {
  let message = body;
  try {
    const json = JSON.parse(body) as { message?: unknown };
    if (typeof json.message === 'string') message = json.message;
  } catch {
    // Not JSON: keep the text.
  }
  const text = message.replace(/\s+/g, ' ').trim().slice(0, 160);
  return text ? `: ${text}` : '';
}

function describeFetchError(error: unknown, timeoutMs: number): string {
  const err = error as Error & { cause?: { code?: string; message?: string } };
  if (err.name === 'TimeoutError') return `Have I Been Pwned did not answer within ${timeoutMs} ms`;
  const cause = err.cause?.code ?? err.cause?.message;
  return `Have I Been Pwned could not be reached (${cause ?? err.message})`;
}

/** Waits `ms`, or rejects with the signal's reason when it aborts first. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
