import { describe, expect, it } from 'vitest';
import { parseContract } from '../../lambdas/domain/contract.js';
import { ValidationError } from '../../lambdas/domain/errors.js';
import { leadInputSchema, leadMessages, looksAutomated, summarizeLeadErrors } from '../../lambdas/domain/lead.contract.js';

const valid = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  businessName: 'Analytical Engines',
  webUrl: 'WWW.Example.com/shop',
  email: ' Ada@Example.com ',
  mobileNumber: '+61 412 345 678',
  agreedToTerms: true,
  agreedToDataCollection: true,
};

function parse(input: unknown) {
  return parseContract(leadInputSchema, input, (fields) => summarizeLeadErrors(fields, input));
}

function failure(input: unknown): ValidationError {
  try {
    parse(input);
  } catch (error) {
    if (error instanceof ValidationError) return error;
    throw error;
  }
  throw new Error('expected a validation error');
}

describe('lead contract', () => {
  it('normalises the website and the email', () => {
    const lead = parse(valid);
    expect(lead.webUrl).toEqual({ url: 'https://www.example.com/shop', host: 'www.example.com' });
    expect(lead.email).toBe('ada@example.com');
    expect(lead.createAccount).toBe(false);
  });

  it("answers 'All fields are required' when a text field is empty, with the field's own message", () => {
    const error = failure({ ...valid, lastName: '   ' });
    expect(error.message).toBe(leadMessages.allRequired);
    expect(error.fields.lastName).toBe('Last name is required');
  });

  it('asks for both consents when a box is unticked', () => {
    const error = failure({ ...valid, agreedToDataCollection: false });
    expect(error.message).toBe('Please agree to the terms and privacy policy');
    expect(error.fields.agreedToDataCollection).toBe('You must agree to the privacy policy and data collection');
  });

  it.each(['not a url', 'ftp://example.com', 'http://localhost', 'https://user:pw@example.com', 'example', 'http://exa mple.com'])(
    'refuses the website %j',
    (webUrl) => {
      expect(failure({ ...valid, webUrl }).fields.webUrl).toBe('Please enter a valid URL');
    },
  );

  it('refuses a malformed email', () => {
    expect(failure({ ...valid, email: 'ada@' }).fields.email).toBe('Please enter a valid email address');
  });

  it('refuses a body that is not an object', () => {
    expect(failure('hello').message).toBe(leadMessages.allRequired);
  });

  it('normalises the mobile number to E.164, reading numbers without "+" as Australian', () => {
    expect(parse(valid).mobileNumber).toBe('+61412345678');
    expect(parse({ ...valid, mobileNumber: '0412 345 678' }).mobileNumber).toBe('+61412345678');
  });

  it("refuses a number that is not a mobile with 'Please enter a valid mobile number'", () => {
    const error = failure({ ...valid, mobileNumber: '02 9876 5432' });
    expect(error.message).toBe('Please enter a valid mobile number');
    expect(error.fields.mobileNumber).toBe('Please enter a valid mobile number');
  });

  it("still answers 'All fields are required' for an empty mobile number", () => {
    expect(failure({ ...valid, mobileNumber: '' }).message).toBe(leadMessages.allRequired);
  });
});

describe('bot signals in the lead', () => {
  const now = new Date('2025-06-01T10:00:00Z');
  const at = (msBefore: number) => parse({ ...valid, submittedAt: now.getTime() - msBefore });

  it.each([
    ['a filled honeypot', parse({ ...valid, website: 'http://spam.example' }), true],
    ['a honeypot of spaces only', parse({ ...valid, website: '   ' }), false],
    ['an empty honeypot', parse({ ...valid, website: '' }), false],
    ['sent 1 s after the form was shown', at(1000), true],
    ['sent 2.9 s after', at(2900), true],
    ['sent 3 s after', at(3000), false],
    ['sent 40 s after', at(40_000), false],
    ['a form "shown" in the future', at(-60_000), true],
    ['no submit time (an API client)', parse(valid), false],
  ])('%s → automated %s', (_name, lead, expected) => {
    expect(looksAutomated(lead, now)).toBe(expected);
  });
});
