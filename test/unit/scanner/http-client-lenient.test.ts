/**
 * Issue 18: a site whose responses carry header bytes that browsers and curl accept made Node's
 * strict parser (llhttp) fail half the checks. What was tried on a raw loopback server, Node 20.20
 * (llhttp 9.3), strict vs `insecureHTTPParser` vs curl 7.88:
 *
 * | response                                   | Node strict                          | Node lenient | curl   |
 * |--------------------------------------------|--------------------------------------|--------------|--------|
 * | control char \x01 or DEL \x7f in a value   | HPE_INVALID_HEADER_TOKEN (value char)| ok           | ok     |
 * | bare LF line endings (all or one line)     | HPE_CR_EXPECTED                      | ok           | ok     |
 * | obs-fold continuation line                 | HPE_INVALID_HEADER_TOKEN (whitespace)| ok           | ok     |
 * | Transfer-Encoding: chunked + Content-Length| HPE_INVALID_CONTENT_LENGTH           | ok           | ok     |
 * | chunk size followed by a space             | HPE_INVALID_CHUNK_SIZE               | ok           | ok     |
 * | space or tab before the colon              | HPE_INVALID_HEADER_TOKEN             | same         | ok     |
 * | name with a non-token char (space ( @ {)   | HPE_INVALID_HEADER_TOKEN             | same         | ok     |
 * | empty name (": x")                         | HPE_INVALID_HEADER_TOKEN             | same         | ok     |
 * | line without a colon                       | HPE_INVALID_HEADER_TOKEN             | same         | refuses (Chromium skips the line) |
 * | bare CR inside a value                     | HPE_LF_EXPECTED                      | same         | ok     |
 * | Content-Length twice, same value           | HPE_UNEXPECTED_CONTENT_LENGTH        | same         | ok     |
 * | Content-Length: 15, 15                     | HPE_INVALID_CONTENT_LENGTH           | same         | ok     |
 * | bytes past Content-Length, Connection:close| HPE_CLOSED_CONNECTION                | HPE_INVALID_CONSTANT | ok |
 *
 * Already accepted by strict Node: obs-text (0x80-0xFF) and UTF-8 in values, a status line without
 * a reason phrase. Refused by curl, so not chased: NUL in a value, HTTP/1.2, a chunk without its CRLF.
 * "same" rows are past llhttp's leniency: browser-head.ts rewrites the head as Chromium reads it.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer } from '../../../bin/local/server.js';
import type { Deps } from '../../../lambdas/composition.js';
import { loadConfig } from '../../../lambdas/config.js';
import type { CheckContext } from '../../../lambdas/scanner/check.js';
import { httpCheck, type ObservatoryData } from '../../../lambdas/scanner/checks/http.check.js';
import { createHttpClient } from '../../../lambdas/scanner/net/http-client.js';
import type { ScanNet } from '../../../lambdas/scanner/net/net.js';
import { runCheck } from '../../../lambdas/scanner/scan.js';
import { loopbackServers } from '../../support/loopback-servers.js';

const fixtures = new URL('../../fixtures/http/', import.meta.url);
const cert = readFileSync(new URL('self-signed.cert.pem', fixtures), 'utf8');
const key = readFileSync(new URL('self-signed.key.pem', fixtures), 'utf8');
const SITE = 'shop.rampart.test';
const BODY = '<html>hi</html>';
const CL = `Content-Length: ${BODY.length}`;

interface OddCase {
  name: string;
  response: string;
  headers: Record<string, string[]>;
  body?: string;
}

const oddResponses: OddCase[] = [
  { name: 'a control character (0x01) in a value', response: `HTTP/1.1 200 OK\r\nX-Odd: a\x01b\r\n${CL}\r\n\r\n${BODY}`, headers: { 'x-odd': ['a\x01b'] } },
  { name: 'DEL (0x7f) in a value', response: `HTTP/1.1 200 OK\r\nX-Odd: a\x7fb\r\n${CL}\r\n\r\n${BODY}`, headers: { 'x-odd': ['a\x7fb'] } },
  { name: 'bare LF line endings', response: `HTTP/1.1 200 OK\nServer: nginx\n${CL}\n\n${BODY}`, headers: { server: ['nginx'] } },
  { name: 'one bare LF among CRLFs', response: `HTTP/1.1 200 OK\r\nServer: nginx\n${CL}\r\n\r\n${BODY}`, headers: { server: ['nginx'] } },
  { name: 'an obs-fold continuation line', response: `HTTP/1.1 200 OK\r\nX-Odd: a\r\n\tb\r\n${CL}\r\n\r\n${BODY}`, headers: { 'x-odd': ['a b'] } },
  {
    name: 'Transfer-Encoding: chunked with a Content-Length',
    response: `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 4\r\n\r\n${BODY.length.toString(16)}\r\n${BODY}\r\n0\r\n\r\n`,
    headers: { 'transfer-encoding': ['chunked'] },
  },
  {
    name: 'a chunk size followed by a space',
    response: `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n${BODY.length.toString(16)} \r\n${BODY}\r\n0\r\n\r\n`,
    headers: { 'transfer-encoding': ['chunked'] },
  },
  { name: 'a space before the colon', response: `HTTP/1.1 200 OK\r\nServer : Apache/2.4.41\r\n${CL}\r\n\r\n${BODY}`, headers: { server: ['Apache/2.4.41'] } },
  { name: 'a tab before the colon', response: `HTTP/1.1 200 OK\r\nServer\t: Apache/2.4.41\r\n${CL}\r\n\r\n${BODY}`, headers: { server: ['Apache/2.4.41'] } },
  // Chromium skips a line whose name is not a token (or empty, or has no colon) and keeps the rest.
  {
    name: 'names that are not tokens, an empty name and a line without a colon',
    response: `HTTP/1.1 200 OK\r\nX Odd: 1\r\nX(Odd): 2\r\nX@Odd: 3\r\nX{Odd}: 4\r\n: 5\r\nGarbage\r\nServer: nginx\r\n${CL}\r\n\r\n${BODY}`,
    headers: { server: ['nginx'] },
  },
  { name: 'a bare CR inside a value', response: `HTTP/1.1 200 OK\r\nX-Odd: a\rb\r\n${CL}\r\n\r\n${BODY}`, headers: { 'x-odd': ['a b'] } },
  { name: 'Content-Length twice with the same value', response: `HTTP/1.1 200 OK\r\n${CL}\r\nServer: nginx\r\n${CL}\r\n\r\n${BODY}`, headers: { server: ['nginx'] } },
  { name: 'Content-Length as a list of one value', response: `HTTP/1.1 200 OK\r\nContent-Length: ${BODY.length}, ${BODY.length}\r\n\r\n${BODY}`, headers: {} },
  { name: 'bytes past the Content-Length of a closing response', response: `HTTP/1.1 200 OK\r\nConnection: close\r\n${CL}\r\n\r\n${BODY}EXTRA`, headers: { connection: ['close'] } },
  {
    name: '103 Early Hints before the response, both with odd heads',
    response: `HTTP/1.1 103 Early Hints\r\nLink : </a.css>; rel=preload\r\n\r\nHTTP/1.1 200 OK\r\nServer : nginx\r\n${CL}\r\n\r\n${BODY}`,
    headers: { server: ['nginx'] },
  },
];

const loopback = loopbackServers();

/** A raw server: whatever it is asked, it writes `response` byte for byte (in `pieces`, if given) and closes. */
function rawServer(respond: (request: string, secure: boolean) => string | string[], tlsOptions?: { cert: string; key: string }): net.Server {
  const answer = (socket: net.Socket | tls.TLSSocket, secure: boolean) => {
    let request = '';
    socket.on('error', () => undefined);
    socket.on('data', async (chunk: Buffer) => {
      request += chunk.toString('latin1');
      if (!request.includes('\r\n\r\n')) return;
      const pieces = [respond(request, secure)].flat();
      for (const piece of pieces) {
        socket.write(Buffer.from(piece, 'latin1'));
        if (pieces.length > 1) await new Promise((resolve) => setTimeout(resolve, 5));
      }
      socket.end();
    });
  };
  const secure = tlsOptions ? tls.createServer(tlsOptions, (socket) => answer(socket, true)) : undefined;
  // One port for both schemes, told apart by the first byte (0x16 opens a TLS handshake), as in loopback-servers.ts.
  return net.createServer((socket) => {
    socket.once('data', (first) => {
      socket.pause();
      socket.unshift(first);
      if (secure && first[0] === 0x16) secure.emit('connection', socket);
      else answer(socket, false);
      process.nextTick(() => socket.resume());
    });
  });
}

/** Node's own client with its default (strict) parser: how the scanner read these sites before. */
function strictGet(port: number): Promise<string> {
  return new Promise((resolve) => {
    const request = http.get({ host: '127.0.0.1', port, agent: false }, (response) => {
      response.resume();
      response.on('end', () => resolve('ok'));
    });
    request.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
  });
}

const pinned = new Map([[SITE, ['127.0.0.1']]]);
const neverResolve = () => Promise.reject(new Error('no DNS in this test'));

afterAll(async () => {
  await loopback.closeAll();
});

describe('the scanner reads responses as a browser does', () => {
  const ports = new Map<string, number>();
  beforeAll(async () => {
    for (const odd of oddResponses) ports.set(odd.name, await loopback.listen(rawServer(() => odd.response)));
  });

  it.each(oddResponses)('reads the headers and body of a response with $name, which strict Node refuses', async (odd) => {
    // Prepare
    const port = ports.get(odd.name)!;
    const client = createHttpClient({ pinned, resolve: neverResolve, allowPrivateTargets: true });

    // Act
    const strict = await strictGet(port);
    const response = await client.request(`http://${SITE}:${port}/`);

    // Assess
    expect(strict).toMatch(/^HPE_/);
    expect(response.status).toBe(200);
    expect(response.headers).toMatchObject(odd.headers);
    expect(response.body).toBe(odd.body ?? BODY);
  });

  it('drops only the odd lines: the good headers around them keep their names and values', async () => {
    const port = await loopback.listen(rawServer(() => `HTTP/1.1 200 OK\r\nX Bad: 1\r\nX-Frame-Options: DENY\r\nServer : nginx\r\nX-Odd: a\x01b\r\n${CL}\r\n\r\n${BODY}`));
    const client = createHttpClient({ pinned, resolve: neverResolve, allowPrivateTargets: true });

    const response = await client.request(`http://${SITE}:${port}/`);

    expect(response.headers).toEqual({ 'x-frame-options': ['DENY'], server: ['nginx'], 'x-odd': ['a\x01b'], 'content-length': [String(BODY.length)] });
  });

  it('rewrites a head that arrives in pieces, split inside a line and inside the blank line', async () => {
    const port = await loopback.listen(rawServer(() => ['HTTP/1.1 200 OK\r\nSer', 'ver : ngi', `nx\r\n${CL}\r`, '\n\r', `\n${BODY.slice(0, 5)}`, BODY.slice(5)]));
    const client = createHttpClient({ pinned, resolve: neverResolve, allowPrivateTargets: true });

    const response = await client.request(`http://${SITE}:${port}/`);

    expect([response.headers.server, response.body]).toEqual([['nginx'], BODY]);
  });

  it('reads an odd head over HTTPS and still judges the certificate', async () => {
    const port = await loopback.listen(rawServer(() => `HTTP/1.1 200 OK\r\nServer : nginx\r\nX-Odd: a\x01b\r\n${CL}\r\n${CL}\r\n\r\n${BODY}`, { cert, key }));
    const trusting = createHttpClient({ pinned, resolve: neverResolve, allowPrivateTargets: true, ca: [cert] });
    const rootStoreOnly = createHttpClient({ pinned, resolve: neverResolve, allowPrivateTargets: true });

    const trusted = await trusting.request(`https://${SITE}:${port}/`);
    const untrusted = await rootStoreOnly.request(`https://${SITE}:${port}/`);

    expect([trusted.status, trusted.headers.server, trusted.headers['x-odd'], trusted.body, trusted.certificateTrusted]).toEqual([200, ['nginx'], ['a\x01b'], BODY, true]);
    expect([untrusted.body, untrusted.certificateTrusted, untrusted.certificateError]).toEqual([BODY, false, 'DEPTH_ZERO_SELF_SIGNED_CERT']);
  });

  it('gives up on a service that does not speak HTTP at once, not when the request times out', async () => {
    const banner = net.createServer((socket) => {
      socket.on('error', () => undefined);
      socket.write('SSH-2.0-OpenSSH_9.2p1\r\n');
    });
    const port = await loopback.listen(banner);
    const client = createHttpClient({ pinned, resolve: neverResolve, allowPrivateTargets: true });

    const started = Date.now();
    const outcome = await client.request(`http://${SITE}:${port}/`, { timeoutMs: 3000 }).catch((error: NodeJS.ErrnoException) => error.code);

    expect(outcome).toBe('HPE_INVALID_CONSTANT');
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('still refuses two different Content-Lengths, as Chromium does (a body of unknown length)', async () => {
    const port = await loopback.listen(rawServer(() => `HTTP/1.1 200 OK\r\nContent-Length: 5\r\n${CL}\r\n\r\n${BODY}`));
    const client = createHttpClient({ pinned, resolve: neverResolve, allowPrivateTargets: true });

    await expect(client.request(`http://${SITE}:${port}/`)).rejects.toMatchObject({ code: 'HPE_UNEXPECTED_CONTENT_LENGTH' });
  });
});

describe('the http check on a site with odd header bytes', () => {
  it('ends ok with the findings of what the site sends, not in error', async () => {
    // Prepare: http redirects to https; the page's head has a space before a colon, a control
    // character, an obs-fold and Content-Length twice: each one alone made strict Node throw.
    let port = 0;
    const page = '<!doctype html><html><head><title>Shop</title></head><body>Hello</body></html>';
    port = await loopback.listen(
      rawServer((request, secure) => {
        if (!secure) return `HTTP/1.1 301 Moved Permanently\r\nLocation : https://${SITE}:${port}/\r\nContent-Length: 0\r\n\r\n`;
        if (request.startsWith('TRACE ') || request.startsWith('OPTIONS ')) return 'HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\nContent-Length: 0\r\n\r\n';
        if (request.startsWith('GET /robots.txt ')) return 'HTTP/1.1 404 Not Found\r\nServer : Apache/2.4.41 (Ubuntu)\r\nContent-Length: 0\r\n\r\n';
        return [
          'HTTP/1.1 200 OK',
          'Server : Apache/2.4.41 (Ubuntu)',
          'X-Powered-By: PHP/7.4.3',
          'Set-Cookie: PHPSESSID=ab12; path=/',
          'X-Debug: \x01',
          'Content-Type: text/html;',
          '\tcharset=UTF-8',
          `Content-Length: ${page.length}`,
          `Content-Length: ${page.length}`,
          '',
          page,
        ].join('\r\n');
      }, { cert, key }),
    );
    const context: Omit<CheckContext, 'signal'> = {
      mode: 'active',
      target: { url: `https://${SITE}:${port}/`, host: SITE },
      domain: 'rampart.test',
      addresses: ['127.0.0.1'],
      subject: { emails: [], verifiedDomains: [] },
      settings: { resolvers: [], dnsTimeoutMs: 1000, allowPrivateTargets: false },
      net: { http: createHttpClient({ pinned, resolve: async () => [], allowPrivateTargets: false, ca: [cert] }) } as unknown as ScanNet,
      resultOf: async () => undefined,
    };

    // Act
    const result = await runCheck(httpCheck.name, httpCheck.budgetMs, (signal) => httpCheck.run({ ...context, signal }));

    // Assess
    expect(result.status).toBe('ok');
    const observatory = result.data?.observatory as ObservatoryData;
    expect([observatory.graded, observatory.statusCode]).toEqual([true, 200]);
    expect(observatory.tests.find((t) => t.name === 'redirection')?.result).toBe('redirection-to-https');
    expect(result.data).toMatchObject({ analyzed: 'https', server: { product: 'Apache', version: '2.4.41' } });
    expect(result.findings.map((f) => f.id)).toEqual(
      expect.arrayContaining(['http.csp.missing', 'http.cookies.session-without-secure', 'http.disclosure.server-version', 'http.disclosure.powered-by']),
    );
  });
});

describe("Rampart's own server", () => {
  it('keeps the strict parser: a request with a control character in a header gets 400, a clean one is served', async () => {
    // Prepare: the parser answers before any route runs, so the handlers get the default config and adapters that do nothing.
    const config = loadConfig({});
    const inert: Deps = new Proxy({} as Deps, {
      get: (_target, name) => (name === 'config' ? config : name === 'then' ? undefined : new Proxy(() => undefined, { get: () => () => undefined })),
    });
    const server = await startLocalServer({ deps: inert, staticDir: '/nonexistent', cognito: { endpoint: 'http://127.0.0.1:9', userPoolId: 'x', clientId: 'y' } }, 0, '127.0.0.1');
    const { port } = server.address() as AddressInfo;
    const send = (request: string) =>
      new Promise<string>((resolve) => {
        const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
        let answer = '';
        socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
        socket.on('close', () => resolve(answer));
        socket.on('error', () => resolve(answer));
      });

    // Act
    const malformed = await send('GET /api/health HTTP/1.1\r\nHost: a\r\nX-Odd: a\x01b\r\nConnection: close\r\n\r\n');
    const clean = await send('GET /api/health HTTP/1.1\r\nHost: a\r\nX-Odd: ab\r\nConnection: close\r\n\r\n');
    server.close();

    // Assess
    expect(malformed.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
    expect(clean.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
  });
});
