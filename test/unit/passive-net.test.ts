import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHttpClient } from '../../lambdas/scanner/net/http-client.js';
import type { ScanNet } from '../../lambdas/scanner/net/net.js';
import { passiveNet } from '../../lambdas/scanner/net/passive-net.js';
import { offlineNet } from '../support/offline-net.js';

/**
 * Passive means browser-like (DECISIONS "Scan modes"): the passive network refuses an HTTP request
 * to a port browsers refuse (the Fetch standard's bad ports), the first URL and every redirect hop,
 * before any connection. Real servers on a loopback address of their own: one listening on port 25
 * (a mail server's port) that writes down every connection, and a site that redirects to it.
 */
// An address no other test listens on or scans (site-behaviours sweeps 127.0.0.61–70, port 25 included).
const ADDRESS = '127.0.0.121';
let mailPort: net.Server;
let site: http.Server;
let sitePort: number;
let mailConnections = 0;
const mailSockets = new Set<net.Socket>();
let siteRequests: string[] = [];

beforeAll(async () => {
  mailPort = net.createServer((socket) => {
    mailConnections += 1;
    mailSockets.add(socket);
    socket.end('220 mail ready\r\n');
  });
  await new Promise<void>((resolve) => mailPort.listen(25, ADDRESS, resolve));
  site = http.createServer((req, res) => {
    siteRequests.push(req.url ?? '');
    if (req.url === '/to-mail') res.writeHead(302, { location: `http://${ADDRESS}:25/` }).end();
    else res.writeHead(200, { 'content-type': 'text/html' }).end('<p>shop</p>');
  });
  await new Promise<void>((resolve) => site.listen(0, ADDRESS, resolve));
  sitePort = (site.address() as AddressInfo).port;
});

afterAll(async () => {
  for (const socket of mailSockets) socket.destroy();
  await new Promise((resolve) => mailPort?.close(resolve));
  site?.closeAllConnections();
  await new Promise((resolve) => site?.close(resolve));
});

beforeEach(() => {
  mailConnections = 0;
  siteRequests = [];
});

const realNet = (): ScanNet => ({ ...offlineNet, http: createHttpClient({ pinned: new Map(), resolve: () => Promise.resolve([]), allowPrivateTargets: true, ca: [] }) });
const failure = (work: Promise<unknown>) => work.then(() => undefined, (error: unknown) => error as { code?: string; message: string });

describe('the passive network and the browsers’ restricted ports', () => {
  it('refuses a request to port 25 without connecting, where the active network connects', async () => {
    // Prepare
    const inner = realNet();

    // Act
    const refused = await failure(passiveNet(inner, `http://${ADDRESS}:25/`).http.request(`http://${ADDRESS}:25/`));
    const connectedBefore = mailConnections;
    await failure(inner.http.request(`http://${ADDRESS}:25/`, { timeoutMs: 2_000 }));

    // Assess
    expect(refused).toMatchObject({ code: 'target_port_restricted' });
    expect(refused?.message).toContain('port 25 (ERR_UNSAFE_PORT');
    expect(connectedBefore).toBe(0);
    expect(mailConnections).toBe(1);
  });

  it('refuses a redirect to port 25 before following it', async () => {
    // Act
    const refused = await failure(passiveNet(realNet(), `http://${ADDRESS}:${sitePort}/`).http.request(`http://${ADDRESS}:${sitePort}/to-mail`, { followRedirects: 5 }));

    // Assess: the site was asked, the mail port never reached
    expect(siteRequests).toEqual(['/to-mail']);
    expect(refused).toMatchObject({ code: 'target_port_restricted', details: { url: `http://${ADDRESS}:25/`, port: 25 } });
    expect(mailConnections).toBe(0);
  });

  it('still loads the site on its own port', async () => {
    const response = await passiveNet(realNet(), `http://${ADDRESS}:${sitePort}/`).http.request(`http://${ADDRESS}:${sitePort}/`, { followRedirects: 5 });

    expect([response.status, response.body]).toEqual([200, '<p>shop</p>']);
  });

  it('refuses a TLS handshake on the restricted port a site URL names', async () => {
    const refused = await failure(passiveNet(offlineNet, 'https://victim.example:25/').tls.handshake(ADDRESS, 25, { servername: 'victim.example', minVersion: 'TLSv1.2', maxVersion: 'TLSv1.3', timeoutMs: 1_000 }));

    expect(refused).toMatchObject({ code: 'EPASSIVE', message: 'A TLS handshake on port 25 is an active probe: not sent in a passive scan' });
  });
});
