/**
 * Pwned Passwords k-anonymity check (https://haveibeenpwned.com/API/v3#PwnedPasswords), for refusing
 * breached passwords at sign-up. Only the first 5 hex characters of the password's SHA-1 leave the
 * machine: `GET {base}/range/{prefix}` answers every known suffix under that prefix as `SUFFIX:COUNT`
 * lines, and the match is made here. `Add-Padding: true` makes the service pad the answer with
 * random suffixes counted 0 (so its size does not hint at the prefix); those never count as a match.
 * No key, no rate limit.
 */
import { createHash } from 'node:crypto';

export const PWNED_PASSWORDS_URL = 'https://api.pwnedpasswords.com';
const DEFAULT_TIMEOUT_MS = 8_000;

export interface PasswordCheck {
  /** True when the password appears in at least one breach corpus. */
  pwned: boolean;
  /** How many times it was seen (0 when not pwned). */
  count: number;
}

export interface PwnedPasswordsOptions {
  /** Default `https://api.pwnedpasswords.com`. */
  baseUrl?: string;
  signal?: AbortSignal;
  /** Sent as `user-agent` (the service asks consumers to name themselves). */
  userAgent?: string;
  /** When the service does not answer (default 8 s). */
  timeoutMs?: number;
}

/** The service could not answer; the caller decides whether sign-up goes on without the check. */
export class PwnedPasswordsError extends Error {
  readonly code = 'pwned-passwords-unavailable';
  constructor(message: string) {
    super(message);
    this.name = 'PwnedPasswordsError';
  }
}

/** The password's SHA-1 (upper-case hex) split into the 5-character prefix that is sent and the suffix that is not. */
export function passwordRange(password: string): { prefix: string; suffix: string } {
  const hash = createHash('sha1').update(password, 'utf8').digest('hex').toUpperCase();
  return { prefix: hash.slice(0, 5), suffix: hash.slice(5) };
}

/** One known suffix of a range: 35 upper-case hex characters, and how often it was seen (> 0). */
export interface RangeEntry {
  suffix: string;
  count: number;
}

const SUFFIX = /^[0-9A-F]{35}$/;
const PREFIX = /^[0-9A-F]{5}$/;

/** Whether a hash prefix is what the range API takes: exactly 5 hex characters (either case). */
export function isRangePrefix(prefix: string): boolean {
  return PREFIX.test(prefix.toUpperCase());
}

/** The entries of a range answer: padding lines (count 0) and malformed lines are dropped, suffixes upper-cased. */
export function parseRange(body: string): RangeEntry[] {
  const entries: RangeEntry[] = [];
  for (const line of body.split(/\r?\n/)) {
    const [candidate, count] = line.trim().split(':');
    const suffix = candidate?.toUpperCase() ?? '';
    const n = Number(count);
    if (SUFFIX.test(suffix) && Number.isInteger(n) && n > 0) entries.push({ suffix, count: n });
  }
  return entries;
}

/** How often `suffix` appears in a range answer; padding lines (count 0) and malformed lines are ignored. */
export function countInRange(body: string, suffix: string): number {
  const wanted = suffix.toUpperCase();
  return parseRange(body).find((entry) => entry.suffix === wanted)?.count ?? 0;
}

/**
 * Every known suffix under a 5-hex-character prefix (`GET {base}/range/{PREFIX}`, padded), padding
 * dropped. Throws `PwnedPasswordsError` when the service cannot answer, and the signal's reason
 * when aborted. The one piece of code that talks to the range API.
 */
export async function fetchPasswordRange(prefix: string, options: PwnedPasswordsOptions = {}): Promise<RangeEntry[]> {
  const wanted = prefix.toUpperCase();
  if (!PREFIX.test(wanted)) throw new RangeError('A range prefix is exactly 5 hex characters');
  const base = (options.baseUrl ?? PWNED_PASSWORDS_URL).replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const signal = options.signal ? AbortSignal.any([options.signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs);
  try {
    const response = await fetch(`${base}/range/${wanted}`, {
      headers: { 'add-padding': 'true', ...(options.userAgent ? { 'user-agent': options.userAgent } : {}) },
      redirect: 'error',
      signal,
    });
    const body = await response.text();
    if (response.status !== 200) throw new PwnedPasswordsError(`Pwned Passwords answered HTTP ${response.status}`);
    return parseRange(body);
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    if (error instanceof PwnedPasswordsError) throw error;
    const err = error as Error & { cause?: { code?: string } };
    throw new PwnedPasswordsError(
      err.name === 'TimeoutError' ? `Pwned Passwords did not answer within ${timeoutMs} ms` : `Pwned Passwords could not be reached (${err.cause?.code ?? err.message})`,
    );
  }
}

/**
 * Whether a password is known from breaches, by k-anonymity range search. Throws
 * `PwnedPasswordsError` when the service cannot answer, and the signal's reason when aborted.
 */
export async function isPasswordPwned(password: string, options: PwnedPasswordsOptions = {}): Promise<PasswordCheck> {
  const { prefix, suffix } = passwordRange(password);
  const count = (await fetchPasswordRange(prefix, options)).find((entry) => entry.suffix === suffix)?.count ?? 0;
  return { pwned: count > 0, count };
}
