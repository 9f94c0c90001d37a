import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, type TestUser } from '../support/accounts.js';
import { startTestStack, type TestStack } from '../support/local-stack.js';
import { closeRawAgent, type RawRequest, rawRequest } from './support/raw-http.js';
import { NO_CHANGES, tableChanges, tableItems } from './support/table.js';

/**
 * Each defect the hardening suites found, pinned with the request that found it (test/hardening/README.md),
 * so it stays fixed whatever the generators happen to produce next time.
 */
let t: TestStack;
let user: TestUser;

beforeAll(async () => {
  t = await startTestStack();
  user = await signIn(t, 'pinned@example.test', 'Pin');
});
afterAll(async () => {
  closeRawAgent();
  await t?.close();
});

const send = (request: RawRequest) => rawRequest(t.stack.url, request);
const json = (text: string) => JSON.parse(text) as { error?: string; message?: string };

describe('the local server', () => {
  it('answers a malformed escape in a site path with 400 instead of throwing out of the listener (which ended npm start)', async () => {
    const broken = await send({ method: 'GET', path: '/%' });
    const after = await send({ method: 'GET', path: '/api/health' });

    expect([broken.status, broken.text]).toEqual([400, 'Bad path']);
    expect(after.status).toBe(200);
  });

  it('answers a Host header no URL can hold with 400 invalid_host', async () => {
    for (const host of ['a b', '[']) {
      const reply = await send({ method: 'GET', path: '/api/health', headers: { host } });
      expect([reply.status, json(reply.text).error]).toEqual([400, 'invalid_host']);
    }
  });

  it.each([
    ['POST', '/api/audits/%E0%A4%A/shares'],
    ['POST', '/api/audits/%/shares'],
    ['GET', '/api/orders/%C0%AF/receipt.pdf'],
    ['GET', '/badge/%FF%FE'],
  ])('answers the malformed escape in %s %s with 400 invalid_path, not 500', async (method, path) => {
    const reply = await send({ method, path });

    expect([reply.status, json(reply.text).error]).toEqual([400, 'invalid_path']);
  });

  it('lets a body over 64 KiB arrive and answers 413, where it used to reset the connection', async () => {
    const body = `{"x":"${'a'.repeat(200 * 1024)}"}`;
    const replies = await Promise.all(Array.from({ length: 4 }, () => send({ method: 'POST', path: '/api/leads', headers: { 'content-type': 'application/json' }, body })));

    expect(replies.map((r) => [r.status, json(r.text).error])).toEqual(Array.from({ length: 4 }, () => [413, 'payload_too_large']));
  });
});

describe('handlers that decoded an already-decoded path parameter again', () => {
  it.each([
    ['GET', '/api/badges/%25'],
    ['GET', '/badge/%25.svg'],
    ['DELETE', '/api/me/domains/%25'],
    ['POST', '/api/me/domains/%25E0%25A4%25A/verify'],
  ])('%s %s answers 400, not a URIError 500', async (method, path) => {
    const reply = await send({ method, path, headers: { authorization: `Bearer ${user.token}` } });

    expect(reply.status).toBe(400);
    expect(json(reply.text)).toMatchObject({ error: 'validation_failed', message: expect.any(String) });
  });

  it('GET /api/me/reports/monthly/%25 answers 404 (no such report), not a URIError 500', async () => {
    const reply = await send({ method: 'GET', path: '/api/me/reports/monthly/%25', headers: { authorization: `Bearer ${user.token}` } });

    expect([reply.status, json(reply.text).error]).toEqual([404, 'monthly_report_not_found']);
  });
});

describe('a domain path parameter too long for a DynamoDB key', () => {
  it.each([
    ['DELETE', `/api/me/domains/${'a'.repeat(2_000)}`],
    ['POST', `/api/me/domains/${'a'.repeat(2_000)}.example.test/verify`],
  ])('%s of a 2,000-character domain answers 400 (was a ValidationException 500) and writes nothing', async (method, path) => {
    const before = await tableItems(t);

    const reply = await send({ method, path, headers: { authorization: `Bearer ${user.token}` } });

    expect([reply.status, json(reply.text).error]).toEqual([400, 'validation_failed']);
    expect(tableChanges(before, await tableItems(t))).toEqual(NO_CHANGES);
  });
});
