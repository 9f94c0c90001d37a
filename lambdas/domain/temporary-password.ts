import { randomInt } from 'node:crypto';

// No look-alikes (O/0, l/1/I): people type this from an email.
const UPPER = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const LOWER = 'abcdefghijkmnopqrstuvwxyz';
const DIGITS = '23456789';
// Symbols Cognito accepts that survive email, HTML and copy-paste unharmed.
const SYMBOLS = '!#%+-=?@';
const ALL = UPPER + LOWER + DIGITS + SYMBOLS;

/** The user pool's policy (password-policy.ts): 12+ characters with upper, lower, digit and symbol. */
export const TEMPORARY_PASSWORD_LENGTH = 16;

/** A random temporary password meeting the pool's policy, from the CSPRNG (crypto.randomInt). */
export function generateTemporaryPassword(length = TEMPORARY_PASSWORD_LENGTH): string {
  const pick = (set: string) => set[randomInt(set.length)]!;
  const chars = [pick(UPPER), pick(LOWER), pick(DIGITS), pick(SYMBOLS)];
  while (chars.length < length) chars.push(pick(ALL));
  // Fisher–Yates, so the guaranteed classes are not always in the first four places.
  for (let i = chars.length - 1; i > 0; i -= 1) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join('');
}
