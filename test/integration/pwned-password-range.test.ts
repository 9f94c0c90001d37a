import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_API_KEY } from '../fixtures/hibp/breaches.js';
import { startHibpServer, type HibpServer } from '../support/hibp-server.js';
import { startTestStack, type TestStack } from '../support/local-stack.js';

let hibp: HibpServer;
let t: TestStack;
let unreachable: TestStack;

const sha1 = (text: string) => createHash('sha1').update(text, 'utf8').digest('hex').toUpperCase();

beforeAll(async () => {
  hibp = await startHibpServer({
    apiKey: TEST_API_KEY,
    passwords: { 'P@ssw0rd': 52579 },
    // The server pads every answer; this password's own suffix appears only as padding (count 0).
    paddingWithSuffixesOf: ['Tr0ub4dor&3-unique-enough'],
  });
  // A closed port: the upstream cannot be reached.
  const closed = await startHibpServer({ apiKey: TEST_API_KEY });
  const closedUrl = closed.passwordsBaseUrl;
  await closed.close();
  [t, unreachable] = await Promise.all([startTestStack({ PWNED_PASSWORDS_URL: hibp.passwordsBaseUrl }), startTestStack({ PWNED_PASSWORDS_URL: closedUrl })]);
});
afterAll(async () => {
  await Promise.all([t?.close(), unreachable?.close(), hibp?.close()]);
});

async function range(stack: TestStack, prefix: string) {
  const response = await fetch(`${stack.stack.url}/api/pwned-passwords/${prefix}`);
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> & { suffixes: { suffix: string; count: number }[] } };
}

describe('GET /api/pwned-passwords/{prefix}', () => {
  it("answers the range's known suffixes, so the browser finds a breached password without sending it", async () => {
    const hash = sha1('P@ssw0rd');
    hibp.requests.length = 0;
    // The browser may send the prefix in either case.
    const reply = await range(t, hash.slice(0, 5).toLowerCase());
    expect(reply.status).toBe(200);
    expect(reply.headers.get('cache-control')).toBe('public, max-age=86400');
    expect(reply.body.suffixes).toEqual([{ suffix: hash.slice(5), count: 52579 }]);
    // Upstream got the upper-case prefix, asked for padding, and nothing more.
    expect(hibp.requests.map((r) => [r.path, r.headers['add-padding']])).toEqual([[`/range/${hash.slice(0, 5)}`, 'true']]);
  });

  it('drops the padding lines, even one carrying a real suffix at count 0', async () => {
    const hash = sha1('Tr0ub4dor&3-unique-enough');
    const reply = await range(t, hash.slice(0, 5));
    expect(reply.status).toBe(200);
    expect(reply.body.suffixes.every((entry) => /^[0-9A-F]{35}$/.test(entry.suffix) && entry.count > 0)).toBe(true);
    expect(reply.body.suffixes.map((entry) => entry.suffix)).not.toContain(hash.slice(5));
  });

  it.each(['21BD', '21BD12', 'XYZ12', '21B%2FD'])('refuses the prefix %s with 400 invalid_prefix, asking nobody', async (prefix) => {
    hibp.requests.length = 0;
    const reply = await range(t, prefix);
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ error: 'invalid_prefix', message: expect.stringContaining('5 hexadecimal characters') });
    expect(hibp.requests).toEqual([]);
  });

  it('says the check is unavailable (502) when Pwned Passwords cannot be reached, so sign-up goes on', async () => {
    const reply = await range(unreachable, '21BD1');
    expect(reply.status).toBe(502);
    expect(reply.headers.get('cache-control')).toBe('no-store');
    expect(reply.body).toEqual({ error: 'breach_check_unavailable', message: 'The breached-password check is unavailable right now.' });
  });

  it('says the same when Pwned Passwords answers with an error', async () => {
    const broken = await startTestStack({ PWNED_PASSWORDS_URL: `${hibp.passwordsBaseUrl}/nowhere` });
    try {
      const reply = await range(broken, '21BD1');
      expect([reply.status, reply.body.error]).toEqual([502, 'breach_check_unavailable']);
    } finally {
      await broken.close();
    }
  });
});
