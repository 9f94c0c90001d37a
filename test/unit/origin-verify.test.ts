import { Logger } from '@aws-lambda-powertools/logger';
import { describe, expect, it } from 'vitest';
import { type ApiEvent, httpHandler, requireOrigin } from '../../lambdas/api/http.js';
import { isOriginVerified, ORIGIN_VERIFY_HEADER } from '../../lambdas/api/origin-verify.js';
import { buildDeps } from '../../lambdas/composition.js';
import { loadConfig } from '../../lambdas/config.js';

const SECRET = 'k3PqV9xW2mZr7TtY8bNc4LdHs6FgJa1QeUo5RiXv0BwCyKpEnMzDlAhSjGuIf';
const log = new Logger({ serviceName: 'test', logLevel: 'CRITICAL' });
const deps = buildDeps(loadConfig({}), { log });
const event = (headers: Record<string, string>): ApiEvent =>
  ({ routeKey: 'GET /api/health', headers, requestContext: { http: { sourceIp: '203.0.113.9', userAgent: 'test' } } }) as unknown as ApiEvent;
/** A real HTTP-layer handler that says it was reached. */
const reached = httpHandler(deps, async () => ({ status: 200, body: { reached: true } }));

describe('isOriginVerified', () => {
  it('accepts exactly the secret and nothing else: no prefix, no extension, no other case, no absence', () => {
    expect(isOriginVerified(SECRET, SECRET)).toBe(true);
    for (const guess of [undefined, '', SECRET.slice(0, -1), `${SECRET}x`, SECRET.toLowerCase(), ` ${SECRET}`]) {
      expect(isOriginVerified(SECRET, guess), String(guess)).toBe(false);
    }
  });
});

describe('requireOrigin (ORIGIN_VERIFY_SECRET set)', () => {
  const guarded = requireOrigin(SECRET, reached);

  it.each([
    ['no header', {}],
    ['an empty header', { [ORIGIN_VERIFY_HEADER]: '' }],
    ['a wrong value', { [ORIGIN_VERIFY_HEADER]: SECRET.replace(/.$/, '0') }],
    ['the secret under another header', { 'x-origin-verified': SECRET }],
  ])('refuses a request with %s: 403 forbidden_origin, the handler not reached', async (_case, headers) => {
    // Act
    const reply = await guarded(event(headers));

    // Assess
    expect(reply.statusCode).toBe(403);
    expect(reply.headers).toMatchObject({ 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
    expect(JSON.parse(reply.body!)).toEqual({ error: 'forbidden_origin', message: 'The API answers only through the site.' });
  });

  it('lets the request with the right header through to the handler, whatever the header name’s case', async () => {
    for (const name of [ORIGIN_VERIFY_HEADER, 'X-Origin-Verify']) {
      const reply = await guarded(event({ [name]: SECRET }));
      expect([reply.statusCode, JSON.parse(reply.body!)], name).toEqual([200, { reached: true }]);
    }
  });
});

describe('requireOrigin (ORIGIN_VERIFY_SECRET unset: npm start, tests)', () => {
  it('returns the handler itself, so every request goes through as before', async () => {
    // Act
    const guarded = requireOrigin(loadConfig({}).ORIGIN_VERIFY_SECRET, reached);

    // Assess
    expect(guarded).toBe(reached);
    expect((await guarded(event({}))).statusCode).toBe(200);
  });
});

describe('ORIGIN_VERIFY_SECRET configuration', () => {
  it('is read as given, and refused when shorter than 32 characters', () => {
    expect(loadConfig({ ORIGIN_VERIFY_SECRET: SECRET }).ORIGIN_VERIFY_SECRET).toBe(SECRET);
    expect(() => loadConfig({ ORIGIN_VERIFY_SECRET: 'short' })).toThrow(/ORIGIN_VERIFY_SECRET: must be at least 32 characters/);
  });
});
