import { describe, expect, it } from 'vitest';
import {
  fileProves,
  newVerificationToken,
  parseDomainInput,
  txtRecordsProve,
  VERIFICATION_TOKEN,
  verificationFileUrl,
  verificationInstructions,
} from '../../lambdas/domain/domains.js';
import { ValidationError } from '../../lambdas/domain/errors.js';
import { txtData } from '../../lambdas/use-cases/domains.js';

describe('domain input', () => {
  it.each([
    ['example.com', 'example.com'],
    ['  Example.COM ', 'example.com'],
    ['www.example.com', 'example.com'],
    ['https://www.shop.example.com/path?q=1', 'shop.example.com'],
    ['http://example.com:8080/', 'example.com'],
    ['bücher.example', 'xn--bcher-kva.example'],
  ])('%s → %s', (input, expected) => {
    expect(parseDomainInput(input)).toBe(expected);
  });

  it.each([
    ['', /enter a domain/],
    [undefined, /enter a domain/],
    [42, /enter a domain/],
    ['203.0.113.5', /not an IP address/],
    ['https://198.51.100.1/x', /not an IP address/],
    ['[2001:db8::1]', /not an IP address/],
    ['localhost', /full domain name/],
    ['https://intranet/', /full domain name/],
    ['exa mple.com', /valid domain/],
    ['-bad-.com', /valid domain/],
    ['ftp://example.com', /valid domain/],
  ])('refuses %j with a clear message', (input, message) => {
    expect(() => parseDomainInput(input)).toThrow(ValidationError);
    expect(() => parseDomainInput(input)).toThrow(message);
  });
});

describe('verification token', () => {
  it('is 128 random bits in base64url', () => {
    const tokens = new Set(Array.from({ length: 50 }, newVerificationToken));
    expect(tokens.size).toBe(50);
    for (const token of tokens) {
      expect(token).toMatch(VERIFICATION_TOKEN);
      expect(Buffer.from(token, 'base64url')).toHaveLength(16);
    }
  });
});

describe('TXT record', () => {
  const token = 'abcdefghijklmnopqrstuv';

  it('proves ownership only with the exact slug=token value', () => {
    expect(txtRecordsProve(['v=spf1 -all', `rampart-verification=${token}`], 'rampart', token)).toBe(true);
    expect(txtRecordsProve([` rampart-verification=${token} `], 'rampart', token)).toBe(true);
    expect(txtRecordsProve([`rampart-verification=${token}x`], 'rampart', token)).toBe(false);
    expect(txtRecordsProve([`other-verification=${token}`], 'rampart', token)).toBe(false);
    expect(txtRecordsProve([token], 'rampart', token)).toBe(false);
    expect(txtRecordsProve([], 'rampart', token)).toBe(false);
  });

  it('joins a record split into several character strings', () => {
    expect(txtData([Buffer.from('rampart-verification='), Buffer.from(token)])).toBe(`rampart-verification=${token}`);
    expect(txtData('plain')).toBe('plain');
  });
});

describe('verification file and instructions', () => {
  it('lives at /.well-known/{slug}-verification.txt and holds the token on its first line', () => {
    expect(verificationFileUrl('rampart', 'example.com')).toBe('https://example.com/.well-known/rampart-verification.txt');
    expect(fileProves('\n  tok123  \r\nanything else', 'tok123')).toBe(true);
    expect(fileProves('tok1234', 'tok123')).toBe(false);
    expect(fileProves('', 'tok123')).toBe(false);
    expect(verificationInstructions('acme-scan', 'example.com', 'T')).toEqual({
      dns: { type: 'TXT', name: 'example.com', value: 'acme-scan-verification=T' },
      file: { url: 'https://example.com/.well-known/acme-scan-verification.txt', content: 'T' },
    });
  });
});
