import { describe, expect, it } from 'vitest';
import { toE164Mobile } from '../../lambdas/domain/phone.js';

describe('mobile numbers in E.164 (DECISIONS "Mobile numbers")', () => {
  it.each([
    ['+61412345678', '+61412345678'],
    ['+61 412 345 678', '+61412345678'],
    ['0412 345 678', '+61412345678'],
    ['(04) 1234-5678', '+61412345678'],
    ['0412-345-678', '+61412345678'],
    ['+64 21 123 4567', '+64211234567'],
    ['+44 7911 123456', '+447911123456'],
    ['+1 415 555 2671', '+14155552671'],
  ])('normalises %j to %s (no "+" = Australia)', (input, e164) => {
    expect(toE164Mobile(input)).toBe(e164);
  });

  it.each([
    ['an Australian landline', '02 9876 5432'],
    ['a landline with its country code', '+61 2 9876 5432'],
    ['too short', '0412 345'],
    ['too long', '+61412345678999'],
    ['letters', 'call me maybe'],
    ['a number inside a sentence', 'mobile: 0412345678'],
    ['an extension', '+61 412 345 678 ext 2'],
    ['empty', '   '],
  ])('refuses %s (%j)', (_name, input) => {
    expect(toE164Mobile(input)).toBeUndefined();
  });
});
