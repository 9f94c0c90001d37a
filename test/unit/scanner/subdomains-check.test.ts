import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dnsCheck } from '../../../lambdas/scanner/checks/dns.check.js';
import { subdomainsCheck } from '../../../lambdas/scanner/checks/subdomains.check.js';
import { createHttpClient, type HttpClient, type HttpResponse } from '../../../lambdas/scanner/net/http-client.js';
import type { TcpClient } from '../../../lambdas/scanner/net/tcp-client.js';
import { checkContext, runWith } from '../../support/check-context.js';
import { startZoneServer, type ZoneServer } from '../../support/zone-server.js';
import { corpCtAnswer, corpZone, exampleZone, wildcardZone } from '../../fixtures/dns/zones.js';

let dns: ZoneServer;
let ct: Server;
let ctUrl: string;
const ctQueries: string[] = [];

beforeAll(async () => {
  dns = await startZoneServer({ records: [...exampleZone, ...corpZone, ...wildcardZone], allowTransfer: ['example.test'] });
  ct = createServer((request, response) => {
    ctQueries.push(request.url ?? '');
    response.setHeader('content-type', 'application/json');
    response.end(request.url?.includes('corp.test') ? corpCtAnswer : '[]');
  });
  await new Promise<void>((resolve) => ct.listen(0, '127.0.0.1', () => resolve()));
  const address = ct.address();
  ctUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`;
});
afterAll(async () => {
  await dns.close();
  await new Promise<void>((resolve) => ct.close(() => resolve()));
});

/**
 * TCP stand-in: binding 443/80 on loopback would need root and could clash with the range, so
 * the test decides which address answers on which port and records every attempt.
 */
function fakeTcp(open: Record<string, number[]>): TcpClient & { attempts: string[] } {
  const attempts: string[] = [];
  return {
    attempts,
    probe: async (address, port) => {
      attempts.push(`${address}:${port}`);
      return { port, state: open[address]?.includes(port) ? 'open' : 'closed' };
    },
  };
}

const http = createHttpClient({ pinned: new Map(), resolve: async () => [], allowPrivateTargets: true });
type Listed = { name: string; addresses: string[]; answers: boolean; answeredOn?: number; source: string[]; cname?: string };

describe('subdomains check against a loopback zone', () => {
  it('finds names from CT and the wordlist, measures which answer, and catches dangling CNAMEs, in well under 2 s', async () => {
    // Prepare
    const tcp = fakeTcp({ '127.0.0.21': [443], '127.0.0.23': [80] });
    const context = checkContext({ dnsPort: dns.port, host: 'www.corp.test', domain: 'corp.test', settings: { certificateTransparencyUrl: ctUrl }, net: { tcp, http } });
    // Act
    const result = await runWith(subdomainsCheck, context);
    // Assess
    expect(result.status).toBe('ok');
    expect(result.durationMs).toBeLessThan(2000);
    expect(result.findings.map((f) => [f.id, f.severity, f.evidence])).toEqual([
      [
        'subdomains.dangling-cname',
        'high',
        'assets.corp.test → corp-assets.s3.amazonaws.com: corp-assets.s3.amazonaws.com does not exist (NXDOMAIN) at AWS/S3. can-i-take-over-xyz rates AWS/S3 "Vulnerable"; discussion: https://github.com/EdOverflow/can-i-take-over-xyz/issues/36',
      ],
      ['subdomains.dangling-cname', 'high', 'shop.corp.test → store.corp-old-shop.test: store.corp-old-shop.test does not exist and its domain corp-old-shop.test is not registered (NXDOMAIN)'],
      ['subdomains.stale-cname', 'low', 'old.corp.test → retired.corp.test (NXDOMAIN)'],
      ['subdomains.exposed-environment', 'info', 'staging.corp.test (resolves only)'],
    ]);
    const data = result.data as { subdomainsFound: number; activeSubdomains: number; list: Listed[]; ct: unknown; axfr: unknown };
    expect(data.list).toEqual([
      { name: 'assets.corp.test', addresses: [], answers: false, source: ['wordlist'], cname: 'corp-assets.s3.amazonaws.com' },
      { name: 'blog.corp.test', addresses: ['127.0.0.23'], answers: true, answeredOn: 80, source: ['wordlist'], cname: 'corp.ghost.io' },
      { name: 'ns1.corp.test', addresses: ['127.0.0.1'], answers: false, source: ['wordlist'] },
      { name: 'old.corp.test', addresses: [], answers: false, source: ['wordlist'], cname: 'retired.corp.test' },
      { name: 'secret-project.corp.test', addresses: ['127.0.0.24'], answers: false, source: ['ct'] },
      { name: 'shop.corp.test', addresses: [], answers: false, source: ['wordlist'], cname: 'store.corp-old-shop.test' },
      { name: 'staging.corp.test', addresses: ['127.0.0.22'], answers: false, source: ['wordlist'] },
      { name: 'vpn.corp.test', addresses: ['127.0.0.21'], answers: true, answeredOn: 443, source: ['ct', 'wordlist'] },
      { name: 'www.corp.test', addresses: ['127.0.0.21'], answers: true, answeredOn: 443, source: ['ct', 'wordlist'] },
    ]);
    expect([data.subdomainsFound, data.activeSubdomains]).toEqual([9, 3]);
    expect(data.ct).toEqual({ status: 'ok', count: 4 });
    // Resolved through the dns check's absence: an own transfer attempt, refused.
    expect(data.axfr).toEqual({ from: 'own-transfer', count: 0 });
    expect(ctQueries.at(-1)).toBe('/?q=%25.corp.test&output=json');
    // 127.0.0.21 serves two names but is tried once; 443 answered, so 80 was never needed.
    expect(tcp.attempts.filter((a) => a.startsWith('127.0.0.21:'))).toEqual(['127.0.0.21:443']);
  });

  it("fetches the page of a name whose CNAME leads into a fingerprinted service and finds its 'no such site' text (active only)", async () => {
    // Prepare: blog.corp.test → corp.ghost.io answers, but with Ghost's page for a deleted site.
    const pages: string[] = [];
    const ghost: HttpClient = {
      request: async (url, options) => {
        if (!url.includes('blog.corp.test')) return http.request(url, options);
        pages.push(url);
        return { url, status: 404, headers: {}, body: '<html><body><h1>Site unavailable.</h1></body></html>', truncated: false, redirects: [] } as unknown as HttpResponse;
      },
    };
    const context = checkContext({ dnsPort: dns.port, host: 'www.corp.test', domain: 'corp.test', net: { tcp: fakeTcp({ '127.0.0.23': [443] }), http: ghost } });

    // Act
    const active = await runWith(subdomainsCheck, context);
    const fetchedActive = pages.splice(0);
    const passive = await runWith(subdomainsCheck, { ...context, mode: 'passive' });

    // Assess
    const blog = active.findings.find((f) => f.evidence?.startsWith('blog.corp.test'));
    expect(blog).toMatchObject({ id: 'subdomains.dangling-cname', severity: 'high', title: 'blog.corp.test can be taken over (dangling CNAME to Ghost)' });
    expect(blog?.evidence).toMatch(/^blog\.corp\.test → corp\.ghost\.io: https:\/\/blog\.corp\.test\/ answers with Ghost's text for a missing site: "Site unavailable\."\. can-i-take-over-xyz rates Ghost "Vulnerable"/);
    expect(blog?.description).toContain('CC BY 4.0, https://github.com/EdOverflow/can-i-take-over-xyz');
    expect(fetchedActive).toEqual(['https://blog.corp.test/']);
    // A passive scan connects to no subdomain: only the DNS signs are read.
    expect(pages).toEqual([]);
    expect(passive.findings.some((f) => f.evidence?.startsWith('blog.corp.test'))).toBe(false);
  });

  it("reuses the dns check's zone transfer instead of transferring again", async () => {
    const context = checkContext({ dnsPort: dns.port, host: 'www.example.test', domain: 'example.test', addresses: ['127.0.0.1'], net: { tcp: fakeTcp({}), http } });
    const dnsResult = await runWith(dnsCheck, context);
    const transfers = dns.queries.filter((q) => q.type === 'AXFR').length;
    const result = await runWith(subdomainsCheck, { ...context, resultOf: async (name) => (name === 'dns' ? dnsResult : undefined) });
    expect(dns.queries.filter((q) => q.type === 'AXFR').length).toBe(transfers);
    const data = result.data as { list: Listed[]; axfr: unknown; ct: unknown; subdomainsFound: number; activeSubdomains: number };
    expect(data.axfr).toEqual({ from: 'dns-check', count: 8 });
    expect(data.ct).toEqual({ status: 'not-configured', count: 0 });
    expect(data.list.map((s) => [s.name, s.source])).toEqual([
      ['dev.example.test', ['axfr', 'wordlist']],
      ['legacy.example.test', ['axfr', 'wordlist']],
      ['mail.example.test', ['axfr', 'wordlist']],
      ['ns1.example.test', ['axfr', 'wordlist']],
      ['staging.example.test', ['axfr', 'wordlist']],
      ['vpn.example.test', ['axfr', 'wordlist']],
      ['wp.example.test', ['axfr', 'wordlist']],
      ['www.example.test', ['axfr', 'wordlist']],
    ]);
    expect([data.subdomainsFound, data.activeSubdomains]).toEqual([8, 0]);
    expect(result.findings.map((f) => [f.id, f.severity, f.evidence])).toEqual([
      ['subdomains.exposed-environment', 'info', 'dev.example.test (resolves only), legacy.example.test (resolves only), staging.example.test (resolves only)'],
    ]);
  });

  it('sets wordlist guesses that only hit a wildcard aside', async () => {
    const result = await runWith(subdomainsCheck, checkContext({ dnsPort: dns.port, host: 'www.wild.test', domain: 'wild.test', net: { tcp: fakeTcp({}), http } }));
    const data = result.data as { list: Listed[]; wildcard: unknown };
    expect(data.list.map((s) => s.name)).toEqual(['ns1.wild.test', 'ns2.wild.test', 'www.wild.test']);
    expect(data.wildcard).toMatchObject({ detected: true, addresses: ['127.0.0.7'] });
  });

  it('says when certificate transparency is unreachable and goes on', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', () => resolve()));
    const address = closed.address();
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`;
    const result = await runWith(subdomainsCheck, checkContext({ dnsPort: dns.port, host: 'www.corp.test', domain: 'corp.test', settings: { certificateTransparencyUrl: url }, net: { tcp: fakeTcp({}), http } }));
    expect(result.status).toBe('ok');
    expect(result.data).toMatchObject({ ct: { status: 'unreachable', count: 0, error: expect.stringMatching(/ECONNREFUSED/) }, subdomainsFound: 8 });
  });

  it('connects to no address that fails the guard, and to no excluded port', async () => {
    const guarded = fakeTcp({ '127.0.0.21': [443] });
    await runWith(subdomainsCheck, checkContext({ dnsPort: dns.port, host: 'www.corp.test', domain: 'corp.test', settings: { allowPrivateTargets: false }, net: { tcp: guarded, http } }));
    expect(guarded.attempts).toEqual([]);
    const excluded = fakeTcp({});
    await runWith(subdomainsCheck, checkContext({ dnsPort: dns.port, host: 'www.corp.test', domain: 'corp.test', settings: { excludePorts: [443, 2024] }, net: { tcp: excluded, http } }));
    expect(new Set(excluded.attempts.map((a) => a.split(':')[1]))).toEqual(new Set(['80']));
  });

  it('ends in error when the DNS server does not answer', async () => {
    const closed = await startZoneServer({ records: [] });
    const port = closed.port;
    await closed.close();
    const result = await runWith(subdomainsCheck, checkContext({ dnsPort: port, host: 'www.corp.test', domain: 'corp.test', net: { tcp: fakeTcp({}), http } }));
    expect(result.status).toBe('error');
    expect(result.reason).toMatch(/^The DNS server did not answer about corp\.test: /);
  });
});
