import { readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { bothProtocols as serveBoth, loopbackServers } from '../../support/loopback-servers.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckContext } from '../../../lambdas/scanner/check.js';
import { httpCheck } from '../../../lambdas/scanner/checks/http.check.js';
import type { ObservatoryData, SessionData } from '../../../lambdas/scanner/checks/http.check.js';
import { createHttpClient } from '../../../lambdas/scanner/net/http-client.js';
import type { ScanNet } from '../../../lambdas/scanner/net/net.js';
import { runCheck } from '../../../lambdas/scanner/scan.js';
import { selfSignedCertificate } from '../../support/self-signed.js';

const fixtures = new URL('../../fixtures/http/', import.meta.url);
const cert = readFileSync(new URL('self-signed.cert.pem', fixtures), 'utf8');
const key = readFileSync(new URL('self-signed.key.pem', fixtures), 'utf8');
const SITE = 'shop.rampart.test';

const loopback = loopbackServers();

const listen = loopback.listen;

const bothProtocols = (handler: (secure: boolean) => http.RequestListener): net.Server => serveBoth({ cert, key }, handler);

/** Apache with ServerTokens Full and TraceEnable On behind an http→https redirect, serving a PHP page with a session cookie. */
const apacheLike = (port: () => number) => (secure: boolean): http.RequestListener => (req, res) => {
  res.setHeader('server', 'Apache/2.4.71 (Debian)');
  if (req.method === 'TRACE') {
    const echo = `TRACE ${req.url} HTTP/${req.httpVersion}\r\n${Object.entries(req.headers).map(([n, v]) => `${n}: ${String(v)}`).join('\r\n')}\r\n\r\n`;
    res.writeHead(200, { 'content-type': 'message/http' }).end(echo);
    return;
  }
  if (!secure) {
    res.writeHead(301, { location: `https://${SITE}:${port()}${req.url}` }).end();
    return;
  }
  if (req.method === 'OPTIONS') {
    res.writeHead(200, { allow: 'GET,HEAD,POST,OPTIONS,TRACE' }).end();
    return;
  }
  if (req.url === '/robots.txt') {
    res.writeHead(404, { 'content-type': 'text/html' }).end('Not Found');
    return;
  }
  res.writeHead(200, {
    'content-type': 'text/html; charset=UTF-8',
    'x-powered-by': 'PHP/8.2.7',
    'set-cookie': ['PHPSESSID=ab12; path=/'],
    'x-frame-options': 'SAMEORIGIN',
  });
  res.end('<!doctype html><html><head><title>Shop</title><script src="/js/app.js"></script></head><body>Hello</body></html>');
};

const apache = { port: 0 };
const plainOnly = { port: 0 };
const evil = { port: 0 };

beforeAll(async () => {
  apache.port = await listen(bothProtocols(apacheLike(() => apache.port)));
  // Only plain HTTP: a TLS handshake to it fails.
  plainOnly.port = await listen(
    http.createServer((_req, res) => {
      res.writeHead(200, { server: 'nginx/1.22.1', 'content-type': 'text/html' }).end('<html>plain</html>');
    }),
  );
  evil.port = await listen(
    bothProtocols(() => (_req, res) => {
      res.writeHead(302, { location: 'http://evil.example/' }).end();
    }),
  );
});

afterAll(async () => {
  await loopback.closeAll();
});

function contextFor(url: string, resolve: (host: string) => Promise<string[]> = async () => [], trust: string[] = [cert], site = SITE): Omit<CheckContext, 'signal'> {
  // The test certificate is trusted as a real site's would be, so HSTS and redirection are judged on their own.
  const client = createHttpClient({ pinned: new Map([[site, ['127.0.0.1']]]), resolve, allowPrivateTargets: false, ca: trust });
  return {
    mode: 'active',
    target: { url, host: site },
    domain: site.split('.').slice(-2).join('.'),
    addresses: ['127.0.0.1'],
    subject: { emails: [], verifiedDomains: [] },
    settings: { resolvers: [], dnsTimeoutMs: 1000, allowPrivateTargets: false },
    net: { http: client } as unknown as ScanNet,
    resultOf: async () => undefined,
  };
}

const runHttp = (context: Omit<CheckContext, 'signal'>) => runCheck(httpCheck.name, httpCheck.budgetMs, (signal) => httpCheck.run({ ...context, signal }));

describe('http check against loopback servers', () => {
  it('grades an Apache with server tokens and TRACE on, and reports its version, TRACE and missing headers', async () => {
    const result = await runHttp(contextFor(`https://${SITE}:${apache.port}/`));

    expect(result.status).toBe('ok');
    const observatory = result.data?.observatory as ObservatoryData;
    // CSP -25, session cookie without Secure (no HSTS) -40, HSTS -20, XCTO -5: 100 - 90 = 10.
    expect([observatory.graded, observatory.score, observatory.grade]).toEqual([true, 10, 'F']);
    expect(observatory.tests.find((t) => t.name === 'redirection')?.result).toBe('redirection-to-https');
    // shop.rampart.test is not on the HSTS preload list.
    expect((result.data?.details as Record<string, { preloaded?: unknown }>)['strict-transport-security']?.preloaded).toBeNull();
    expect(result.findings.map((f) => [f.id, f.severity])).toEqual([
      ['http.csp.missing', 'medium'],
      ['http.cookies.session-without-secure', 'medium'],
      ['http.cookies.session-without-httponly', 'medium'],
      ['http.cookies.without-samesite', 'info'],
      ['http.xcto.missing', 'low'],
      ['http.referrer-policy.missing', 'low'],
      ['http.permissions-policy.missing', 'info'],
      ['http.disclosure.server-version', 'low'],
      ['http.disclosure.powered-by', 'low'],
      ['http.trace-enabled', 'medium'],
    ]);
    expect(result.data).toMatchObject({
      url: `https://${SITE}:${apache.port}/`,
      analyzed: 'https',
      server: { value: 'Apache/2.4.71 (Debian)', product: 'Apache', version: '2.4.71' },
      poweredBy: [{ header: 'x-powered-by', product: 'PHP', version: '8.2.7' }],
      trace: { enabled: true, status: 200, echoed: 'TRACE / HTTP/1.1' },
    });
    const responses = result.data?.responses as { https: SessionData; http: SessionData };
    expect(responses.https).toMatchObject({ status: 200, certificateTrusted: true, headers: { 'set-cookie': ['PHPSESSID=ab12; path=/'] } });
    expect(responses.http.redirects).toEqual([
      { url: `http://${SITE}:${apache.port}/`, status: 301, location: `https://${SITE}:${apache.port}/`, headers: expect.objectContaining({ location: [`https://${SITE}:${apache.port}/`] }) },
    ]);
  });

  it("credits a host on the knowledge base's HSTS preload list: +5 for HSTS and a passing redirection, with the list's entry in the details", async () => {
    // Prepare: shop.rampart.dev is covered by the list's entry "dev" (with its subdomains); it sends
    // no HSTS header and answers over plain HTTP without redirecting.
    const site = 'shop.rampart.dev';
    const tls = selfSignedCertificate(site);
    const port = await listen(serveBoth(tls, () => (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<p>Shop</p>')));

    // Act
    const result = await runHttp(contextFor(`https://${site}:${port}/`, undefined, [tls.cert], site));

    // Assess
    const observatory = result.data?.observatory as ObservatoryData;
    expect(observatory.tests.filter((t) => ['redirection', 'strict-transport-security'].includes(t.name)).map((t) => [t.result, t.pass, t.modifier])).toEqual([
      ['redirection-all-redirects-preloaded', true, 0],
      ['hsts-preloaded', true, 5],
    ]);
    expect((result.data?.details as Record<string, { preloaded?: unknown }>)['strict-transport-security']?.preloaded).toEqual({ name: 'dev', includeSubDomains: true });
  });

  it('counts an untrusted certificate against HSTS and redirection', async () => {
    const result = await runHttp(contextFor(`https://${SITE}:${apache.port}/`, undefined, []));

    const observatory = result.data?.observatory as ObservatoryData;
    expect(observatory.tests.filter((t) => ['redirection', 'strict-transport-security'].includes(t.name)).map((t) => [t.result, t.modifier])).toEqual([
      ['redirection-invalid-cert', -20],
      ['hsts-invalid-cert', -20],
    ]);
    expect([observatory.score, observatory.grade]).toEqual([0, 'F']);
    expect((result.data?.responses as { https: SessionData }).https.certificateTrusted).toBe(false);
  });

  it('analyzes the plain HTTP answer of a site whose HTTPS fails', async () => {
    const result = await runHttp(contextFor(`https://${SITE}:${plainOnly.port}/`));

    expect(result.status).toBe('ok');
    expect(result.data).toMatchObject({
      analyzed: 'http',
      url: `http://${SITE}:${plainOnly.port}/`,
      observatory: { graded: true, statusCode: 200 },
      responses: { https: { error: { message: expect.any(String) } }, http: { status: 200 } },
    });
    const observatory = result.data?.observatory as ObservatoryData;
    expect(observatory.tests.find((t) => t.name === 'strict-transport-security')?.result).toBe('hsts-not-implemented-no-https');
    expect(observatory.tests.find((t) => t.name === 'redirection')?.result).toBe('redirection-missing');
    expect(result.findings.map((f) => f.id)).toContain('http.disclosure.server-version');
  });

  it('refuses to follow the site to a private address and ends in error with the reason', async () => {
    const asked: string[] = [];
    const result = await runHttp(contextFor(`https://${SITE}:${evil.port}/`, async (host) => (asked.push(host), host === 'evil.example' ? ['10.0.0.1'] : [])));

    expect(result).toMatchObject({ status: 'error', findings: [] });
    expect(result.reason).toContain('target_not_allowed');
    expect(result.reason).toContain('10.0.0.1');
    expect(asked).toEqual(['evil.example', 'evil.example']);
  });
});
