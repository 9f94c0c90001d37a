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

/** How often `suffix` appears in a range answer; padding lines (count 0) and malformed lines are ignored. */
export function countInRange(body: string, suffix: string): number {
  const wanted = suffix.toUpperCase();
  for (const line of body.split(/\r?\n/)) {
    const [candidate, count] = line.trim().split(':');
    if (candidate?.toUpperCase() !== wanted) continue;
    const n = Number(count);
    if (Number.isInteger(n) && n > 0) return n;
  }
  return 0;
}

/**
 * Whether a password is known from breaches, by k-anonymity range search. Throws
 * `PwnedPasswordsError` when the service cannot answer, and the signal's reason when aborted.
 */
export async function isPasswordPwned(password: string, options: PwnedPasswordsOptions = {}): Promise<PasswordCheck> {
  const { prefix, suffix } = passwordRange(password);
  const base = (options.baseUrl ?? PWNED_PASSWORDS_URL).replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const signal = options.signal ? AbortSignal.any([options.signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs);
  let body: string;
  try {
    const response = await fetch(`${base}/range/${prefix}`, {
      headers: { 'add-padding': 'true', ...(options.userAgent ? { 'user-agent': options.userAgent } : {}) },
      redirect: 'error',
      signal,
    });
    body = await response.text();
    if (response.status !== 200) throw new PwnedPasswordsError(`Pwned Passwords answered HTTP ${response.status}`);
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    if (error instanceof PwnedPasswordsError) throw error;
    const err = error as Error & { cause?: { code?: string } };
    throw new PwnedPasswordsError(
      err.name === 'TimeoutError' ? `Pwned Passwords did not answer within ${timeoutMs} ms` : `Pwned Passwords could not be reached (${err.cause?.code ?? err.message})`,
    );
  }
  const count = countInRange(body, suffix);
  return { pwned: count > 0, count };
}
