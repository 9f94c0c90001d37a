import { apiGet } from '../../../lib/api-client';
import { routePath } from '../../../lib/contracts';

interface RangeAnswer {
  suffixes: { suffix: string; count: number }[];
}

async function sha1Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-1', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('').toUpperCase();
}

/**
 * Pwned Passwords by k-anonymity: only the first 5 hex characters of the password's SHA-1 leave the
 * browser; the API relays that range and the match happens here. Answers how many breaches the
 * password appeared in, or undefined when the check is unreachable (signup then goes on: the
 * issue says "where reachable").
 */
export async function breachCount(password: string): Promise<number | undefined> {
  try {
    const hash = await sha1Hex(password);
    const { suffixes } = await apiGet<RangeAnswer>(routePath('get-pwned-password-range', { prefix: hash.slice(0, 5) }));
    return suffixes.find((entry) => entry.suffix.toUpperCase() === hash.slice(5))?.count ?? 0;
  } catch {
    return undefined;
  }
}
