import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from '../support/local-stack.js';
import { closeRawAgent, type RawRequest, rawRequest } from './support/raw-http.js';

/**
 * Each defect the hardening suites found, pinned with the request that found it (test/hardening/README.md),
 * so it stays fixed whatever the generators happen to produce next time.
 */
let t: TestStack;

beforeAll(async () => {
  t = await startTestStack();
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
