import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHibpClient, createPacer, parseRetryAfter } from '../../../lambdas/scanner/net/hibp-client.js';
import { adobe, exampleShop, linkedIn, TEST_API_KEY, TEST_USER_AGENT, travelSite } from '../../fixtures/hibp/breaches.js';
import { type HibpServer, startHibpServer } from '../../support/hibp-server.js';

let hibp: HibpServer;

beforeAll(async () => {
  hibp = await startHibpServer({
    apiKey: TEST_API_KEY,
    accounts: { 'owner@example.com': [adobe, linkedIn, exampleShop], 'o+shop@example.com': [travelSite] },
    domains: { 'example.com': { owner: ['Adobe', 'LinkedIn'], accounts: ['ExampleShop'] }, 'quiet.example': {} },
  });
});
afterAll(() => hibp.close());
afterEach(() => {
  hibp.requests.length = 0;
  hibp.throttle(0, 0);
});

const client = (overrides: Partial<Parameters<typeof createHibpClient>[0]> = {}) =>
  createHibpClient({ apiKey: TEST_API_KEY, userAgent: TEST_USER_AGENT, baseUrl: hibp.apiBaseUrl, ...overrides });

describe('HIBP client: breachedaccount', () => {
  it('asks for the full breach model with the documented headers and reads every breach', async () => {
    // Act
    const result = await client().breachedAccount('Owner@Example.com');
    // Assess
    expect(hibp.requests).toHaveLength(1);
    const [request] = hibp.requests;
    expect(request!.path).toBe('/api/v3/breachedaccount/Owner%40Example.com?truncateResponse=false');
    expect(request!.headers['hibp-api-key']).toBe(TEST_API_KEY);
    expect(request!.headers['user-agent']).toBe(TEST_USER_AGENT);
    expect(result.outcome).toBe('ok');
    if (result.outcome !== 'ok') return;
    expect(result.value.map((b) => [b.name, b.breachDate, b.dataClasses])).toEqual([
      ['Adobe', '2013-10-04', ['Email addresses', 'Password hints', 'Passwords', 'Usernames']],
      ['LinkedIn', '2012-05-05', ['Email addresses', 'Passwords']],
      ['ExampleShop', '2025-03-10', ['Email addresses', 'IP addresses', 'Names', 'Passwords']],
    ]);
    expect(result.value[1]).toMatchObject({ title: 'LinkedIn', domain: 'linkedin.com', addedDate: '2016-05-21T21:35:40Z', pwnCount: 164611595, isVerified: true });
  });

  it('encodes the address as one path segment (plus sign included)', async () => {
    const result = await client().breachedAccount('o+shop@example.com');
    expect(hibp.requests[0]!.path).toBe('/api/v3/breachedaccount/o%2Bshop%40example.com?truncateResponse=false');
    expect(result).toMatchObject({ outcome: 'ok', value: [{ name: 'TravelSite', isVerified: false }] });
  });

  it('reads 404 as "in no breach": an empty list', async () => {
    expect(await client().breachedAccount('nobody@example.com')).toEqual({ outcome: 'ok', value: [] });
  });

  it('reports a refused key as unauthorized with HIBP\'s reason, and a key that is not 32 hex as well', async () => {
    const wrong = await client({ apiKey: 'ffffffffffffffffffffffffffffffff' }).breachedAccount('owner@example.com');
    const malformed = await client({ apiKey: 'not-a-key' }).breachedAccount('owner@example.com');
    expect(wrong).toMatchObject({ outcome: 'unauthorized', status: 401 });
    expect(wrong.outcome !== 'ok' && wrong.reason).toContain('Access denied due to invalid hibp-api-key.');
    expect(malformed.outcome !== 'ok' && malformed.reason).toContain('improperly formed hibp-api-key');
  });

  it('refuses to be built without a user agent (HIBP answers 403 without one) or without a key', () => {
    expect(() => client({ userAgent: ' ' })).toThrow(/userAgent/);
    expect(() => client({ apiKey: '' })).toThrow(/apiKey/);
  });

  it('waits the retry-after HIBP gives on 429, then answers', async () => {
    // Prepare
    hibp.throttle(1, 1);
    const started = performance.now();
    // Act
    const result = await client({ maxRetryWaitMs: 2_000 }).breachedAccount('owner@example.com');
    // Assess
    const elapsed = performance.now() - started;
    expect(result.outcome).toBe('ok');
    expect(hibp.requests.map((r) => r.status)).toEqual([429, 200]);
    expect(hibp.requests[1]!.at - hibp.requests[0]!.at).toBeGreaterThanOrEqual(990);
    expect(elapsed).toBeLessThan(1_800);
  });

  it('retries a 429 at most twice, then gives up as rate-limited', async () => {
    hibp.throttle(5, 1);
    const result = await client({ maxRetryWaitMs: 1_500 }).breachedAccount('owner@example.com');
    expect(hibp.requests.map((r) => r.status)).toEqual([429, 429, 429]);
    expect(result).toMatchObject({ outcome: 'rate-limited', status: 429, retryAfterSeconds: 1 });
    expect(result.outcome !== 'ok' && result.reason).toBe('Have I Been Pwned answered 429 (too many requests) 3 times; retry after 1 s');
  });

  it('does not start a wait longer than maxRetryWaitMs: one request, then rate-limited at once', async () => {
    hibp.throttle(1, 30);
    const started = performance.now();
    const result = await client({ maxRetryWaitMs: 2_000 }).breachedAccount('owner@example.com');
    expect(performance.now() - started).toBeLessThan(500);
    expect(hibp.requests).toHaveLength(1);
    expect(result).toMatchObject({ outcome: 'rate-limited', status: 429, retryAfterSeconds: 30 });
    expect(result.outcome !== 'ok' && result.reason).toContain('Have I Been Pwned answered 429');
  });

  it('honours the caller\'s signal while waiting for retry-after', async () => {
    hibp.throttle(1, 2);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('budget spent')), 200);
    await expect(client({ maxRetryWaitMs: 5_000 }).breachedAccount('owner@example.com', { signal: controller.signal })).rejects.toThrow('budget spent');
    expect(hibp.requests).toHaveLength(1);
  });

  it('paces its lookups: never more than the plan allows in any window, so HIBP never answers 429', async () => {
    // Prepare: HIBP enforces 2 per 700 ms; the client is told the same plan rate.
    const paced = await startHibpServer({ apiKey: TEST_API_KEY, rateLimit: { requests: 2, windowMs: 700 } });
    const lookups = createHibpClient({ apiKey: TEST_API_KEY, userAgent: TEST_USER_AGENT, baseUrl: paced.apiBaseUrl, rateLimit: { requests: 2, windowMs: 700 }, maxRetryWaitMs: 2_000 });
    try {
      // Act: five addresses at once, as concurrent scans sharing one client would.
      const results = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((n) => lookups.breachedAccount(`${n}@example.com`)));
      // Assess
      expect(results.map((r) => r.outcome)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
      expect(paced.requests.map((r) => r.status)).toEqual([404, 404, 404, 404, 404]);
      const times = paced.requests.map((r) => r.at).sort((a, b) => a - b);
      for (let i = 2; i < times.length; i += 1) expect(times[i]! - times[i - 2]!).toBeGreaterThanOrEqual(690);
    } finally {
      await paced.close();
    }
  });

  it('answers rate-limited without sending when its own pacing would need a longer wait than allowed', async () => {
    const lookups = client({ rateLimit: { requests: 1, windowMs: 60_000 }, maxRetryWaitMs: 1_000 });
    const first = await lookups.breachedAccount('owner@example.com');
    const second = await lookups.breachedAccount('nobody@example.com');
    expect(first.outcome).toBe('ok');
    expect(second).toMatchObject({ outcome: 'rate-limited', retryAfterSeconds: 60 });
    expect(second.outcome !== 'ok' && second.reason).toContain("client's pacing (1 lookups per 60 s)");
    expect(hibp.requests).toHaveLength(1);
  });
});

describe('HIBP client: breacheddomain', () => {
  it('reads the aliases of a verified domain and their breaches', async () => {
    const result = await client().breachedDomain('Example.com');
    expect(hibp.requests[0]!.path).toBe('/api/v3/breacheddomain/example.com');
    expect(result).toEqual({ outcome: 'ok', value: { owner: ['Adobe', 'LinkedIn'], accounts: ['ExampleShop'] } });
  });

  it('reads 404 as no breached alias, and 403 (domain not verified for this key) as unauthorized', async () => {
    expect(await client().breachedDomain('quiet.example')).toEqual({ outcome: 'ok', value: {} });
    const refused = await client().breachedDomain('other.example');
    expect(refused).toMatchObject({ outcome: 'unauthorized', status: 403 });
    expect(refused.outcome !== 'ok' && refused.reason).toContain('The domain has not been verified by the owner of this API key.');
  });
});

describe('HIBP client: answers off the contract', () => {
  let odd: ReturnType<typeof createServer>;
  let base: string;
  const bodies: Record<string, [number, string]> = {
    '/api/v3/breachedaccount/truncated%40example.com': [200, JSON.stringify([{ Name: 'Adobe' }])],
    '/api/v3/breachedaccount/html%40example.com': [200, '<html>maintenance</html>'],
    '/api/v3/breachedaccount/down%40example.com': [503, 'Service Unavailable'],
  };
  beforeAll(async () => {
    odd = createServer((request, response) => {
      const [status, body] = bodies[(request.url ?? '').split('?')[0]!] ?? [500, ''];
      response.writeHead(status).end(body);
    });
    await new Promise<void>((resolve) => odd.listen(0, '127.0.0.1', () => resolve()));
    base = `http://127.0.0.1:${(odd.address() as AddressInfo).port}/api/v3`;
  });
  afterAll(() => new Promise<void>((resolve) => odd.close(() => resolve())));

  it('reports a truncated or non-JSON 200 and a 503 as errors, never as "no breaches"', async () => {
    const lookups = createHibpClient({ apiKey: TEST_API_KEY, userAgent: TEST_USER_AGENT, baseUrl: base });
    expect(await lookups.breachedAccount('truncated@example.com')).toMatchObject({ outcome: 'error', reason: 'Have I Been Pwned answered 200 with a body that is not the documented breach model' });
    expect(await lookups.breachedAccount('html@example.com')).toMatchObject({ outcome: 'error', reason: 'Have I Been Pwned answered 200 with a body that is not JSON' });
    expect(await lookups.breachedAccount('down@example.com')).toMatchObject({ outcome: 'error', status: 503, reason: 'Have I Been Pwned answered HTTP 503: Service Unavailable' });
  });

  it('reports an unreachable service as an error naming the cause, without the address', async () => {
    const closed = await startHibpServer({ apiKey: TEST_API_KEY });
    const url = closed.apiBaseUrl;
    await closed.close();
    const result = await createHibpClient({ apiKey: TEST_API_KEY, userAgent: TEST_USER_AGENT, baseUrl: url }).breachedAccount('owner@example.com');
    expect(result).toEqual({ outcome: 'error', reason: 'Have I Been Pwned could not be reached (ECONNREFUSED)' });
  });
});

describe('pacing and retry-after parsing', () => {
  it('lets at most the limit through per window, counting a request until its answer is in, and honours a block', () => {
    let t = 1_000;
    const pacer = createPacer({ requests: 2, windowMs: 100 }, () => t);
    expect(pacer.waitMs()).toBe(0);
    const first = pacer.take();
    const second = pacer.take();
    // Both still in flight: they count from now, whenever now is.
    t = 1_300;
    expect(pacer.waitMs()).toBe(100);
    first();
    t = 1_350;
    // The first answered at 1 300, so it leaves the window at 1 400.
    expect(pacer.waitMs()).toBe(50);
    second();
    t = 1_450;
    expect(pacer.waitMs()).toBe(0);
    pacer.blockUntil(1_700);
    expect(pacer.waitMs()).toBe(250);
  });

  it('reads delta-seconds and HTTP dates, rounding up, with a fallback when absent', () => {
    const now = Date.parse('2026-11-22T12:00:00Z');
    expect(parseRetryAfter('2', now)).toBe(2);
    expect(parseRetryAfter('0.2', now)).toBe(1);
    expect(parseRetryAfter('Sun, 22 Nov 2026 12:00:05 GMT', now)).toBe(5);
    expect(parseRetryAfter(null, now)).toBe(2);
    expect(parseRetryAfter('soon', now)).toBe(2);
  });
});
