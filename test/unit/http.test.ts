import { describe, expect, it } from 'vitest';
import { Logger } from '@aws-lambda-powertools/logger';
import { errorReply, httpHandler, type ApiEvent } from '../../lambdas/api/http.js';
import { buildDeps } from '../../lambdas/composition.js';
import { loadConfig } from '../../lambdas/config.js';
import { ConflictError, GoneError, NotFoundError, RateLimitedError, UpstreamUnavailableError, ValidationError } from '../../lambdas/domain/errors.js';

const log = new Logger({ serviceName: 'test', logLevel: 'CRITICAL' });
const deps = buildDeps(loadConfig({}), { log });
const event = (body?: string): ApiEvent => ({ body, headers: {}, requestContext: { http: { sourceIp: '127.0.0.1', userAgent: 'test' } } }) as unknown as ApiEvent;

describe('HTTP error mapping', () => {
  it('gives validation errors 400 with the field messages', () => {
    const reply = errorReply(new ValidationError('All fields are required', { email: 'Please enter a valid email address' }), deps);
    expect(reply.statusCode).toBe(400);
    expect(JSON.parse(reply.body!)).toEqual({
      error: 'validation_failed',
      message: 'All fields are required',
      fields: { email: 'Please enter a valid email address' },
    });
  });

  it('gives not-found codes 404 and rate limits 429 with retry-after', () => {
    expect(errorReply(new NotFoundError('audit_not_found', 'Audit not found'), deps).statusCode).toBe(404);
    const limited = errorReply(new RateLimitedError('Too many scans', 30), deps);
    expect([limited.statusCode, limited.headers?.['retry-after']]).toEqual([429, '30']);
  });

  it('gives an unavailable upstream service 502 with its code and message', () => {
    const reply = errorReply(new UpstreamUnavailableError('breach_check_unavailable', 'Unavailable right now.'), deps);
    expect([reply.statusCode, JSON.parse(reply.body!)]).toEqual([502, { error: 'breach_check_unavailable', message: 'Unavailable right now.' }]);
  });

  it('maps error classes whatever their code: conflict 409, gone 410, not found 404', () => {
    expect(errorReply(new ConflictError('audit_not_completed', 'Not ready'), deps).statusCode).toBe(409);
    expect(errorReply(new GoneError('share_expired', 'Shared audit not found or expired'), deps).statusCode).toBe(410);
    expect(errorReply(new NotFoundError('share_not_found', 'Shared audit not found or expired'), deps).statusCode).toBe(404);
  });

  it('answers a redirect with its location, no body and no content type', async () => {
    const handler = httpHandler(deps, async () => ({ status: 302, headers: { location: 'https://reports.example/r.pdf' } }));
    const reply = await handler(event());
    expect(reply).toEqual({ statusCode: 302, headers: { 'cache-control': 'no-store', location: 'https://reports.example/r.pdf' }, body: '' });
  });

  it('never shows an unexpected error, only a generic 500', () => {
    const reply = errorReply(new TypeError('secret internals at line 42'), deps);
    expect(reply.statusCode).toBe(500);
    expect(reply.body).not.toContain('secret');
    expect(JSON.parse(reply.body!).error).toBe('internal_error');
  });

  it.each([
    [undefined, 'The request body must be a JSON object.'],
    ['{"a":', 'The request body is not valid JSON.'],
  ])('answers 400 invalid_json for the body %j', async (body, message) => {
    const handler = httpHandler(deps, async (request) => ({ status: 200, body: request.json() }));
    const reply = await handler(event(body));
    expect(reply.statusCode).toBe(400);
    expect(JSON.parse(reply.body!)).toEqual({ error: 'invalid_json', message });
  });
});

describe('request body limits follow the route manifest', () => {
  const sized = (routeKey: string, bytes: number): ApiEvent => ({ ...event(JSON.stringify({ pad: 'x'.repeat(bytes - 10) })), routeKey }) as ApiEvent;
  const handler = httpHandler(deps, async (request) => ({ status: 200, body: { read: JSON.stringify(request.json()).length } }));

  it('reads a 100 KB branding body (the route declares 128 KB) and refuses one past 128 KB with 413', async () => {
    const fits = await handler(sized('PUT /api/me/provider/branding', 100 * 1024));
    const over = await handler(sized('PUT /api/me/provider/branding', 131_072 + 1));

    expect([fits.statusCode, JSON.parse(fits.body!).read]).toEqual([200, 100 * 1024]);
    expect([over.statusCode, JSON.parse(over.body!)]).toEqual([413, { error: 'payload_too_large', message: 'The request body is larger than 128 KiB.' }]);
  });

  it('keeps 64 KiB for a route that declares no limit', async () => {
    const over = await handler(sized('PUT /api/me', 64 * 1024 + 1));
    const fits = await handler(sized('PUT /api/me', 64 * 1024));

    expect([over.statusCode, JSON.parse(over.body!).message]).toEqual([413, 'The request body is larger than 64 KiB.']);
    expect(fits.statusCode).toBe(200);
  });
});
