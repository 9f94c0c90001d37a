import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, signIn, type TestUser } from '../support/accounts.js';
import { startTestStack, TEST_ZONE_RECORDS, type TestStack } from '../support/local-stack.js';
import { startZoneServer, type ZoneServer } from '../support/zone-server.js';

/**
 * Issue 29 item 10: proof by file tries what the site serves. Over the local stack, with the real
 * scanner probes (no fakes): sites on loopback addresses of their own that speak plain HTTP on port 80
 * and have nothing on 443 (so https:// is refused). One serves the verification file, one answers 404,
 * one redirects the file to a host outside its registrable domain.
 */
const PLAIN = { domain: 'plain-file-proof.test', address: '127.0.0.131' };
const MISSING = { domain: 'missing-file-proof.test', address: '127.0.0.132' };
const ELSEWHERE = { domain: 'redirect-file-proof.test', address: '127.0.0.133' };

let t: TestStack;
let zone: ZoneServer;
let owner: TestUser;
const servers: Server[] = [];
const sockets = new Set<Socket>();
/** The file each site serves at /.well-known/rampart-verification.txt (undefined: 404). */
const files = new Map<string, string>();

async function httpOnlySite(address: string, answer: (path: string, host: string) => { status: number; body: string; location?: string }): Promise<void> {
  const server = createServer((request, response) => {
    const { status, body, location } = answer(request.url ?? '/', request.headers.host ?? '');
    response.writeHead(status, { 'content-type': 'text/plain', ...(location ? { location } : {}) }).end(body);
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(80, address, () => resolve()));
  servers.push(server);
}

const FILE_PATH = '/.well-known/rampart-verification.txt';

beforeAll(async () => {
  zone = await startZoneServer({
    records: [
      ...TEST_ZONE_RECORDS,
      ...[PLAIN, MISSING, ELSEWHERE].map(({ domain, address }) => ({ name: domain, type: 'A' as const, ttl: 60, data: address })),
    ],
  });
  t = await startTestStack({ SCAN_ALLOW_PRIVATE_TARGETS: '1', SCAN_RESOLVERS: `127.0.0.1:${zone.port}` });
  await t.stack.stopWorker();
  await httpOnlySite(PLAIN.address, (path, host) => {
    const file = files.get(host);
    return path === FILE_PATH && file !== undefined ? { status: 200, body: file } : { status: 404, body: 'Not found' };
  });
  await httpOnlySite(MISSING.address, () => ({ status: 404, body: 'Not found' }));
  await httpOnlySite(ELSEWHERE.address, (path) => ({ status: 302, body: '', location: `http://${PLAIN.domain}${path}` }));
  owner = await signIn(t, 'file-proof@example.test', 'Fern');
}, 60_000);

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  await t?.close();
  await zone?.close();
});

async function addDomain(domain: string): Promise<string> {
  const added = await api(t, 'POST', '/api/me/domains', owner.token, { domain });
  expect(added.status).toBe(201);
  return added.body.domain.verificationToken as string;
}

describe('Verify a domain by file', () => {
  it('verifies a site that serves only http:// by its /.well-known file', async () => {
    const token = await addDomain(PLAIN.domain);
    files.set(PLAIN.domain, `${token}\n`);

    const answer = await api(t, 'POST', `/api/me/domains/${PLAIN.domain}/verify`, owner.token);

    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ verified: true, method: 'file' });
    expect((await t.stack.deps.domains.get(owner.userId, PLAIN.domain))?.verifiedBy).toBe('file');
  });

  it('says which URLs it fetched and what each answered when the file is not there', async () => {
    await addDomain(MISSING.domain);

    const answer = await api(t, 'POST', `/api/me/domains/${MISSING.domain}/verify`, owner.token);

    expect(answer.status).toBe(422);
    expect(answer.body.error).toBe('verification_not_found');
    expect(answer.body.message).toContain(
      `https://${MISSING.domain}${FILE_PATH}: connection refused; http://${MISSING.domain}${FILE_PATH}: 404 Not Found`,
    );
  });

  it('does not follow the file to another registrable domain, and says so', async () => {
    await addDomain(ELSEWHERE.domain);

    const answer = await api(t, 'POST', `/api/me/domains/${ELSEWHERE.domain}/verify`, owner.token);

    expect(answer.body.error).toBe('verification_not_found');
    expect(answer.body.message).toContain(
      `http://${ELSEWHERE.domain}${FILE_PATH}: 302 Found, redirected to http://${PLAIN.domain}${FILE_PATH}, outside ${ELSEWHERE.domain} (not followed)`,
    );
    expect((await t.stack.deps.domains.get(owner.userId, ELSEWHERE.domain))?.verified).toBe(false);
  });
});
