import { describe, expect, it } from 'vitest';
import { verifiedEmailOf } from '../../lambdas/domain/user-tokens.js';
import { callerFrom } from '../../lambdas/use-cases/account.js';

describe("a token's address (issue 28 finding 3)", () => {
  it('is the email only when Cognito says it is verified, as a JSON boolean (local) or a string (API Gateway)', () => {
    expect(verifiedEmailOf({ sub: 'u', email: 'a@example.test', email_verified: true })).toBe('a@example.test');
    expect(verifiedEmailOf({ sub: 'u', email: 'a@example.test', email_verified: 'true' })).toBe('a@example.test');
  });

  it('is empty when unverified, when the claim is missing (an access token, or a pool that never verified it) or not a string', () => {
    expect(verifiedEmailOf({ sub: 'u', email: 'a@example.test', email_verified: false })).toBe('');
    expect(verifiedEmailOf({ sub: 'u', email: 'a@example.test', email_verified: 'false' })).toBe('');
    expect(verifiedEmailOf({ sub: 'u', email: 'a@example.test' })).toBe('');
    expect(verifiedEmailOf({ sub: 'u', email: 'a@example.test', email_verified: 'True' })).toBe('');
    expect(verifiedEmailOf({ sub: 'u', email: ['a@example.test'], email_verified: true })).toBe('');
  });

  it("gives the account's caller no address to match when it is unverified, keeping the rest", () => {
    expect(callerFrom({ sub: 'u', email: 'a@example.test', email_verified: 'false', given_name: 'Ada', family_name: 'T' })).toEqual({
      userId: 'u',
      email: '',
      firstName: 'Ada',
      lastName: 'T',
    });
  });
});
