import { createServer, type IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WAZUH_RELAY_LIMITS } from '../../lambdas/domain/wazuh.contract.js';
import { relayWazuhRequest } from '../../lambdas/use-cases/wazuh-relay.js';
import { api, signIn, type TestUser } from '../support/accounts.js';
import { startTestStack, type TestStack } from '../support/local-stack.js';
import { loopbackServers } from '../support/loopback-servers.js';

/**
 * The Wazuh tester's relay (`POST /api/wazuh/relay`, issue 10): in the production configuration
 * (SCAN_ALLOW_PRIVATE_TARGETS off, the test stack's default) it refuses loopback, private,
 * link-local and metadata targets — by address or by a name resolving there — without sending a
 * byte, takes only the tester's own paths, and only from signed-in users. With private targets
 * allowed (npm start for local testing), it relays to a loopback stand-in that answers Wazuh API
 * shapes: the status and body as they came, no redirect followed, the size capped.
 */

let t: TestStack;
let user: TestUser;
const servers = loopbackServers();
const seen: { url: string; headers: IncomingHttpHeaders }[] = [];
let managerPort = 0;
let otherPort = 0;
const otherSeen: string[] = [];

const agents = {
  data: {
    affected_items: [{ id: '001', name: 'rampart-shop.example.test', ip: '203.0.113.9', status: 'active', group: ['shop-example-test'] }],
    total_affected_items: 1,
    total_failed_items: 0,
    failed_items: [],
  },
  message: 'All selected agents information was returned',
  error: 0,
};

beforeAll(async () => {
  t = await startTestStack();
  user = await signIn(t, 'wazuh@relay.example.test');
  managerPort = await servers.listen(
    createServer((request, response) => {
      seen.push({ url: request.url ?? '', headers: request.headers });
      const json = (status: number, body: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(body));
      };
      if (request.headers.authorization !== 'Bearer good-token') return json(401, { title: 'Unauthorized', detail: 'Invalid credentials' });
      if (request.url === '/agents') return json(200, agents);
      if (request.url === '/groups') {
        // Redirects elsewhere: the relay must not follow (the token would travel with it).
        response.writeHead(302, { location: `http://127.0.0.1:${otherPort}/steal` });
        return response.end();
      }
      if (request.url === '/agents?status=active') {
        response.writeHead(200, { 'content-type': 'application/json' });
        return response.end('x'.repeat(WAZUH_RELAY_LIMITS.maxBodyBytes + 4096));
      }
      return json(404, { title: 'Not Found', detail: '404: Not Found' });
    }),
  );
  otherPort = await servers.listen(
    createServer((request, response) => {
      otherSeen.push(request.url ?? '');
      response.end('{}');
    }),
  );
}, 60_000);

afterAll(async () => {
  await servers.closeAll();
  await t?.close();
});

const relay = (body: unknown, token: string | undefined = user.token) => api(t, 'POST', '/api/wazuh/relay', token, body);

describe('POST /api/wazuh/relay in the production configuration', () => {
  it.each([
    ['loopback by address', () => `http://127.0.0.1:${managerPort}`, '127.0.0.1'],
    ['IPv6 loopback', () => `http://[::1]:${managerPort}`, '::1'],
    ['a private address', () => 'https://10.0.0.7:55000', '10.0.0.7'],
    ['the cloud metadata address', () => 'http://169.254.169.254', '169.254.169.254'],
    ['a name resolving to a private address', () => 'https://private.example.test:55000', '10.0.0.7'],
    ['a name resolving to the metadata address', () => 'https://metadata.example.test:55000', '169.254.169.254'],
  ])('refuses %s with 403 target_not_allowed and sends nothing', async (_what, endpoint, address) => {
    const before = seen.length;
    const reply = await relay({ endpoint: endpoint(), path: '/agents', token: 'good-token' });
    expect(reply.status).toBe(403);
    expect(reply.body.error).toBe('target_not_allowed');
    expect(reply.body.message).toContain(address);
    expect(seen.length).toBe(before);
  });

  it('answers 401 without a signed-in user, so it is no open proxy', async () => {
    const reply = await relay({ endpoint: 'https://wazuh.example.com:55000', path: '/agents', token: 'good-token' }, '');
    expect(reply.status).toBe(401);
    expect(reply.body.error).toBe('unauthorized');
  });

  it.each([
    ['a path the tester never sends', { endpoint: 'https://wazuh.example.com:55000', path: '/security/users', token: 't' }, 'path'],
    ['a second query parameter', { endpoint: 'https://wazuh.example.com:55000', path: '/agents?search=rampart-a.com&limit=1', token: 't' }, 'path'],
    ['a scheme other than http(s)', { endpoint: 'ftp://wazuh.example.com', path: '/agents', token: 't' }, 'endpoint'],
    ['credentials in the endpoint', { endpoint: 'https://user:pw@wazuh.example.com', path: '/agents', token: 't' }, 'endpoint'],
    ['a token with a line break', { endpoint: 'https://wazuh.example.com:55000', path: '/agents', token: 'a\r\nX-Injected: 1' }, 'token'],
    ['no token', { endpoint: 'https://wazuh.example.com:55000', path: '/agents' }, 'token'],
  ])('refuses %s with 400 naming the field', async (_what, body, field) => {
    const reply = await relay(body);
    expect(reply.status).toBe(400);
    expect(reply.body.error).toBe('validation_failed');
    expect(Object.keys(reply.body.fields)).toEqual([field]);
  });
});

describe('the relay with private targets allowed (local testing)', () => {
  const deps = () => ({ rateLimits: t.stack.deps.rateLimits, scanSettings: { ...t.stack.deps.scanSettings, allowPrivateTargets: true } });
  const input = (path: string, token = 'good-token') => ({ endpoint: `http://127.0.0.1:${managerPort}/`, path, token });

  it("passes the manager's status and JSON body through, with the token as a bearer and JSON asked for", async () => {
    const before = seen.length;
    const answer = await relayWazuhRequest(deps(), user.userId, input('/agents'));
    expect(answer).toEqual({ status: 200, endpoint: `http://127.0.0.1:${managerPort}/agents`, data: agents, truncated: false });
    expect(seen.slice(before).map((s) => [s.url, s.headers.authorization, s.headers.accept])).toEqual([['/agents', 'Bearer good-token', 'application/json']]);
  });

  it("passes Wazuh's 401 and 404 answers through as answers, not as relay errors", async () => {
    await expect(relayWazuhRequest(deps(), user.userId, input('/agents', 'wrong'))).resolves.toMatchObject({
      status: 401,
      data: { title: 'Unauthorized', detail: 'Invalid credentials' },
    });
    await expect(relayWazuhRequest(deps(), user.userId, input('/agents?status=disconnected'))).resolves.toMatchObject({
      status: 404,
      data: { title: 'Not Found', detail: '404: Not Found' },
    });
  });

  it('does not follow a redirect, so the token goes nowhere else', async () => {
    const answer = await relayWazuhRequest(deps(), user.userId, input('/groups'));
    expect(answer.status).toBe(302);
    expect(otherSeen).toEqual([]);
  });

  it('cuts a body larger than the cap and says so', async () => {
    const answer = await relayWazuhRequest(deps(), user.userId, input('/agents?status=active'));
    expect(answer.truncated).toBe(true);
    expect((answer.data as string).length).toBe(WAZUH_RELAY_LIMITS.maxBodyBytes);
  });

  it('answers 502 wazuh_unreachable when nothing listens', async () => {
    const closed = createServer();
    const port = await servers.listen(closed);
    await new Promise((resolve) => closed.close(resolve));
    await expect(relayWazuhRequest(deps(), user.userId, { endpoint: `http://127.0.0.1:${port}`, path: '/', token: 'good-token' })).rejects.toMatchObject({
      code: 'wazuh_unreachable',
      message: expect.stringContaining('ECONNREFUSED'),
    });
  });
});
