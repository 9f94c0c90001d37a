import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../lambdas/domain/demo-account.js';
import { PASSWORD_POLICY, PASSWORD_SYMBOLS, passwordMessages, passwordPolicyProblems } from '../../lambdas/domain/password-policy.js';
import { generateTemporaryPassword } from '../../lambdas/domain/temporary-password.js';

describe('password policy', () => {
  it('is 12 characters with lower, upper, digit and symbol', () => {
    expect(PASSWORD_POLICY).toEqual({ minLength: 12, requireLowercase: true, requireUppercase: true, requireDigits: true, requireSymbols: true });
  });

  it('accepts a password that has everything', () => {
    expect(passwordPolicyProblems('Correct-Horse-42')).toEqual([]);
    expect(passwordPolicyProblems('Correct horse 42')).toEqual([]);
  });

  it('names every missing part of an empty password, in a fixed order', () => {
    expect(passwordPolicyProblems('')).toEqual([
      passwordMessages.tooShort,
      passwordMessages.lowercase,
      passwordMessages.uppercase,
      passwordMessages.digit,
      passwordMessages.symbol,
    ]);
  });

  it.each([
    ['Short-1a', [passwordMessages.tooShort]],
    ['NO-LOWER-CASE-42', [passwordMessages.lowercase]],
    ['no-upper-case-42', [passwordMessages.uppercase]],
    ['No-Digits-At-All', [passwordMessages.digit]],
    ['NoSymbolsHere42', [passwordMessages.symbol]],
    [' Leading-Space-42', [passwordMessages.edgeSpaces]],
    ['Trailing-Space-42 ', [passwordMessages.edgeSpaces]],
  ])('says what %j lacks', (password, problems) => {
    expect(passwordPolicyProblems(password)).toEqual(problems);
  });

  it('counts only the symbols Cognito counts, and an inner space as one', () => {
    for (const symbol of PASSWORD_SYMBOLS) expect(passwordPolicyProblems(`Abcdefghij1${symbol}x`), JSON.stringify(symbol)).toEqual([]);
    // Letters outside ASCII are neither Cognito's upper/lower case nor its symbols.
    expect(passwordPolicyProblems('Abcdefghij1é')).toEqual([passwordMessages.symbol]);
    expect(passwordPolicyProblems('Abcdefghij1§')).toEqual([passwordMessages.symbol]);
  });

  it('measures length in characters, not UTF-16 units, and caps it at 256', () => {
    expect(passwordPolicyProblems('Aa1-😀😀😀😀')).toEqual([passwordMessages.tooShort]);
    expect(passwordPolicyProblems(`Aa1-${'x'.repeat(253)}`)).toEqual([passwordMessages.tooLong]);
  });

  it('is met by every temporary password and by the demo password', () => {
    for (let i = 0; i < 200; i += 1) expect(passwordPolicyProblems(generateTemporaryPassword())).toEqual([]);
    expect(passwordPolicyProblems(DEMO_PASSWORD)).toEqual([]);
  });
});
