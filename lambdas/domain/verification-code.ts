import { randomBytes, randomInt, scrypt, timingSafeEqual } from 'node:crypto';
import { DomainError } from './errors.js';
import { VERIFICATION } from './verification.contract.js';

/**
 * A six-digit code has only a million values, so a plain hash of it is reversed by trying them all.
 * scrypt with a per-code random salt makes each guess cost real work (about 10^6 × 30 ms to exhaust one
 * stolen record, longer than the code lives), and the stored record never holds the code itself.
 */
const SCRYPT = { N: 16_384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;
const KEY_LENGTH = 32;

export interface CodeHash {
  /** base64 */
  salt: string;
  /** base64 scrypt(code, salt) */
  hash: string;
}

/** A uniformly random code of VERIFICATION.codeLength digits, leading zeros kept. */
export function generateVerificationCode(): string {
  return String(randomInt(0, 10 ** VERIFICATION.codeLength)).padStart(VERIFICATION.codeLength, '0');
}

function derive(code: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(code, salt, KEY_LENGTH, SCRYPT, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

export async function hashVerificationCode(code: string): Promise<CodeHash> {
  const salt = randomBytes(16);
  const key = await derive(code, salt);
  return { salt: salt.toString('base64'), hash: key.toString('base64') };
}

/** Constant-time comparison of a typed code with a stored hash. */
export async function matchesVerificationCode(code: string, stored: CodeHash): Promise<boolean> {
  const expected = Buffer.from(stored.hash, 'base64');
  const actual = await derive(code, Buffer.from(stored.salt, 'base64'));
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** A failed code check: `remainingAttempts` travels to the client with the code and message. */
export class VerificationFailedError extends DomainError {
  constructor(code: 'verification_failed' | 'verification_locked' | 'verification_expired', message: string, readonly remainingAttempts: number) {
    super(code, message, { remainingAttempts });
  }
}
