import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import { createServer, type TlsOptions } from 'node:tls';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { CheckResult } from '../../../lambdas/domain/audit.js';
import type { CheckContext } from '../../../lambdas/scanner/check.js';
import { createTlsCheck, type TlsCheckData } from '../../../lambdas/scanner/checks/tls.check.js';
import type { HttpClient, HttpResponse } from '../../../lambdas/scanner/net/http-client.js';
import type { ScanNet } from '../../../lambdas/scanner/net/net.js';
import { createTlsClient, isTlsFailure, type TlsFailure, type TlsHandshake } from '../../../lambdas/scanner/net/tls-client.js';
import { runCheck } from '../../../lambdas/scanner/scan.js';
import { pem } from './tls-fixtures.js';

const LOOPBACK = '127.0.0.1';
const servers: TcpServer[] = [];

/** Starts a server on loopback on an OS-chosen port (never 2024) and closes it after the file. */
async function listen(server: TcpServer): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, LOOPBACK, resolve));
  servers.push(server);
  const port = (server.address() as { port: number }).port;
  expect(port).not.toBe(2024);
  return port;
}

/** A TLS server that completes the handshake and hangs up. */
function tlsServer(options: TlsOptions): Promise<number> {
  const server = createServer(options, (socket) => socket.end());
  server.on('tlsClientError', () => undefined);
  return listen(server);
}

const chain = pem('leaf-rsa2048-sha256.pem') + pem('intermediate-ca.pem');
/** Like the scan range's Apache: every version from TLS 1.0, every cipher, DHE with a 1024-bit group, the weak self-signed certificate. */
const legacyServer = () =>
  tlsServer({ key: pem('self-rsa1024-sha1.key'), cert: pem('self-rsa1024-sha1.pem'), minVersion: 'TLSv1', maxVersion: 'TLSv1.3', ciphers: 'ALL:@SECLEVEL=0', dhparam: pem('dh1024.pem') });/** A well-run server: TLS 1.2 and 1.3 with Node's default suites, a chain from the test CA. */
const modernServer = () => tlsServer({ key: pem('leaf-rsa2048-sha256.key'), cert: chain, minVersion: 'TLSv1.2' });
/** The stand-in for an OCSP response a stapling server sends (the client records only that one came). */
const FAKE_OCSP_RESPONSE = Buffer.from('rampart test OCSP response');
/**
 * A well-run server as public CAs issue today: the leaf embeds SCTs and names an OCSP responder;
 * `staple` decides whether the server answers status_request with a (fake) response.
 */
function publicServer(staple: boolean): Promise<number> {
  const server = createServer({ key: pem('leaf-sct.key'), cert: pem('leaf-sct.pem') + pem('intermediate-ca.pem'), minVersion: 'TLSv1.2' }, (socket) => socket.end());
  server.on('tlsClientError', () => undefined);
  // Node asks for a response only when the client sent status_request; null staples nothing.
  server.on('OCSPRequest', (_cert: Buffer, _issuer: Buffer, done: (error: Error | null, response?: Buffer) => void) => done(null, staple ? FAKE_OCSP_RESPONSE : undefined));
  return listen(server);
}

/** A port nothing listens on: bound then closed. */
async function closedPort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, LOOPBACK, resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  expect(port).not.toBe(2024);
  return port;
}

afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
});

describe('TLS client on loopback', () => {
  const client = createTlsClient({ allowPrivateTargets: true });
  const trusting = createTlsClient({ allowPrivateTargets: true, ca: [pem('root-ca.pem')] });

  it('negotiates each version a legacy server still offers, with suite, DH group and certificate', async () => {
    const port = await legacyServer();
    const results = await Promise.all(
      (['TLSv1', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'] as const).map((v) => client.handshake(LOOPBACK, port, { servername: 'shop.example.test', minVersion: v, maxVersion: v, timeoutMs: 2000 })),
    );
    const handshakes = results as TlsHandshake[];
    expect(handshakes.map((h) => h.protocol)).toEqual(['TLSv1', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3']);
    expect(handshakes[3]!.cipher!.name).toBe('TLS_AES_256_GCM_SHA384');
    expect(handshakes[0]!.ephemeralKey).toEqual({ type: 'ECDH', name: 'X25519', size: 253 });
    expect(handshakes[0]!.certificates.map((c) => c.subject)).toEqual(['CN=wrong.example.test\nO=Rampart Test']);
    expect([handshakes[0]!.authorized, handshakes[0]!.authorizationError]).toEqual([false, 'DEPTH_ZERO_SELF_SIGNED_CERT']);
    const dhe = await client.handshake(LOOPBACK, port, { minVersion: 'TLSv1', maxVersion: 'TLSv1.2', ciphers: 'kDHE:!aNULL:@SECLEVEL=0', timeoutMs: 2000 });
    expect(dhe).toMatchObject({ protocol: 'TLSv1.2', ephemeralKey: { type: 'DH', size: 1024 } });
  });

  it('reads chain trust from the trust store it is given, apart from the host name', async () => {
    const port = await modernServer();
    const options = { servername: 'other.example.test', minVersion: 'TLSv1.2', maxVersion: 'TLSv1.3', timeoutMs: 2000 } as const;
    const untrusted = (await client.handshake(LOOPBACK, port, options)) as TlsHandshake;
    expect([untrusted.authorized, untrusted.authorizationError]).toEqual([false, 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY']);
    expect(untrusted.certificates.map((c) => c.subject.split('\n')[0])).toEqual(['CN=shop.example.test', 'CN=Rampart Test Intermediate CA']);
    const trusted = (await trusting.handshake(LOOPBACK, port, options)) as TlsHandshake;
    expect([trusted.authorized, trusted.authorizationError]).toEqual([true, undefined]);
    expect(trusted.certificates.map((c) => c.subject.split('\n')[0])).toEqual(['CN=shop.example.test', 'CN=Rampart Test Intermediate CA', 'CN=Rampart Test Root CA']);
  });

  it('asks for OCSP stapling and records the size of the stapled response, 0 when none came', async () => {
    const [stapling, silent] = await Promise.all([publicServer(true), publicServer(false)]);
    const options = { servername: 'shop.example.test', minVersion: 'TLSv1.2', maxVersion: 'TLSv1.3', timeoutMs: 2000 } as const;
    const [stapled, unstapled] = (await Promise.all([client.handshake(LOOPBACK, stapling, options), client.handshake(LOOPBACK, silent, options)])) as TlsHandshake[];
    expect([stapled!.ocspStapleBytes, unstapled!.ocspStapleBytes]).toEqual([FAKE_OCSP_RESPONSE.length, 0]);
    const legacy = (await client.handshake(LOOPBACK, await modernServer(), { ...options, maxVersion: 'TLSv1.2' })) as TlsHandshake;
    expect(legacy.ocspStapleBytes).toBe(0);
  });

  it('tells a version the server refuses (connected) from a closed port (not connected)', async () => {
    const port = await modernServer();
    const refusedVersion = (await client.handshake(LOOPBACK, port, { minVersion: 'TLSv1', maxVersion: 'TLSv1', timeoutMs: 2000 })) as TlsFailure;
    expect(refusedVersion).toMatchObject({ connected: true });
    expect(refusedVersion.failed).toMatch(/alert|version|unsupported/i);
    const closed = await client.handshake(LOOPBACK, await closedPort(), { minVersion: 'TLSv1.2', maxVersion: 'TLSv1.3', timeoutMs: 2000 });
    expect(closed).toMatchObject({ code: 'ECONNREFUSED', connected: false });
  });

  describe('against a server that accepts and never answers', () => {
    const held: Socket[] = [];
    afterEach(() => held.splice(0).forEach((s) => s.destroy()));
    const silent = async () => {
      // Reads (so it sees the client hang up) but never writes.
      const server = createTcpServer((socket) => void held.push(socket.resume()));
      const port = await listen(server);
      return { server, port };
    };

    it('gives up at its timeout and closes the connection', async () => {
      const { server, port } = await silent();
      const started = performance.now();
      const result = await client.handshake(LOOPBACK, port, { minVersion: 'TLSv1.2', maxVersion: 'TLSv1.3', timeoutMs: 150 });
      expect(result).toEqual({ failed: 'No TLS answer within 150 ms', code: 'ETIMEDOUT', connected: true });
      expect(performance.now() - started).toBeLessThan(1000);
      await expect.poll(() => new Promise((resolve) => server.getConnections((_, n) => resolve(n)))).toBe(0);
    });

    it('stops when its signal is aborted', async () => {
      // Aborted once the server holds the ClientHello (not after a fixed delay, which a loaded machine can spend before connecting).
      const controller = new AbortController();
      const server = createTcpServer((socket) => void held.push(socket.once('data', () => controller.abort()).resume()));
      const port = await listen(server);
      const result = await client.handshake(LOOPBACK, port, { minVersion: 'TLSv1.2', maxVersion: 'TLSv1.3', timeoutMs: 5000, signal: controller.signal });
      expect(result).toEqual({ failed: 'Aborted', code: 'ABORT_ERR', connected: true });
    });
  });

  it('reports a plain-HTTP port as a handshake failure on a connected socket', async () => {
    const port = await listen(createTcpServer((socket) => socket.on('data', () => socket.end('HTTP/1.1 400 Bad Request\r\n\r\n'))));
    const result = await client.handshake(LOOPBACK, port, { minVersion: 'TLSv1.2', maxVersion: 'TLSv1.3', timeoutMs: 2000 });
    expect(isTlsFailure(result) && result).toMatchObject({ code: 'ERR_SSL_WRONG_VERSION_NUMBER', connected: true });
  });
});

/** An HTTP client answering from a table, as the real one would for the test's URLs. */
function fakeHttp(answers: Record<string, Partial<HttpResponse> | Error>): HttpClient & { urls: string[] } {
  const urls: string[] = [];
  return {
    urls,
    request: async (url) => {
      urls.push(url);
      const answer = answers[url];
      if (!answer) throw Object.assign(new Error(`connect ECONNREFUSED ${url}`), { code: 'ECONNREFUSED' });
      if (answer instanceof Error) throw answer;
      return { url, status: 200, headers: {}, body: '', redirects: [], ...answer };
    },
  };
}

const notUsed = () => Promise.reject(new Error('not used by the TLS check'));

function context(options: { url: string; host: string; http: HttpClient; ports?: CheckResult; dns?: CheckResult; ca?: boolean }): Omit<CheckContext, 'signal'> {
  const net: ScanNet = {
    dns: { query: notUsed, axfr: notUsed } as unknown as ScanNet['dns'],
    tcp: { probe: notUsed },
    tls: createTlsClient({ allowPrivateTargets: true, ...(options.ca === false ? {} : { ca: [pem('root-ca.pem')] }) }),
    http: options.http,
    smtp: { starttls: notUsed } as unknown as ScanNet['smtp'],
  };
  return {
    mode: 'active',
    target: { url: options.url, host: options.host },
    domain: 'example.test',
    addresses: ['::1', LOOPBACK],
    subject: { emails: [], verifiedDomains: [] },
    settings: { resolvers: [], dnsTimeoutMs: 500, allowPrivateTargets: true, excludePorts: [2024] },
    net,
    resultOf: async (name) => (name === 'ports' ? options.ports : name === 'dns' ? options.dns : undefined),
  };
}

const check = createTlsCheck({ handshakeTimeoutMs: 1500 });
const run = (ctx: Omit<CheckContext, 'signal'>) => runCheck(check.name, check.budgetMs, (signal) => check.run({ ...ctx, signal }));

describe('TLS check against loopback servers', () => {
  it('grades a well-run HTTPS site A+ with nothing to report, HSTS and redirect read over HTTP', async () => {
    const port = await publicServer(true);
    const http = fakeHttp({
      [`https://shop.example.test:${port}/`]: { headers: { 'strict-transport-security': ['max-age=31536000; includeSubDomains'] } },
      'http://shop.example.test/': { url: `https://shop.example.test:${port}/`, redirects: [{ url: 'http://shop.example.test/', status: 301, location: `https://shop.example.test:${port}/` }] },
    });
    const result = await run(context({ url: `https://shop.example.test:${port}/`, host: 'shop.example.test', http }));
    const data = result.data as TlsCheckData;
    expect([result.status, result.findings]).toEqual(['ok', []]);
    expect([data.address, data.servername, data.grade, data.portScan]).toEqual([LOOPBACK, 'shop.example.test', 'A+', 'no result']);
    expect(data.ports[0]).toMatchObject({ port, source: 'target', offered: ['TLSv1.2', 'TLSv1.3'], forwardSecrecy: true, aead: true, cbcOffered: true, dhBits: null });
    expect(data.ports[0]!.certificate).toMatchObject({ trusted: true, hostnameMatch: true, keyType: 'rsa', keySize: 2048, signatureAlgorithm: 'sha256WithRSAEncryption' });
    expect(data.hsts).toMatchObject({ maxAge: 31536000, includeSubDomains: true, preload: false });
    expect(data.redirect).toMatchObject({ endsOnHttps: true, finalUrl: `https://shop.example.test:${port}/` });
    expect(http.urls.sort()).toEqual(['http://shop.example.test/', `https://shop.example.test:${port}/`]);
    expect(data.certificateTransparency.scts!.map((sct) => sct.logId.slice(0, 4))).toEqual(['oaGh', 'srKy']);
    expect(data.ocspStapling).toEqual({ stapled: true, responder: 'http://ocsp.example.test' });
    expect(data.caa).toMatchObject({ source: 'no dns result', issuerAllowed: null, reason: 'no CAA data from the dns check' });
  });

  it('reports a trusted certificate without SCTs, and an OCSP responder the server does not staple', async () => {
    const [bare, unstapled] = await Promise.all([modernServer(), publicServer(false)]);
    const [noSct, noStaple] = await Promise.all(
      [bare, unstapled].map((port) => run(context({ url: `https://shop.example.test:${port}/`, host: 'shop.example.test', http: fakeHttp({}) }))),
    );
    expect(noSct!.findings.map((f) => [f.id, f.severity, f.evidence])).toEqual([
      ['tls.cert.no-sct', 'low', `port ${bare}: the leaf certificate embeds no Signed Certificate Timestamps (OID 1.3.6.1.4.1.11129.2.4.2)`],
    ]);
    expect((noSct!.data as TlsCheckData).ocspStapling).toEqual({ stapled: false, responder: null });
    expect(noStaple!.findings.map((f) => [f.id, f.severity, f.evidence])).toEqual([
      ['tls.ocsp.not-stapled', 'info', `port ${unstapled}: no OCSP response stapled to the handshake although the certificate names the responder http://ocsp.example.test`],
    ]);
  });

  it("reads the dns check's CAA set and reports an issuer it leaves out, with no verdict for an issuer not in the table", async () => {
    const port = await publicServer(true);
    const dns = (records: string[]): CheckResult => ({ name: 'dns', status: 'ok', findings: [], data: { caa: { owner: 'example.test', records } } });
    const result = await run(context({ url: `https://shop.example.test:${port}/`, host: 'shop.example.test', http: fakeHttp({}), dns: dns(['0 issue "letsencrypt.org"']) }));
    // The test CA's organisation (Rampart Test) is no public CA's: said in the data, no finding.
    expect(result.findings).toEqual([]);
    expect((result.data as TlsCheckData).caa).toEqual({
      source: 'dns check',
      owner: 'example.test',
      records: ['0 issue "letsencrypt.org"'],
      issuerOrganisation: 'Rampart Test',
      issuerDomains: [],
      tag: null,
      allowed: [],
      issuerAllowed: null,
      reason: 'issuer Rampart Test is not in the table of CAA issuer domains: no verdict',
    });
  });

  it('finds every fault of the range-style server in under a second, one finding per problem across ports', async () => {
    const [port, extraPort] = await Promise.all([legacyServer(), legacyServer()]);
    const ports: CheckResult = {
      name: 'ports',
      status: 'ok',
      findings: [],
      data: { open: [{ port, service: 'https', tls: true }, { port: extraPort, service: 'https-alt', tls: true }, { port: 8080, service: 'http' }] },
    };
    const http = fakeHttp({ 'http://shop.example.test/': { status: 200 }, [`https://shop.example.test:${port}/`]: { status: 200 } });
    const started = performance.now();
    const result = await run(context({ url: `https://shop.example.test:${port}/`, host: 'shop.example.test', http, ports }));
    const elapsed = performance.now() - started;
    const data = result.data as TlsCheckData;
    expect(result.findings.map((f) => [f.id, f.severity])).toEqual([
      ['tls.protocol.tls10', 'medium'],
      ['tls.protocol.tls11', 'low'],
      ['tls.cipher.weak-dh', 'medium'],
      ['tls.cert.self-signed', 'high'],
      ['tls.cert.hostname-mismatch', 'high'],
      ['tls.cert.weak-key', 'high'],
      ['tls.cert.weak-signature', 'high'],
      ['tls.hsts.missing', 'medium'],
      ['tls.redirect.no-https-redirect', 'medium'],
    ]);
    expect(result.findings[2]!.evidence).toBe(
      `port ${port}: DHE uses a 1024-bit group (DHE-RSA-AES256-GCM-SHA384); 2048 bits is the minimum; port ${extraPort}: DHE uses a 1024-bit group (DHE-RSA-AES256-GCM-SHA384); 2048 bits is the minimum`,
    );
    expect(data.ports.map((p) => [p.port, p.source, p.offered.length, p.grade?.grade, p.grade?.gradeIgnoringTrust])).toEqual([
      [port, 'target', 4, 'T', 'B'],
      [extraPort, 'port-scan', 4, 'T', 'B'],
    ]);
    expect([data.grade, data.portScan]).toEqual(['T', 'used']);
    expect(elapsed).toBeLessThan(1000);
    console.info(`TLS check, 2 ports × (4 versions + follow-ups) on loopback: ${Math.round(elapsed)} ms (check's own figure ${data.durationMs} ms)`);
  });

  it('reports no HTTPS when the HTTPS port speaks plain HTTP and HTTP answers', async () => {
    const port = await listen(createTcpServer((socket) => socket.on('data', () => socket.end('HTTP/1.1 400 Bad Request\r\n\r\n'))));
    const http = fakeHttp({ 'http://shop.example.test/': { status: 200 } });
    const result = await run(context({ url: `https://shop.example.test:${port}/`, host: 'shop.example.test', http }));
    expect(result.findings.map((f) => [f.id, f.severity])).toEqual([['tls.none', 'high']]);
    expect(result.findings[0]!.evidence).toBe(`port ${port}: no TLS (ERR_SSL_WRONG_VERSION_NUMBER: wrong version number) while http://shop.example.test/ answers 200`);
    expect((result.data as TlsCheckData).grade).toBeNull();
  });

  it('keeps going when the HTTP requests fail, and records why', async () => {
    const port = await publicServer(true);
    const http = fakeHttp({ [`https://shop.example.test:${port}/`]: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }) });
    const result = await run(context({ url: `https://shop.example.test:${port}/`, host: 'shop.example.test', http }));
    const data = result.data as TlsCheckData;
    expect([result.status, result.findings]).toEqual(['ok', []]);
    expect([data.hsts, data.redirect]).toEqual([
      { url: `https://shop.example.test:${port}/`, error: 'ECONNRESET: socket hang up' },
      { from: 'http://shop.example.test/', error: 'ECONNREFUSED: connect ECONNREFUSED http://shop.example.test/' },
    ]);
    expect(data.grade).toBe('A');
  });

  it('ends as an error, not a pass, when neither HTTPS nor HTTP answers', async () => {
    const port = await closedPort();
    const result = await run(context({ url: `https://shop.example.test:${port}/`, host: 'shop.example.test', http: fakeHttp({}) }));
    expect(result.status).toBe('error');
    expect(result.reason).toMatch(new RegExp(`^Neither HTTPS \\(port ${port}: ECONNREFUSED`));
  });

  it('stops probing before its budget and keeps what it measured, judging nothing it could not finish', async () => {
    const held: Socket[] = [];
    const port = await listen(createTcpServer((socket) => void held.push(socket.resume())));
    const short = createTlsCheck({ budgetMs: 1_000, handshakeTimeoutMs: 5_000 });
    // Plain HTTP answers (and redirects): without the deadline guard the silent port would read as "no TLS at all".
    const http = fakeHttp({ 'http://shop.example.test/': { url: `https://shop.example.test:${port}/` } });
    const ctx = context({ url: `https://shop.example.test:${port}/`, host: 'shop.example.test', http });
    const result = await runCheck(short.name, short.budgetMs, (signal) => short.run({ ...ctx, signal }));
    held.forEach((s) => s.destroy());
    const data = result.data as TlsCheckData;
    expect([result.status, result.findings]).toEqual(['ok', []]);
    expect(data.ports[0]).toMatchObject({ port, tls: false, complete: false, grade: null, error: 'The check ran out of time before every handshake was made' });
    expect(data.durationMs).toBeLessThan(1_000);
  });

  it('checks an IP-literal target against its address, without SNI', async () => {
    const port = await tlsServer({ key: pem('self-ip.key'), cert: pem('self-ip.pem'), minVersion: 'TLSv1.2' });
    const http = fakeHttp({ [`https://127.0.0.1:${port}/`]: { headers: { 'strict-transport-security': ['max-age=31536000'] } } });
    const ctx = { ...context({ url: `https://127.0.0.1:${port}/`, host: '127.0.0.1', http }), addresses: [LOOPBACK] };
    const result = await run(ctx);
    const data = result.data as TlsCheckData;
    expect(data.servername).toBeNull();
    expect(data.ports[0]!.certificate).toMatchObject({ hostnameMatch: true, selfSigned: true, checkedName: '127.0.0.1' });
    expect(result.findings.map((f) => f.id)).toEqual(['tls.cert.self-signed']);
  });
});
