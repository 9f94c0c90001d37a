import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CheckContext } from '../../../lambdas/scanner/check.js';
import { breachesCheck, createBreachesCheck } from '../../../lambdas/scanner/checks/breaches.check.js';
import { createHibpClient } from '../../../lambdas/scanner/net/hibp-client.js';
import { scan } from '../../../lambdas/scanner/scan.js';
import { adobe, exampleShop, linkedIn, TEST_API_KEY, TEST_NOW, TEST_USER_AGENT } from '../../fixtures/hibp/breaches.js';
import { checkContext, runWith } from '../../support/check-context.js';
import { type HibpServer, startHibpServer } from '../../support/hibp-server.js';
import { offlineNet } from '../../support/offline-net.js';

let hibp: HibpServer;

beforeAll(async () => {
  hibp = await startHibpServer({
    apiKey: TEST_API_KEY,
    accounts: { 'owner@example.com': [adobe, linkedIn, exampleShop] },
    domains: { 'example.com': { owner: ['Adobe', 'LinkedIn', 'ExampleShop'], accounts: ['Adobe'] } },
  });
});
afterAll(() => hibp.close());
afterEach(() => {
  hibp.requests.length = 0;
  hibp.throttle(0, 0);
});

const client = (apiKey = TEST_API_KEY) => createHibpClient({ apiKey, userAgent: TEST_USER_AGENT, baseUrl: hibp.apiBaseUrl, maxRetryWaitMs: 1_500 });
/** A context for www.example.com whose only network is the HIBP client (DNS is never asked). */
const context = (subject: CheckContext['subject']): Omit<CheckContext, 'signal'> => ({
  ...checkContext({ dnsPort: 9, host: 'www.example.com', domain: 'example.com' }),
  subject,
});

describe('breaches check', () => {
  it('without a client says the breach check is not configured, with no numbers and no request', async () => {
    // Act
    const result = await runWith(breachesCheck, context({ emails: ['owner@example.com'], verifiedDomains: [] }));
    // Assess
    expect(result).toMatchObject({ name: 'breaches', status: 'ok', data: { status: 'not-configured' } });
    expect(result.findings.map((f) => [f.id, f.severity])).toEqual([['breaches.not-configured', 'info']]);
    expect(hibp.requests).toHaveLength(0);
  });

  it('looks up the lead\'s address (once, lower-cased) and reports its breaches, masked, in well under its budget', async () => {
    // Prepare
    const check = createBreachesCheck(client(), { now: () => TEST_NOW });
    // Act
    const result = await runWith(check, context({ emails: ['Owner@Example.com', 'owner@example.com '], verifiedDomains: [] }));
    // Assess
    expect(result.status).toBe('ok');
    expect(result.durationMs).toBeLessThan(1_000);
    expect(hibp.requests.map((r) => r.path)).toEqual(['/api/v3/breachedaccount/owner%40example.com?truncateResponse=false']);
    expect(result.findings.map((f) => [f.id, f.severity, f.title])).toEqual([['breaches.account', 'high', 'o***r@example.com appears in 3 known data breaches']]);
    expect(result.data).toMatchObject({ status: 'ok', checked: 1, breached: 1, accounts: [{ email: 'o***r@example.com', breaches: [{ name: 'ExampleShop' }, { name: 'Adobe' }, { name: 'LinkedIn' }] }] });
    expect(result.data).not.toHaveProperty('domain');
    expect(JSON.stringify(result)).not.toContain('owner@example.com');
  });

  it('adds the domain-wide search only for a verified domain that is the scanned one', async () => {
    const check = createBreachesCheck(client(), { now: () => TEST_NOW });
    const other = await runWith(check, context({ emails: ['nobody@example.com'], verifiedDomains: ['other.example'] }));
    expect(hibp.requests.map((r) => r.path)).toEqual(['/api/v3/breachedaccount/nobody%40example.com?truncateResponse=false']);
    expect(other.findings.map((f) => f.id)).toEqual(['breaches.none-found']);
    expect(other.findings[0]!.evidence).toBe('1 address checked, no breaches found (n***y@example.com). Source: Have I Been Pwned.');

    hibp.requests.length = 0;
    const verified = await runWith(check, context({ emails: ['nobody@example.com'], verifiedDomains: ['Example.com.'] }));
    expect(hibp.requests.map((r) => r.path)).toEqual(['/api/v3/breachedaccount/nobody%40example.com?truncateResponse=false', '/api/v3/breacheddomain/example.com']);
    expect(verified.findings.map((f) => [f.id, f.severity, f.evidence])).toEqual([
      ['breaches.domain', 'medium', 'a***s@example.com: Adobe; o***r@example.com: Adobe, LinkedIn, ExampleShop. Source: Have I Been Pwned domain search.'],
    ]);
    expect(verified.data).toMatchObject({ checked: 1, breached: 0, domain: { domain: 'example.com', status: 'ok', breachedAddresses: 2 } });
  });

  it('ends as error with an "unauthorized" reason when the key is refused, after one request', async () => {
    const check = createBreachesCheck(client('ffffffffffffffffffffffffffffffff'));
    const result = await runWith(check, context({ emails: ['owner@example.com', 'info@example.com', 'sales@example.com'], verifiedDomains: ['example.com'] }));
    expect(result).toMatchObject({ status: 'error', findings: [] });
    expect(result.reason).toBe('unauthorized: Have I Been Pwned refused the API key (401: Access denied due to invalid hibp-api-key.)');
    expect(hibp.requests).toHaveLength(1);
  });

  it('ends as error with a "rate-limited" reason when HIBP keeps answering 429, within its budget', async () => {
    hibp.throttle(10, 1);
    const result = await runWith(createBreachesCheck(client()), context({ emails: ['owner@example.com'], verifiedDomains: [] }));
    expect(result.status).toBe('error');
    expect(result.reason).toBe('rate-limited: Have I Been Pwned answered 429 (too many requests) 3 times; retry after 1 s');
    expect(result.durationMs).toBeLessThan(breachesCheck.budgetMs);
    expect(hibp.requests.map((r) => r.status)).toEqual([429, 429, 429]);
  });

  it('runs inside a scan with the subject the worker passes', async () => {
    // Prepare: the worker's subject (the lead's address, no verified domain); no other check, no DNS.
    const check = createBreachesCheck(client(), { now: () => TEST_NOW });
    const settings = { resolvers: [], dnsTimeoutMs: 500, allowPrivateTargets: true, excludePorts: [2024] };
    const resolver = { resolve4: async () => ['127.0.0.1'], resolve6: async () => [] };
    // Act
    const report = await scan({ url: 'https://www.example.com/', host: 'www.example.com' }, settings, {
      checks: [check],
      resolver,
      net: offlineNet,
      subject: { emails: ['owner@example.com'], verifiedDomains: [] },
    });
    // Assess: one high issue costs 5 points.
    expect(report.checks.map((c) => [c.name, c.status])).toEqual([['breaches', 'ok']]);
    expect(report.findings.map((f) => f.id)).toEqual(['breaches.account']);
    expect(report.score).toBe(95);
  });
});
