import { describe, expect, it } from 'vitest';
import { generateTemporaryPassword } from '../../lambdas/domain/temporary-password.js';
import { generateVerificationCode, hashVerificationCode, matchesVerificationCode } from '../../lambdas/domain/verification-code.js';
import { verifyCodeSchema } from '../../lambdas/domain/verification.contract.js';

describe('verification codes', () => {
  it('are six digits, leading zeros kept, and spread over the whole range', () => {
    const codes = Array.from({ length: 2000 }, generateVerificationCode);
    expect(codes.every((c) => /^\d{6}$/.test(c))).toBe(true);
    const firstDigits = new Set(codes.map((c) => c[0]));
    expect(firstDigits.size).toBe(10); // including '0': 1 − 0.9^2000 ≈ 1
    expect(new Set(codes).size).toBeGreaterThan(1990);
  });

  it('are stored as a salted scrypt hash that matches only the code itself', async () => {
    const stored = await hashVerificationCode('042917');

    expect(stored.hash).not.toContain('042917');
    expect(Buffer.from(stored.hash, 'base64')).toHaveLength(32);
    expect(Buffer.from(stored.salt, 'base64')).toHaveLength(16);
    expect(await matchesVerificationCode('042917', stored)).toBe(true);
    expect(await matchesVerificationCode('042918', stored)).toBe(false);
    expect(await matchesVerificationCode('42917', stored)).toBe(false);
  });

  it('hash the same code differently each time (a per-code salt)', async () => {
    const [a, b] = await Promise.all([hashVerificationCode('123456'), hashVerificationCode('123456')]);
    expect(a.salt).not.toBe(b.salt);
    expect(a.hash).not.toBe(b.hash);
  });

  it.each(['12345', '1234567', '12a456', '', '12 345'])("refuses the typed code %j with 'Verification code must be 6 digits'", (verificationCode) => {
    const result = verifyCodeSchema.safeParse({ email: 'a@example.com', webUrl: 'example.com', verificationCode });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('Verification code must be 6 digits');
  });
});

describe('temporary passwords', () => {
  it('meet the user pool policy: 12+ characters with upper, lower, digit and symbol, every time', () => {
    const passwords = Array.from({ length: 500 }, () => generateTemporaryPassword());
    for (const password of passwords) {
      expect(password.length).toBeGreaterThanOrEqual(12);
      expect(password).toMatch(/[A-Z]/);
      expect(password).toMatch(/[a-z]/);
      expect(password).toMatch(/[0-9]/);
      expect(password).toMatch(/[^A-Za-z0-9]/);
    }
    expect(new Set(passwords).size).toBe(500);
  });
});
