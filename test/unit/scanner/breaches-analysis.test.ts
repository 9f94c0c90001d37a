import { describe, expect, it } from 'vitest';
import { addressesToCheck, maskEmail, maskLocal } from '../../../lambdas/scanner/checks/breaches/addresses.js';
import { accountSeverity, analyzeBreaches, notConfiguredOutput } from '../../../lambdas/scanner/checks/breaches/breaches.analysis.js';
import type { BreachesSnapshot } from '../../../lambdas/scanner/checks/breaches/breaches.probe.js';
import { type Breach, readBreaches } from '../../../lambdas/scanner/net/hibp-client.js';
import { adobe, exampleShop, linkedIn, marketingList, TEST_NOW, travelSite } from '../../fixtures/hibp/breaches.js';
import { hibpBreach, type HibpBreachJson } from '../../support/hibp-server.js';

const breaches = (...json: HibpBreachJson[]): Breach[] => readBreaches(json)!;
const snapshot = (accounts: BreachesSnapshot['accounts'], extra: Partial<BreachesSnapshot> = {}): BreachesSnapshot => ({
  accounts,
  setAside: { invalid: 0, overLimit: 0 },
  ...extra,
});
const ok = <T>(value: T) => ({ outcome: 'ok' as const, value });

describe('breach addresses', () => {
  it('masks all but the first and last character of the local part', () => {
    expect(maskEmail('owner@example.com')).toBe('o***r@example.com');
    expect(maskEmail('jo@example.com')).toBe('j***@example.com');
    expect(maskEmail('a@example.com')).toBe('a***@example.com');
    expect(maskLocal('accounts')).toBe('a***s');
  });

  it('lower-cases, trims and de-duplicates, keeps at most 5, and sets malformed ones aside', () => {
    const given = [' Owner@Example.com', 'owner@example.com', 'not-an-address', 'a@x.io', 'b@x.io', 'c@x.io', 'd@x.io', 'e@x.io'];
    expect(addressesToCheck(given)).toEqual({ emails: ['owner@example.com', 'a@x.io', 'b@x.io', 'c@x.io', 'd@x.io'], invalid: 1, overLimit: 1 });
  });
});

describe('breach severity', () => {
  it('is high when a breach within three years exposed passwords', () => {
    expect(accountSeverity(breaches(adobe, exampleShop), TEST_NOW)).toBe('high');
  });

  it('counts a breach loaded into HIBP within three years as recent, even when it happened earlier', () => {
    const surfacedLate = hibpBreach({ Name: 'OldForum', BreachDate: '2019-01-01', AddedDate: '2024-02-01T00:00:00Z', DataClasses: ['Email addresses', 'Passwords'] });
    expect(accountSeverity(breaches(surfacedLate), TEST_NOW)).toBe('high');
  });

  it('is medium when the password breaches are older, or when other personal data but no password was exposed', () => {
    expect(accountSeverity(breaches(adobe, linkedIn), TEST_NOW)).toBe('medium');
    expect(accountSeverity(breaches(travelSite), TEST_NOW)).toBe('medium');
  });

  it('is low when only email addresses and names were exposed', () => {
    expect(accountSeverity(breaches(marketingList), TEST_NOW)).toBe('low');
  });
});

describe('breaches analysis', () => {
  it('gives one finding per breached address with masked evidence, and the card its real counts', () => {
    // Prepare
    const lookups = snapshot([
      { email: 'owner@example.com', result: ok(breaches(adobe, linkedIn, exampleShop)) },
      { email: 'info@example.com', result: ok([]) },
    ]);
    // Act
    const analysis = analyzeBreaches(lookups, TEST_NOW);
    // Assess
    expect(analysis.status).toBe('ok');
    if (analysis.status !== 'ok') return;
    const { findings, data } = analysis.output;
    expect(findings).toHaveLength(1);
    const [account] = findings;
    expect(account).toMatchObject({
      id: 'breaches.account',
      check: 'breaches',
      severity: 'high',
      category: 'Password Security',
      title: 'o***r@example.com appears in 3 known data breaches',
      evidence:
        'o***r@example.com: Example Shop (2025-03-10): Email addresses, IP addresses, Names, Passwords; ' +
        'Adobe (2013-10-04): Email addresses, Password hints, Passwords, Usernames; LinkedIn (2012-05-05): Email addresses, Passwords. Source: Have I Been Pwned.',
    });
    expect(account!.description).toContain('credential stuffing');
    expect(account!.description).toContain('Example Shop (2025-03-10) exposed passwords within the last 3 years');
    expect(account!.recommendation).toContain('Change the password used on Example Shop, Adobe and LinkedIn wherever it (or anything like it) is still in use');
    expect(account!.recommendation).toMatch(/authenticator app.*passkeys.*password manager/);
    expect(JSON.stringify(analysis)).not.toContain('owner@example.com');
    expect(JSON.stringify(analysis)).not.toContain('info@example.com');
    expect(data).toEqual({
      status: 'ok',
      source: 'Have I Been Pwned',
      checked: 2,
      breached: 1,
      accounts: [
        {
          email: 'o***r@example.com',
          breaches: [
            { name: 'ExampleShop', title: 'Example Shop', date: '2025-03-10', dataClasses: ['Email addresses', 'IP addresses', 'Names', 'Passwords'] },
            { name: 'Adobe', title: 'Adobe', date: '2013-10-04', dataClasses: ['Email addresses', 'Password hints', 'Passwords', 'Usernames'] },
            { name: 'LinkedIn', title: 'LinkedIn', date: '2012-05-05', dataClasses: ['Email addresses', 'Passwords'] },
          ],
        },
        { email: 'i***o@example.com', breaches: [] },
      ],
    });
  });

  it('marks unverified and spam-list breaches in the evidence and explains a low one as phishing risk', () => {
    const analysis = analyzeBreaches(snapshot([{ email: 'sales@example.com', result: ok(breaches(marketingList)) }]), TEST_NOW);
    if (analysis.status !== 'ok') throw new Error('expected ok');
    const [finding] = analysis.output.findings;
    expect(finding).toMatchObject({ severity: 'low', evidence: 's***s@example.com: Marketing List (2024-06-01, spam list): Email addresses, Names. Source: Have I Been Pwned.' });
    expect(finding!.description).toContain('expect more spam and phishing');
    const travel = analyzeBreaches(snapshot([{ email: 'sales@example.com', result: ok(breaches(travelSite)) }]), TEST_NOW);
    if (travel.status !== 'ok') throw new Error('expected ok');
    expect(travel.output.findings[0]!.evidence).toContain('Travel Site (2025-09-15, unverified)');
  });

  it('says how many addresses were checked when none is breached, with MFA advice', () => {
    const analysis = analyzeBreaches(snapshot([{ email: 'owner@example.com', result: ok([]) }]), TEST_NOW);
    if (analysis.status !== 'ok') throw new Error('expected ok');
    expect(analysis.output.findings).toEqual([
      expect.objectContaining({
        id: 'breaches.none-found',
        severity: 'info',
        evidence: '1 address checked, no breaches found (o***r@example.com). Source: Have I Been Pwned.',
        recommendation: expect.stringContaining('authenticator app'),
      }),
    ]);
    expect(analysis.output.data).toMatchObject({ status: 'ok', checked: 1, breached: 0 });
  });

  it('keeps what it could check when a later address hit the rate limit, and says which could not be checked', () => {
    const analysis = analyzeBreaches(
      snapshot([
        { email: 'owner@example.com', result: ok([]) },
        { email: 'info@example.com', result: { outcome: 'rate-limited', reason: 'Have I Been Pwned answered 429 (too many requests) 3 times; retry after 6 s' } },
      ]),
      TEST_NOW,
    );
    if (analysis.status !== 'ok') throw new Error('expected ok');
    expect(analysis.output.findings[0]!.evidence).toBe('1 address checked, no breaches found (o***r@example.com); 1 address could not be checked (rate-limited). Source: Have I Been Pwned.');
    expect(analysis.output.data).toMatchObject({
      checked: 1,
      unchecked: [{ email: 'i***o@example.com', status: 'rate-limited', reason: 'Have I Been Pwned answered 429 (too many requests) 3 times; retry after 6 s' }],
    });
  });

  it('fails with the reason when no lookup succeeded, and on a refused key even after a success', () => {
    const limited = analyzeBreaches(snapshot([{ email: 'owner@example.com', result: { outcome: 'rate-limited', reason: 'retry after 6 s' } }]), TEST_NOW);
    expect(limited).toEqual({ status: 'rate-limited', reason: 'retry after 6 s' });
    const refused = analyzeBreaches(
      snapshot([
        { email: 'owner@example.com', result: ok([]) },
        { email: 'info@example.com', result: { outcome: 'unauthorized', status: 401, reason: 'Have I Been Pwned refused the API key (401)' } },
      ]),
      TEST_NOW,
    );
    expect(refused).toEqual({ status: 'unauthorized', reason: 'Have I Been Pwned refused the API key (401)' });
  });

  it('lists a verified domain\'s breached aliases, masked, in one medium finding', () => {
    const analysis = analyzeBreaches(
      snapshot([{ email: 'owner@example.com', result: ok([]) }], { domain: { domain: 'example.com', result: ok({ owner: ['Adobe', 'LinkedIn'], accounts: ['ExampleShop'], ghost: [] }) } }),
      TEST_NOW,
    );
    if (analysis.status !== 'ok') throw new Error('expected ok');
    expect(analysis.output.findings.map((f) => [f.id, f.severity, f.title, f.evidence])).toEqual([
      ['breaches.domain', 'medium', '2 addresses at example.com appear in known data breaches', 'a***s@example.com: ExampleShop; o***r@example.com: Adobe, LinkedIn. Source: Have I Been Pwned domain search.'],
    ]);
    expect(analysis.output.data).toMatchObject({
      domain: { domain: 'example.com', status: 'ok', breachedAddresses: 2, addresses: [{ email: 'a***s@example.com', breaches: ['ExampleShop'] }, { email: 'o***r@example.com', breaches: ['Adobe', 'LinkedIn'] }] },
    });
  });

  it('reports a refused domain search in the data without failing the address lookups', () => {
    const analysis = analyzeBreaches(
      snapshot([{ email: 'owner@example.com', result: ok([]) }], { domain: { domain: 'example.com', result: { outcome: 'unauthorized', status: 403, reason: 'not verified' } } }),
      TEST_NOW,
    );
    if (analysis.status !== 'ok') throw new Error('expected ok');
    expect(analysis.output.findings.map((f) => f.id)).toEqual(['breaches.none-found']);
    expect(analysis.output.data).toMatchObject({ domain: { domain: 'example.com', status: 'unauthorized', reason: 'not verified' } });
  });

  it('says plainly when no address came with the scan', () => {
    const analysis = analyzeBreaches(snapshot([]), TEST_NOW);
    if (analysis.status !== 'ok') throw new Error('expected ok');
    expect(analysis.output.findings.map((f) => [f.id, f.severity])).toEqual([['breaches.no-addresses', 'info']]);
    expect(analysis.output.data).toMatchObject({ checked: 0, breached: 0, accounts: [] });
  });

  it('without a key reports not-configured, with no numbers at all', () => {
    const output = notConfiguredOutput();
    expect(output.data).toEqual({ status: 'not-configured' });
    expect(output.findings).toEqual([
      expect.objectContaining({ id: 'breaches.not-configured', severity: 'info', title: 'Breach check not configured', recommendation: expect.stringContaining('passkeys') }),
    ]);
    expect(output.findings[0]!.description).toContain('The breach check is not configured for this scan');
    expect(JSON.stringify(output)).not.toMatch(/\d+ (address|account|breach)/);
  });
});
