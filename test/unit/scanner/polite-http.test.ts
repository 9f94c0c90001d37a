import { describe, expect, it } from 'vitest';
import type { HttpClient, HttpRequestOptions, HttpResponse } from '../../../lambdas/scanner/net/http-client.js';
import { politeHttp, SCANNER_POLITENESS } from '../../../lambdas/scanner/net/polite-http.js';

/** A client that records when each request started and how many were in flight, answering after `delayMs`. */
function recordingClient(answer: (url: string, index: number) => Pick<HttpResponse, 'status' | 'headers'>, delayMs = 20) {
  const starts: { url: string; at: number }[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const client: HttpClient = {
    async request(url: string, _options?: HttpRequestOptions): Promise<HttpResponse> {
      starts.push({ url, at: performance.now() });
      const index = starts.length;
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      inFlight -= 1;
      return { url, body: '', redirects: [], address: '127.0.0.1', ...answer(url, index) } as HttpResponse;
    },
  };
  return { client, starts, maxInFlight: () => maxInFlight };
}

/** The most requests started in any window of `ms`. */
function busiestWindow(starts: readonly { at: number }[], ms: number): number {
  let most = 0;
  for (const start of starts) most = Math.max(most, starts.filter((s) => s.at >= start.at && s.at < start.at + ms).length);
  return most;
}

describe('politeHttp: one site is asked politely however many checks ask at once', () => {
  it('documents the per-site limits the README and /scanner state', () => {
    expect(SCANNER_POLITENESS).toEqual({ maxInFlight: 4, perSecond: 20 });
  });

  it('keeps at most maxInFlight requests open and at most perSecond started in any second, per host', async () => {
    // Prepare
    const { client, starts, maxInFlight } = recordingClient(() => ({ status: 200, headers: {} }), 5);
    const polite = politeHttp(client, { politeness: { maxInFlight: 3, perSecond: 10 } });

    // Act: 25 requests to one host at once
    await Promise.all(Array.from({ length: 25 }, (_, i) => polite.request(`http://shop.test/${i}`)));

    // Assess
    expect(starts).toHaveLength(25);
    expect(maxInFlight()).toBeLessThanOrEqual(3);
    // At most 10 start in any second: 25 requests need at least 2 s (10, 10, 5).
    expect(starts.at(-1)!.at - starts[0]!.at).toBeGreaterThanOrEqual(1990);
    // Measured by the fake client a few microtasks after the gate let each go: 30 ms of recording jitter allowed.
    expect(busiestWindow(starts, 970)).toBeLessThanOrEqual(10);
  }, 10_000);

  it('limits each host on its own: another site is not slowed by the first', async () => {
    const { client, starts } = recordingClient(() => ({ status: 200, headers: {} }), 5);
    const polite = politeHttp(client, { politeness: { maxInFlight: 2, perSecond: 2 } });

    const slow = Promise.all(Array.from({ length: 4 }, (_, i) => polite.request(`http://a.test/${i}`)));
    await polite.request('http://b.test/');
    const bStarted = starts.find((s) => s.url.startsWith('http://b.test'))!.at - starts[0]!.at;
    await slow;

    expect(bStarted).toBeLessThan(200);
  }, 10_000);

  it('waits out a 429 Retry-After once, when it ends before retryAfterUntil, and asks again', async () => {
    // Prepare: the first answer is 429 Retry-After 1, then the site answers.
    const { client, starts } = recordingClient((_url, index) => (index === 1 ? { status: 429, headers: { 'retry-after': ['1'] } } : { status: 200, headers: {} as Record<string, string[]> }));
    const polite = politeHttp(client, { retryAfterUntil: performance.now() + 10_000 });

    // Act
    const response = await polite.request('http://shop.test/');

    // Assess
    expect(response.status).toBe(200);
    expect(starts).toHaveLength(2);
    expect(starts[1]!.at - starts[0]!.at).toBeGreaterThanOrEqual(990);
  }, 10_000);

  it('waits only once: a second 429 after the wait is the answer', async () => {
    const { client, starts } = recordingClient(() => ({ status: 429, headers: { 'retry-after': ['1'] } }));
    const polite = politeHttp(client, { retryAfterUntil: performance.now() + 10_000 });

    const first = await polite.request('http://shop.test/a');
    const second = await polite.request('http://shop.test/b');

    expect(first.status).toBe(429);
    expect(second.status).toBe(429);
    // a: asked, waited, asked again; b: asked once.
    expect(starts.map((s) => new URL(s.url).pathname)).toEqual(['/a', '/a', '/b']);
  }, 10_000);

  it('does not wait past retryAfterUntil (the scan’s deadline): the 429 is the answer at once', async () => {
    const { client, starts } = recordingClient(() => ({ status: 429, headers: { 'retry-after': ['120'] } }));
    const polite = politeHttp(client, { retryAfterUntil: performance.now() + 10_000 });

    const started = performance.now();
    const response = await polite.request('http://shop.test/');

    expect(response.status).toBe(429);
    expect(starts).toHaveLength(1);
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('abandons a queued request when its signal aborts, without sending it', async () => {
    const { client, starts } = recordingClient(() => ({ status: 200, headers: {} }), 200);
    const polite = politeHttp(client, { politeness: { maxInFlight: 1, perSecond: 100 } });
    const controller = new AbortController();

    const first = polite.request('http://shop.test/1');
    const queued = polite.request('http://shop.test/2', { signal: controller.signal });
    controller.abort(new Error('budget over'));

    await expect(queued).rejects.toThrow('budget over');
    await first;
    expect(starts.map((s) => s.url)).toEqual(['http://shop.test/1']);
  });
});
