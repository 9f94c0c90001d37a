import { describe, expect, it } from 'vitest';
import { disclosureFindings, disclosureTest, productVersions } from '../../../lambdas/scanner/checks/http/disclosure.js';
import { traceFindings, traceTest } from '../../../lambdas/scanner/checks/http/trace.js';
import { page, site } from './http-support.js';

describe('version disclosure', () => {
  it.each([
    ['server', 'nginx/1.22.1', [{ product: 'nginx', version: '1.22.1' }]],
    ['server', 'Apache/2.4.71 (Debian)', [{ product: 'Apache', version: '2.4.71' }]],
    ['server', 'Apache/2.4.62 (Debian) OpenSSL/3.0.15 mod_perl/2.0.12 Perl/v5.36.0', [
      { product: 'Apache', version: '2.4.62' }, { product: 'OpenSSL', version: '3.0.15' }, { product: 'mod_perl', version: '2.0.12' }, { product: 'Perl', version: '5.36.0' },
    ]],
    ['server', 'Microsoft-IIS/10.0', [{ product: 'Microsoft-IIS', version: '10.0' }]],
    ['server', 'nginx', []],
    ['server', 'cloudflare', []],
    ['x-powered-by', 'PHP/8.2.7', [{ product: 'PHP', version: '8.2.7' }]],
    ['x-powered-by', 'Express', []],
    ['x-aspnet-version', '4.0.30319', [{ product: 'ASP.NET', version: '4.0.30319' }]],
  ])('reads %s: %s', (header, value, expected) => {
    expect(productVersions(header, value)).toEqual(expected);
  });

  it('collects Server and X-Powered-By from every response, the page first', () => {
    const https = page({ server: 'nginx/1.22.1', 'x-powered-by': 'PHP/8.2.7' }, {
      redirects: [{ url: 'https://shop.example/old', status: 301, headers: { server: ['Apache/2.4.71 (Debian)'] } }],
    });

    const disclosure = disclosureTest(site(https));

    expect(disclosure.server).toEqual({ header: 'server', value: 'nginx/1.22.1', components: [{ product: 'nginx', version: '1.22.1' }], product: 'nginx', version: '1.22.1' });
    expect(disclosure.servers.map((s) => s.value)).toEqual(['Apache/2.4.71 (Debian)', 'nginx/1.22.1']);
    expect(disclosure.poweredBy).toEqual([{ header: 'x-powered-by', value: 'PHP/8.2.7', components: [{ product: 'PHP', version: '8.2.7' }], product: 'PHP', version: '8.2.7' }]);
  });

  it('reports versions as low findings with the product and version in the evidence', () => {
    const findings = disclosureFindings(disclosureTest(site(page({ server: 'Apache/2.4.71 (Debian)', 'x-powered-by': 'PHP/8.2.7', 'x-aspnet-version': '4.0.30319' }))));

    expect(findings.map((f) => [f.id, f.severity, f.evidence])).toEqual([
      ['http.disclosure.server-version', 'low', 'Server: Apache/2.4.71 (Debian)'],
      ['http.disclosure.powered-by', 'low', 'X-Powered-By: PHP/8.2.7; X-AspNet-Version: 4.0.30319'],
    ]);
    expect(findings[0]!.description).toContain('Apache 2.4.71');
  });

  it('says nothing about a Server header without a version', () => {
    expect(disclosureFindings(disclosureTest(site(page({ server: 'nginx', 'x-powered-by': 'Express' }))))).toEqual([]);
  });
});

describe('TRACE', () => {
  it('is enabled when the answer is 200 and echoes the request line', () => {
    const outcome = traceTest({ url: 'https://shop.example/', status: 200, body: 'TRACE / HTTP/1.1\r\nHost: shop.example\r\n\r\n' });

    expect(outcome).toEqual({ url: 'https://shop.example/', status: 200, enabled: true, echoed: 'TRACE / HTTP/1.1' });
    expect(traceFindings(outcome).map((f) => [f.id, f.severity])).toEqual([['http.trace-enabled', 'medium']]);
  });

  it.each([
    [405, '<html>405 Not Allowed</html>'],
    [200, '<html>Welcome</html>'],
    [501, 'TRACE / HTTP/1.1'],
  ])('is not enabled for %i %s', (status, body) => {
    const outcome = traceTest({ url: 'https://shop.example/', status, body });

    expect(outcome.enabled).toBe(false);
    expect(traceFindings(outcome)).toEqual([]);
  });
});
