import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  AdminSetUserPasswordCommand,
  CognitoIdentityProviderClient,
  InitiateAuthCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_CREDENTIALS } from '../../lambdas/composition.js';
import { createHttpClient } from '../../lambdas/scanner/net/http-client.js';
import { type OwnershipProbes, scannerProbes, verifyDomain } from '../../lambdas/use-cases/domains.js';
import { startTestStack, TEST_ZONE_RECORDS, type TestStack, waitForAudit } from '../support/local-stack.js';
import { startZoneServer, type ZoneServer } from '../support/zone-server.js';

let t: TestStack;
let zone: ZoneServer;
let tokenA: string;
let tokenB: string;
let subA: string;

async function signIn(email: string, password: string) {
  const cognito = new CognitoIdentityProviderClient({ endpoint: t.stack.endpoints.cognito, region: 'ap-southeast-2', credentials: LOCAL_CREDENTIALS });
  const { userId } = await t.stack.deps.users.createUser({ email, givenName: 'Ada', familyName: 'Lovelace' }, 'Temporary-Pass-123');
  await cognito.send(new AdminSetUserPasswordCommand({ UserPoolId: t.stack.userPool.userPoolId, Username: email, Password: password, Permanent: true }));
  const auth = await cognito.send(
    new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: t.stack.userPool.userPoolClientId, AuthParameters: { USERNAME: email, PASSWORD: password } }),
  );
  return { token: auth.AuthenticationResult!.IdToken!, userId };
}

async function call(method: string, path: string, token: string | undefined, body?: unknown) {
  const response = await fetch(`${t.stack.url}${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers of several shapes, read field by field
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as Record<string, any> };
}

beforeAll(async () => {
  // A zone server the stack's SCAN_RESOLVERS points at: the test zone's addresses plus TXT records published mid-test.
  zone = await startZoneServer({
    records: TEST_ZONE_RECORDS,
  });
  t = await startTestStack({ SCAN_ALLOW_PRIVATE_TARGETS: '1', SCAN_RESOLVERS: `127.0.0.1:${zone.port}` });
  const a = await signIn('domains-a@example.test', 'Correct-Horse-42');
  const b = await signIn('domains-b@example.test', 'Correct-Horse-43');
  [tokenA, tokenB, subA] = [a.token, b.token, a.userId];
}, 60_000);

afterAll(async () => {
  await t?.close();
  await zone?.close();
});

describe('Settings → Domains API', () => {
  it('requires a signed-in user on every route', async () => {
    for (const [method, path] of [
      ['GET', '/api/me/domains'],
      ['POST', '/api/me/domains'],
      ['DELETE', '/api/me/domains/example.test'],
      ['POST', '/api/me/domains/example.test/verify'],
      ['POST', '/api/me/scans'],
    ] as const) {
      expect((await call(method, path, undefined, method === 'POST' ? {} : undefined)).status, `${method} ${path}`).toBe(401);
    }
  });

  it('adds, lists and deletes own domains; others cannot see or delete them; duplicates are 409', async () => {
    const added = await call('POST', '/api/me/domains', tokenA, { domain: 'https://www.Blog.Example.test/about' });
    expect(added.status).toBe(201);
    expect(added.body.domain).toMatchObject({ domain: 'blog.example.test', verified: false, status: 'pending' });
    expect(added.body.domain.verificationToken).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(added.body.domain.verification).toEqual({
      dns: { type: 'TXT', name: 'blog.example.test', value: `rampart-verification=${added.body.domain.verificationToken}` },
      file: { url: 'https://blog.example.test/.well-known/rampart-verification.txt', content: added.body.domain.verificationToken },
    });
    expect((await call('POST', '/api/me/domains', tokenA, { domain: 'blog.example.test' })).status).toBe(409);

    const listA = await call('GET', '/api/me/domains', tokenA);
    expect(listA.body.domains.map((d: { domain: string }) => d.domain)).toContain('blog.example.test');
    expect((await call('GET', '/api/me/domains', tokenB)).body.domains).toEqual([]);

    expect((await call('DELETE', '/api/me/domains/blog.example.test', tokenB)).status).toBe(404);
    expect((await call('POST', '/api/me/domains/blog.example.test/verify', tokenB)).status).toBe(404);
    expect((await call('DELETE', '/api/me/domains/blog.example.test', tokenA)).status).toBe(204);
    expect((await call('GET', '/api/me/domains', tokenA)).body.domains.map((d: { domain: string }) => d.domain)).not.toContain('blog.example.test');
  });

  it('refuses bad input with 400 and stores nothing', async () => {
    for (const domain of ['', 'localhost', '203.0.113.5', 'https://[2001:db8::1]/', 'not a domain', 42]) {
      const answer = await call('POST', '/api/me/domains', tokenB, { domain });
      expect(answer.status, String(domain)).toBe(400);
      expect(answer.body.message).toBeTruthy();
    }
    expect((await call('GET', '/api/me/domains', tokenB)).body.domains).toEqual([]);
  });

  it('verifies by DNS TXT through the scanner resolvers, after a clear error while the record is missing', async () => {
    const added = await call('POST', '/api/me/domains', tokenA, { domain: 'shop.example.test' });
    const token = added.body.domain.verificationToken as string;

    const missing = await call('POST', '/api/me/domains/shop.example.test/verify', tokenA);
    expect(missing.status).toBe(422);
    expect(missing.body.error).toBe('verification_not_found');
    expect(missing.body.message).toContain(`rampart-verification=${token}`);
    expect(missing.body.message).toContain('/.well-known/rampart-verification.txt');

    zone.add({ name: 'shop.example.test', type: 'TXT', ttl: 60, data: `rampart-verification=${token}` });
    const ok = await call('POST', '/api/me/domains/shop.example.test/verify', tokenA);
    expect(ok).toMatchObject({ status: 200, body: { verified: true, method: 'dns' } });
    const listed = (await call('GET', '/api/me/domains', tokenA)).body.domains.find((d: { domain: string }) => d.domain === 'shop.example.test');
    expect(listed).toMatchObject({ verified: true, status: 'verified' });
    expect(zone.queries.some((q) => q.name === 'shop.example.test' && q.type === 'TXT')).toBe(true);
  });

  /**
   * The file method, honestly: production fetches https://{domain}/.well-known/… on port 443, which a
   * loopback test server cannot be. So the use case runs here with the scanner's real HTTP client,
   * redirected only in its URL to the loopback server (same path, Host header the domain).
   */
  it('verifies by the /.well-known file through the scanner HTTP client', async () => {
    const deps = t.stack.deps;
    await call('POST', '/api/me/domains', tokenA, { domain: 'www.example.test' });
    const record = await deps.domains.get(subA, 'example.test');
    expect(record).toBeDefined();
    let served = '';
    const server: Server = createServer((request, response) => {
      served = `${request.headers.host} ${request.url}`;
      if (request.url === '/.well-known/rampart-verification.txt') response.end(`${record!.verificationToken}\n`);
      else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const http = createHttpClient({ pinned: new Map([['example.test', ['127.0.0.1']]]), resolve: async () => ['127.0.0.1'], allowPrivateTargets: true });
    const realProbes = scannerProbes(deps.scanSettings);
    const probes: OwnershipProbes = {
      txt: realProbes.txt,
      fetchText: async (url) => {
        const local = new URL(url);
        local.protocol = 'http:';
        local.port = String(port);
        const response = await http.request(local.toString());
        return response.status === 200 ? response.body : undefined;
      },
    };
    try {
      expect(await verifyDomain(deps, probes, subA, 'example.test')).toMatchObject({ verified: true, method: 'file' });
      expect(served).toBe(`example.test:${port} /.well-known/rampart-verification.txt`);
      expect((await deps.domains.get(subA, 'example.test'))?.verified).toBe(true);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('refuses the file check at a private address when private targets are not allowed', async () => {
    const probes = scannerProbes({ ...t.stack.deps.scanSettings, allowPrivateTargets: false });
    expect(await probes.fetchText('https://shop.example.test/.well-known/rampart-verification.txt')).toBeUndefined();
  });
});

describe('Quick Scan API', () => {
  it('refuses an unverified domain with 403', async () => {
    await call('POST', '/api/me/domains', tokenB, { domain: 'shop.example.test' });
    const answer = await call('POST', '/api/me/scans', tokenB, { domain: 'shop.example.test' });
    expect(answer.status).toBe(403);
    expect(answer.body.error).toBe('domain_not_verified');
  });

  it('scans a verified domain into an audit the user owns, and stops at the trial limit', async () => {
    const first = await call('POST', '/api/me/scans', tokenA, { domain: 'shop.example.test' });
    expect(first.status).toBe(201);
    const auditId = first.body.auditId as string;
    const audit = await waitForAudit(t.stack.url, auditId, 30_000);
    expect(audit).toMatchObject({ status: 'completed', host: 'shop.example.test' });
    const stored = await t.stack.deps.audits.getAudit(auditId);
    expect(stored?.ownerId).toBe(subA);

    expect((await call('POST', '/api/me/scans', tokenA, { domain: 'shop.example.test' })).status).toBe(201);
    expect((await call('POST', '/api/me/scans', tokenA, { domain: 'example.test' })).status).toBe(201);
    const fourth = await call('POST', '/api/me/scans', tokenA, { domain: 'shop.example.test' });
    expect(fourth.status).toBe(403);
    expect(fourth.body).toMatchObject({ error: 'scan_limit_reached' });
    expect(fourth.body.message).toContain('Upgrade your plan');
  }, 60_000);
});
