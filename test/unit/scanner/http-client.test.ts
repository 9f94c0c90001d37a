import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpClient, DEFAULT_USER_AGENT, type HttpClientOptions } from '../../../lambdas/scanner/net/http-client.js';

const fixtures = new URL('../../fixtures/http/', import.meta.url);
const cert = readFileSync(new URL('self-signed.cert.pem', fixtures), 'utf8');
const key = readFileSync(new URL('self-signed.key.pem', fixtures), 'utf8');

/** Names that exist in no DNS: only pinning (or the test resolver) can take a request to them. */
const SITE = 'shop.rampart.test';
const OTHER = 'other.rampart.test';

interface Seen {
  method?: string;
  url?: string;
  host?: string;
  userAgent?: string;
  servername?: string | false | null;
}

type Handler = (req: http.IncomingMessage, res: http.ServerResponse, seen: Seen) => void;

const servers: (http.Server | https.Server)[] = [];
let closedSockets = 0;

/** Listens on a loopback port other than 2024 (which the tests must never touch). */
async function listen(server: http.Server | https.Server): Promise<number> {
  servers.push(server);
  server.on('connection', (socket) => socket.on('close', () => void closedSockets++));
  for (;;) {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    if (port !== 2024) return port;
    await new Promise((resolve) => server.close(resolve));
  }
}

function serve(handler: Handler, seen: Seen = {}): http.RequestListener {
  return (req, res) => {
    Object.assign(seen, { method: req.method, url: req.url, host: req.headers.host, userAgent: req.headers['user-agent'] });
    const tls = req.socket as TLSSocket;
    if ('servername' in tls) seen.servername = tls.servername;
    handler(req, res, seen);
  };
}

const neverResolve: HttpClientOptions['resolve'] = async (host) => {
  throw new Error(`The test resolver was asked for ${host}`);
};

const site = { seen: {} as Seen, port: 0 };
const other = { seen: {} as Seen, port: 0 };
const secure = { seen: {} as Seen, port: 0 };
const silent = { port: 0 };

beforeAll(async () => {
  other.port = await listen(
    http.createServer(
      serve((req, res) => {
        res.setHeader('set-cookie', ['sid=1; Secure; HttpOnly', 'theme=dark']);
        res.end(`final ${req.url}`);
      }, other.seen),
    ),
  );
  site.port = await listen(
    http.createServer(
      serve((req, res) => {
        switch (req.url) {
          case '/start':
            res.writeHead(301, { location: '/step', 'set-cookie': 'hop=1' }).end();
            return;
          case '/step':
            res.writeHead(302, { location: `http://${OTHER}:${other.port}/final` }).end();
            return;
          case '/to-evil':
            res.writeHead(302, { location: 'http://evil.example/' }).end();
            return;
          case '/to-loopback':
            res.writeHead(302, { location: `http://127.0.0.1:${other.port}/final` }).end();
            return;
          case '/to-ftp':
            res.writeHead(302, { location: 'ftp://files.example/' }).end();
            return;
          case '/big':
            res.end('x'.repeat(1024 * 1024));
            return;
          case '/gzip':
            res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync('<html>compressed</html>'));
            return;
          case '/headers':
            res.writeHead(200, [
              ['Set-Cookie', 'a=1'],
              ['Set-Cookie', 'b=2'],
              ['X-Custom', 'one'],
              ['X-Custom', 'two'],
              ['Server', 'nginx/1.22.1'],
            ]);
            res.end();
            return;
          default:
            res.end(`${req.method} ${req.url}`);
        }
      }, site.seen),
    ),
  );
  secure.port = await listen(https.createServer({ cert, key }, serve((_req, res) => res.end('secure'), secure.seen)));
  // Accepts connections and never answers.
  silent.port = await listen(http.createServer(() => undefined));
});

afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const pinnedSite = new Map([[SITE, ['127.0.0.1']]]);

describe('http client: pinning', () => {
  it('reaches the pinned address for a name that is in no DNS, with that name as Host', async () => {
    const client = createHttpClient({ pinned: pinnedSite, resolve: neverResolve, allowPrivateTargets: false });

    const response = await client.request(`http://${SITE}:${site.port}/hello?q=1`);

    expect(response).toMatchObject({ status: 200, body: 'GET /hello?q=1', address: '127.0.0.1', redirects: [] });
    expect(site.seen.host).toBe(`${SITE}:${site.port}`);
    expect(site.seen.userAgent).toBe(DEFAULT_USER_AGENT);
    expect(response.certificateTrusted).toBeUndefined();
  });

  it('sends the name as SNI over TLS and reports an untrusted self-signed certificate without failing', async () => {
    const client = createHttpClient({ pinned: pinnedSite, resolve: neverResolve, allowPrivateTargets: false });

    const response = await client.request(`https://${SITE}:${secure.port}/`);

    expect(response).toMatchObject({ status: 200, body: 'secure', certificateTrusted: false, certificateError: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
    expect(secure.seen.servername).toBe(SITE);
  });

  it('reports a certificate as trusted when its root is trusted and it names the host', async () => {
    const client = createHttpClient({ pinned: pinnedSite, resolve: neverResolve, allowPrivateTargets: false, ca: [cert] });

    const response = await client.request(`https://${SITE}:${secure.port}/`);

    expect(response.certificateTrusted).toBe(true);
    expect(response.certificateError).toBeUndefined();
  });

  it('reports a trusted certificate that names another host as untrusted', async () => {
    const pinned = new Map([['www.elsewhere.test', ['127.0.0.1']]]);
    const client = createHttpClient({ pinned, resolve: neverResolve, allowPrivateTargets: false, ca: [cert] });

    const response = await client.request(`https://www.elsewhere.test:${secure.port}/`);

    expect(response).toMatchObject({ certificateTrusted: false, certificateError: 'ERR_TLS_CERT_ALTNAME_INVALID' });
  });
});

describe('http client: redirects', () => {
  const resolveOther = async (host: string) => (host === OTHER ? ['127.0.0.1'] : []);

  it('returns the 3xx itself unless asked to follow', async () => {
    const client = createHttpClient({ pinned: pinnedSite, resolve: neverResolve, allowPrivateTargets: false });

    const response = await client.request(`http://${SITE}:${site.port}/start`);

    expect(response).toMatchObject({ status: 301, url: `http://${SITE}:${site.port}/start`, redirects: [] });
    expect(response.headers.location).toEqual(['/step']);
  });

  it('follows a chain across hosts and records every hop with its headers', async () => {
    const client = createHttpClient({ pinned: pinnedSite, resolve: resolveOther, allowPrivateTargets: true });

    const response = await client.request(`http://${SITE}:${site.port}/start`, { followRedirects: 5 });

    expect(response).toMatchObject({ status: 200, url: `http://${OTHER}:${other.port}/final`, body: 'final /final' });
    expect(response.redirects.map(({ url, status, location }) => ({ url, status, location }))).toEqual([
      { url: `http://${SITE}:${site.port}/start`, status: 301, location: '/step' },
      { url: `http://${SITE}:${site.port}/step`, status: 302, location: `http://${OTHER}:${other.port}/final` },
    ]);
    expect(response.redirects[0]!.headers?.['set-cookie']).toEqual(['hop=1']);
    expect(response.headers['set-cookie']).toEqual(['sid=1; Secure; HttpOnly', 'theme=dark']);
    expect(other.seen.host).toBe(`${OTHER}:${other.port}`);
  });

  it('stops at the redirect limit and returns the last 3xx', async () => {
    const client = createHttpClient({ pinned: pinnedSite, resolve: resolveOther, allowPrivateTargets: true });

    const response = await client.request(`http://${SITE}:${site.port}/start`, { followRedirects: 1 });

    expect(response).toMatchObject({ status: 302, url: `http://${SITE}:${site.port}/step` });
    expect(response.redirects).toHaveLength(1);
  });

  it('refuses a redirect to a host that resolves to a private address', async () => {
    const asked: string[] = [];
    const resolve = async (host: string) => {
      asked.push(host);
      return host === 'evil.example' ? ['10.0.0.1'] : [];
    };
    const client = createHttpClient({ pinned: pinnedSite, resolve, allowPrivateTargets: false });

    const outcome = client.request(`http://${SITE}:${site.port}/to-evil`, { followRedirects: 5 });

    await expect(outcome).rejects.toMatchObject({ code: 'target_not_allowed', details: { host: 'evil.example', address: '10.0.0.1' } });
    expect(asked).toEqual(['evil.example']);
  });

  it('refuses a redirect to a loopback IP literal, and follows it when private targets are allowed', async () => {
    const refusing = createHttpClient({ pinned: pinnedSite, resolve: neverResolve, allowPrivateTargets: false });
    const allowing = createHttpClient({ pinned: pinnedSite, resolve: neverResolve, allowPrivateTargets: true });

    await expect(refusing.request(`http://${SITE}:${site.port}/to-loopback`, { followRedirects: 5 })).rejects.toMatchObject({
      code: 'target_not_allowed',
    });
    const followed = await allowing.request(`http://${SITE}:${site.port}/to-loopback`, { followRedirects: 5 });
    expect(followed).toMatchObject({ status: 200, body: 'final /final' });
  });

  it('does not follow a redirect to a scheme other than http(s)', async () => {
    const client = createHttpClient({ pinned: pinnedSite, resolve: neverResolve, allowPrivateTargets: false });

    const response = await client.request(`http://${SITE}:${site.port}/to-ftp`, { followRedirects: 5 });

    expect(response).toMatchObject({ status: 302, redirects: [] });
  });

  it('fails with ENOTFOUND for a redirect to a name without addresses', async () => {
    const client = createHttpClient({ pinned: pinnedSite, resolve: async () => [], allowPrivateTargets: true });

    await expect(client.request(`http://${SITE}:${site.port}/to-evil`, { followRedirects: 5 })).rejects.toMatchObject({ code: 'ENOTFOUND' });
  });
});

describe('http client: bodies, headers, methods', () => {
  const client = createHttpClient({ pinned: pinnedSite, resolve: neverResolve, allowPrivateTargets: false });

  it('cuts the body at maxBodyBytes and says so', async () => {
    const response = await client.request(`http://${SITE}:${site.port}/big`, { maxBodyBytes: 1000 });

    expect(response.body).toBe('x'.repeat(1000));
    expect(response.bodyTruncated).toBe(true);
  });

  it('keeps a body under the default cap whole', async () => {
    const response = await client.request(`http://${SITE}:${site.port}/plain`);

    expect(response.body).toBe('GET /plain');
    expect(response.bodyTruncated).toBeUndefined();
  });

  it('decompresses a gzip body', async () => {
    const response = await client.request(`http://${SITE}:${site.port}/gzip`);

    expect(response.body).toBe('<html>compressed</html>');
  });

  it('lower-cases header names and keeps every value of a repeated header', async () => {
    const response = await client.request(`http://${SITE}:${site.port}/headers`);

    expect(response.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    expect(response.headers['x-custom']).toEqual(['one', 'two']);
    expect(response.headers.server).toEqual(['nginx/1.22.1']);
  });

  it.each(['TRACE', 'OPTIONS', 'HEAD'] as const)('sends %s', async (method) => {
    const response = await client.request(`http://${SITE}:${site.port}/m`, { method });

    expect(site.seen.method).toBe(method);
    expect(response.body).toBe(method === 'HEAD' ? '' : `${method} /m`);
  });
});

describe('http client: time limits', () => {
  const client = createHttpClient({ pinned: pinnedSite, resolve: neverResolve, allowPrivateTargets: false });

  it('gives up at the timeout and closes the socket', async () => {
    const before = closedSockets;
    const started = performance.now();

    await expect(client.request(`http://${SITE}:${silent.port}/`, { timeoutMs: 200 })).rejects.toMatchObject({ code: 'ETIMEDOUT' });

    expect(performance.now() - started).toBeLessThan(2000);
    await expect.poll(() => closedSockets - before).toBe(1);
  });

  it('stops when its signal is aborted', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('budget spent')), 50);

    await expect(client.request(`http://${SITE}:${silent.port}/`, { signal: controller.signal })).rejects.toMatchObject({
      code: 'ABORT_ERR',
      message: 'budget spent',
    });
  });

  it('stops waiting for a resolver that does not answer', async () => {
    const stuck = createHttpClient({ pinned: new Map(), resolve: () => new Promise<string[]>(() => undefined), allowPrivateTargets: true });

    await expect(stuck.request('http://slow-dns.rampart.test/', { timeoutMs: 100 })).rejects.toMatchObject({ code: 'ETIMEDOUT' });
  });
});

describe('http client: POST with a body (alert deliveries)', () => {
  it('sends the body and headers once, and follows no redirect with it', async () => {
    // Prepare
    const bodies: string[] = [];
    const port = await listen(
      http.createServer((req, res) => {
        let body = '';
        req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
        req.on('end', () => {
          bodies.push(`${req.method} ${req.url} ${req.headers['content-type']} ${body}`);
          if (req.url === '/moved') res.writeHead(307, { location: '/again' }).end();
          else res.writeHead(204).end();
        });
      }),
    );
    const client = createHttpClient({ pinned: pinnedSite, resolve: neverResolve, allowPrivateTargets: false });

    // Act
    const sent = await client.request(`http://${SITE}:${port}/hook`, { method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json' } });
    const moved = await client.request(`http://${SITE}:${port}/moved`, { method: 'POST', body: '{"b":2}', headers: { 'content-type': 'application/json' } });

    // Assess
    expect([sent.status, moved.status]).toEqual([204, 307]);
    expect(bodies).toEqual(['POST /hook application/json {"a":1}', 'POST /moved application/json {"b":2}']);
  });

  it('with verifyCertificates, refuses an untrusted certificate before the body is sent', async () => {
    // Prepare
    let requests = 0;
    const port = await listen(https.createServer({ cert, key }, (_req, res) => (requests++, res.end('ok'))));
    const strict = createHttpClient({ pinned: pinnedSite, resolve: neverResolve, allowPrivateTargets: false, verifyCertificates: true });
    const trusting = createHttpClient({ pinned: pinnedSite, resolve: neverResolve, allowPrivateTargets: false, verifyCertificates: true, ca: [cert] });

    // Act
    const refused = strict.request(`https://${SITE}:${port}/hook`, { method: 'POST', body: 'secret payload' });
    await expect(refused).rejects.toMatchObject({ code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
    const requestsAfterRefusal = requests;
    const accepted = await trusting.request(`https://${SITE}:${port}/hook`, { method: 'POST', body: 'payload' });

    // Assess
    expect(requestsAfterRefusal).toBe(0);
    expect([accepted.status, accepted.certificateTrusted, requests]).toEqual([200, true, 1]);
  });
});
