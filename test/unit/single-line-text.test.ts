import { describe, expect, it } from 'vitest';
import { profileUpdateSchema } from '../../lambdas/domain/account.contract.js';
import { parseContract } from '../../lambdas/domain/contract.js';
import { ValidationError } from '../../lambdas/domain/errors.js';
import { brandingInputSchema } from '../../lambdas/domain/it-provider.contract.js';
import { leadInputSchema } from '../../lambdas/domain/lead.contract.js';
import { quotedName, singleLineText, singleLineTextMessages } from '../../lambdas/domain/single-line-text.js';
import { supportRequestSchema } from '../../lambdas/domain/support.contract.js';
import { sendVerificationCodeSchema } from '../../lambdas/domain/verification.contract.js';

/** Issue 28 findings 5, 9, 16: names and short texts that reach an email are one line, without control or bidi characters. */

const name = singleLineText({ max: 100, min: 1, required: 'Name is required' });

const refused = {
  LF: 'Your account is locked.\nCall +1-555-0100 now',
  CR: 'Acme\rBcc: x@y',
  'CR LF': 'Subject\r\nBcc: victim@example.test',
  TAB: 'Acme\tPty',
  NUL: 'Acme\u0000',
  DEL: 'Acme\u007f',
  'C1 NEL': 'Acme\u0085Ltd',
  'U+2028 line separator': 'Acme\u2028Ltd',
  'U+202E right-to-left override': 'Invoice \u202Efdp.exe',
  'U+202A': '\u202Aabc',
  'U+2066 isolate': 'a\u2066b\u2069',
  'U+200F RLM': 'a\u200Fb',
  'U+200E LRM': 'a\u200Eb',
  'U+061C ALM': 'a\u061Cb',
};

describe('singleLineText', () => {
  for (const [label, value] of Object.entries(refused)) {
    it(`refuses ${label}`, () => {
      const result = name.safeParse(value);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe(singleLineTextMessages.unsafe);
    });
  }

  it.each(["Zoë O'Brien-Müller", 'Đặng Thị Ngọc', 'Ōtautahi Café & Co.', 'שלום', 'مرحبا بكم', '株式会社テスト', 'Ana 👩‍💻'])('accepts %s', (value) => {
    expect(name.parse(`  ${value} `)).toBe(value);
  });

  it('trims, then counts the length and the minimum', () => {
    expect(name.safeParse('   ').error?.issues[0]?.message).toBe('Name is required');
    expect(name.safeParse('x'.repeat(101)).error?.issues[0]?.message).toBe('At most 100 characters');
    expect(name.parse(' a\n')).toBe('a');
  });
});

describe('quotedName', () => {
  it('quotes a name and flattens what the contracts now refuse (names stored before)', () => {
    expect(quotedName('Olive Bakery')).toBe('“Olive Bakery”');
    expect(quotedName('Locked.\r\nCall \u202Enow')).toBe('“Locked. Call now”');
  });
});

describe('the contracts whose text reaches an email', () => {
  const refusedField = (schema: Parameters<typeof parseContract>[0], input: unknown, field: string) => {
    try {
      parseContract(schema, input);
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).fields).toEqual({ [field]: singleLineTextMessages.unsafe });
      return;
    }
    throw new Error('accepted');
  };

  it('the verification-code request: firstName and businessName', () => {
    const base = { email: 'a@example.com', webUrl: 'https://example.com' };
    refusedField(sendVerificationCodeSchema, { ...base, firstName: refused.LF }, 'firstName');
    refusedField(sendVerificationCodeSchema, { ...base, businessName: refused['U+202E right-to-left override'] }, 'businessName');
    expect(parseContract(sendVerificationCodeSchema, { ...base, firstName: " Zoë O'Brien " })).toMatchObject({ firstName: "Zoë O'Brien", businessName: '' });
  });

  it('the profile: names and company', () => {
    const base = { firstName: 'Olive', lastName: 'Owner', company: 'Olive Bakery' };
    refusedField(profileUpdateSchema, { ...base, company: 'Microsoft 365 Security:\nhttps://evil.example/login' }, 'company');
    refusedField(profileUpdateSchema, { ...base, company: 'Acme \u202Eevil' }, 'company');
    refusedField(profileUpdateSchema, { ...base, firstName: 'Ol\u0085ive' }, 'firstName');
    refusedField(profileUpdateSchema, { ...base, lastName: 'O\rwner' }, 'lastName');
    expect(parseContract(profileUpdateSchema, { ...base, company: "  L'Atelier Zoë " }).company).toBe("L'Atelier Zoë");
  });

  it("the free-scan lead's names (the report email greets the lead)", () => {
    const lead = { firstName: 'Ada', lastName: 'Lovelace', businessName: 'Analytical Engines', webUrl: 'example.com', email: 'ada@example.com', mobileNumber: '+61 412 345 678', agreedToTerms: true, agreedToDataCollection: true };
    refusedField(leadInputSchema, { ...lead, firstName: refused.LF }, 'firstName');
    refusedField(leadInputSchema, { ...lead, businessName: refused['U+202E right-to-left override'] }, 'businessName');
    expect(parseContract(leadInputSchema, { ...lead, lastName: "O'Brien-Müller" }).lastName).toBe("O'Brien-Müller");
  });

  it("an IT provider's name", () => {
    refusedField(brandingInputSchema, { name: 'Acme \u202EIT', colour: '#0f766e' }, 'name');
    refusedField(brandingInputSchema, { name: 'Acme\u2066IT', colour: '#0f766e' }, 'name');
    expect(parseContract(brandingInputSchema, { name: 'Ōtautahi IT', colour: '#0f766e' }).name).toBe('Ōtautahi IT');
  });

  it("the support form's subject (the message keeps its lines)", () => {
    const base = { category: 'technical', subject: 'Scan stuck', message: 'It has been queued\nfor an hour.' };
    refusedField(supportRequestSchema, { ...base, subject: 'Help\r\nBcc: victim@example.test' }, 'subject');
    refusedField(supportRequestSchema, { ...base, subject: 'Help \u202Eplease' }, 'subject');
    expect(parseContract(supportRequestSchema, base)).toMatchObject({ subject: 'Scan stuck', message: 'It has been queued\nfor an hour.' });
  });
});
