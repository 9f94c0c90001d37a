import { describe, expect, it } from 'vitest';
import {
  type DomainRecord,
  DOMAIN_PROOF_RECHECK_DAYS,
  fileProves,
  newVerificationToken,
  parseDomainInput,
  proofIsCurrent,
  txtRecordsProve,
  VERIFICATION_TOKEN,
  verificationFileUrl,
  verificationInstructions,
} from '../../lambdas/domain/domains.js';
import { ValidationError } from '../../lambdas/domain/errors.js';
import { domainLapsedEmail } from '../../lambdas/domain/emails.js';
import { domainView, txtData } from '../../lambdas/use-cases/domains.js';

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

describe('proof re-checks (DECISIONS "Scan modes")', () => {
  const DAY = 86_400_000;
  const now = new Date('2026-11-27T00:00:00.000Z');
  const ago = (days: number) => new Date(now.getTime() - days * DAY).toISOString();
  const verified = (seen: { verifiedAt?: string; checkedAt?: string }): DomainRecord => ({
    id: 'd',
    userId: 'u',
    domain: 'shop.example.test',
    verificationToken: 'x'.repeat(22),
    verified: true,
    addedAt: ago(400),
    verifiedBy: 'dns',
    ...seen,
  });

  it('counts a proof as current for exactly DOMAIN_PROOF_RECHECK_DAYS after it was last seen, from the last re-check when there was one', () => {
    expect(DOMAIN_PROOF_RECHECK_DAYS).toBe(30);
    expect(proofIsCurrent(verified({ verifiedAt: ago(30) }), now)).toBe(true);
    expect(proofIsCurrent(verified({ verifiedAt: new Date(now.getTime() - 30 * DAY - 1).toISOString() }), now)).toBe(false);
    expect(proofIsCurrent(verified({ verifiedAt: ago(300), checkedAt: ago(2) }), now)).toBe(true);
    expect(proofIsCurrent({ ...verified({ verifiedAt: ago(1) }), verified: false }, now)).toBe(false);
    expect(proofIsCurrent(verified({}), now)).toBe(false);
  });

  it('shows a verified domain with when its proof was seen, and a lapsed one as lapsed', () => {
    expect(domainView('rampart', verified({ verifiedAt: ago(300), checkedAt: ago(31) }), now)).toMatchObject({ status: 'verified', proofCheckedAt: ago(31), proofRecheckDue: true });
    expect(domainView('rampart', verified({ verifiedAt: ago(3) }), now)).toMatchObject({ status: 'verified', proofCheckedAt: ago(3), proofRecheckDue: false });
    const lapsed = domainView('rampart', { ...verified({ verifiedAt: ago(300) }), verified: false, lapsedAt: ago(1) }, now);
    expect(lapsed).toMatchObject({ status: 'lapsed', lapsedAt: ago(1) });
    expect(lapsed).not.toHaveProperty('proofCheckedAt');
    expect(domainView('rampart', { ...verified({}), verified: false }, now).status).toBe('pending');
  });

  it("tells the owner of a lapsed domain what happened and how to prove it again", () => {
    const email = domainLapsedEmail({ productName: 'Rampart', siteUrl: 'https://rampart.example/' }, { to: 'o@example.test', domain: 'shop.example.test', lapsedAt: '2026-11-27T03:00:00.000Z', recheckDays: 30 });

    expect(email.subject).toBe('Rampart: shop.example.test is no longer verified');
    expect(email.text).toContain('On 2026-11-27 we could not find the TXT record or the file for shop.example.test');
    expect(email.text).toContain('https://rampart.example/dashboard/settings?tab=domains');
    expect(email.html).toContain('href="https://rampart.example/dashboard/settings?tab=domains"');
  });
});
