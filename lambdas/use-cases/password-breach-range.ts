import type { Deps } from '../composition.js';
import { DomainError, UpstreamUnavailableError } from '../domain/errors.js';
import type { PasswordRangeEntry } from '../domain/ports.js';
import { isRangePrefix } from '../scanner/pwned-passwords.js';

export const INVALID_PREFIX_MESSAGE = 'The prefix must be exactly 5 hexadecimal characters (the start of a SHA-1 hash).';
export const BREACH_CHECK_UNAVAILABLE_MESSAGE = 'The breached-password check is unavailable right now.';

/**
 * The sign-up form's breached-password check (k-anonymity): the browser hashes the password with
 * SHA-1 and sends only the first 5 hex characters; this answers every known suffix under them, and
 * the browser compares the rest itself. Neither Rampart nor Pwned Passwords learns the password.
 * When the service cannot answer, the form lets the sign-up go on (502 breach_check_unavailable).
 */
export async function passwordBreachRange(deps: Pick<Deps, 'pwnedPasswords' | 'log'>, rawPrefix: string | undefined): Promise<{ suffixes: PasswordRangeEntry[] }> {
  const prefix = (rawPrefix ?? '').trim();
  if (!isRangePrefix(prefix)) throw new DomainError('invalid_prefix', INVALID_PREFIX_MESSAGE);
  try {
    return { suffixes: await deps.pwnedPasswords.range(prefix.toUpperCase()) };
  } catch (error) {
    deps.log.warn('Pwned Passwords range lookup failed', { error: String(error) });
    throw new UpstreamUnavailableError('breach_check_unavailable', BREACH_CHECK_UNAVAILABLE_MESSAGE);
  }
}
