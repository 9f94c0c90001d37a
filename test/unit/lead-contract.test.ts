import { describe, expect, it } from 'vitest';
import { parseContract } from '../../lambdas/domain/contract.js';
import { ValidationError } from '../../lambdas/domain/errors.js';
import { leadInputSchema, leadMessages, summarizeLeadErrors } from '../../lambdas/domain/lead.contract.js';

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
});
