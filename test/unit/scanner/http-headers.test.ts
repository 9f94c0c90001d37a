import { describe, expect, it } from 'vitest';
import { corsFindings, corsTest, CORS_PROBE_ORIGIN } from '../../../lambdas/scanner/checks/http/cors.js';
import { coepTest, coopTest, corpTest, crossOriginFindings, parseStructuredToken } from '../../../lambdas/scanner/checks/http/cross-origin.js';
import { cspTest } from '../../../lambdas/scanner/checks/http/csp.js';
import { hstsTest } from '../../../lambdas/scanner/checks/http/hsts.js';
import { SCORE_TABLE } from '../../../lambdas/scanner/checks/http/observatory-score.js';
import { redirectionTest } from '../../../lambdas/scanner/checks/http/redirection.js';
import { referrerPolicyFindings, referrerPolicyTest } from '../../../lambdas/scanner/checks/http/referrer-policy.js';
import { sriFindings, sriTest } from '../../../lambdas/scanner/checks/http/sri.js';
import { xContentTypeOptionsFindings, xContentTypeOptionsTest } from '../../../lambdas/scanner/checks/http/x-content-type-options.js';
import { xFrameOptionsFindings, xFrameOptionsTest } from '../../../lambdas/scanner/checks/http/x-frame-options.js';
import type { PreloadLookup } from '../../../lambdas/scanner/hsts-preload.js';
import { page, site } from './http-support.js';

/** A preload list holding these names, all with include_subdomains (the real one is tested in hsts-preload.test.ts). */
const preloadList = (...names: string[]): PreloadLookup => (host) => {
  const name = names.find((listed) => host === listed || host.endsWith(`.${listed}`));
  return name ? { name, includeSubDomains: true } : null;
};

const scored = <R extends keyof typeof SCORE_TABLE>(outcome: { result: R; pass: boolean }) => [outcome.result, outcome.pass, SCORE_TABLE[outcome.result]];

describe('Referrer-Policy', () => {
  it.each([
    [{ 'referrer-policy': 'strict-origin-when-cross-origin' }, 'referrer-policy-private', true, 5],
    [{ 'referrer-policy': 'no-referrer, unsafe-url' }, 'referrer-policy-unsafe', false, -5],
    [{ 'referrer-policy': 'unsafe-url, bogus, same-origin' }, 'referrer-policy-private', true, 5],
    [{ 'referrer-policy': 'sometimes' }, 'referrer-policy-header-invalid', false, -5],
    [{}, 'referrer-policy-not-implemented', true, 0],
  ] as const)('judges %j as %s', (headers, result, pass, modifier) => {
    expect(scored(referrerPolicyTest(site(page(headers))))).toEqual([result, pass, modifier]);
  });

  it('lets the page meta tag override the header', () => {
    const body = '<html><head><meta name="referrer" content="no-referrer"></head></html>';
    const outcome = referrerPolicyTest(site(page({ 'referrer-policy': 'unsafe-url', 'content-type': 'text/html' }, { body })));

    expect([outcome.result, outcome.policy, outcome.value]).toEqual(['referrer-policy-private', 'no-referrer', 'unsafe-url, no-referrer']);
  });

  it('reports a missing and an unsafe policy as low', () => {
    const missing = referrerPolicyFindings(referrerPolicyTest(site(page({}))));
    const unsafe = referrerPolicyFindings(referrerPolicyTest(site(page({ 'referrer-policy': 'unsafe-url' }))));

    expect([...missing, ...unsafe].map((f) => [f.id, f.severity])).toEqual([
      ['http.referrer-policy.missing', 'low'],
      ['http.referrer-policy.unsafe', 'low'],
    ]);
    expect(unsafe[0]!.evidence).toBe('Referrer-Policy: unsafe-url');
  });
});

describe('X-Content-Type-Options', () => {
  it.each([
    [{ 'x-content-type-options': 'nosniff' }, 'x-content-type-options-nosniff', true, 0],
    [{ 'x-content-type-options': ' NoSniff ' }, 'x-content-type-options-nosniff', true, 0],
    [{ 'x-content-type-options': 'nosniff; mode=block' }, 'x-content-type-options-header-invalid', false, -5],
    [{}, 'x-content-type-options-not-implemented', false, -5],
  ] as const)('judges %j as %s', (headers, result, pass, modifier) => {
    expect(scored(xContentTypeOptionsTest(site(page(headers))))).toEqual([result, pass, modifier]);
  });

  it('reports a missing header as low', () => {
    expect(xContentTypeOptionsFindings(xContentTypeOptionsTest(site(page({})))).map((f) => [f.id, f.severity])).toEqual([['http.xcto.missing', 'low']]);
  });
});

describe('X-Frame-Options', () => {
  const xfo = (headers: Record<string, string>) => {
    const retrieved = site(page(headers));
    return xFrameOptionsTest(retrieved, cspTest(retrieved));
  };

  it.each([
    // +5 since the Observatory's algorithm 5, as much as frame-ancestors earns (mdn/mdn-http-observatory#332).
    [{ 'x-frame-options': 'DENY' }, 'x-frame-options-sameorigin-or-deny', true, 5],
    [{ 'x-frame-options': 'sameorigin' }, 'x-frame-options-sameorigin-or-deny', true, 5],
    [{ 'x-frame-options': 'ALLOW-FROM https://partner.example' }, 'x-frame-options-allow-from-origin', true, 0],
    [{ 'x-frame-options': 'allowall' }, 'x-frame-options-header-invalid', false, -20],
    [{}, 'x-frame-options-not-implemented', false, -20],
    [{ 'content-security-policy': "default-src 'self'; frame-ancestors 'self'" }, 'x-frame-options-implemented-via-csp', true, 5],
    [{ 'content-security-policy': "frame-ancestors 'none'", 'x-frame-options': 'bogus' }, 'x-frame-options-implemented-via-csp', true, 5],
  ] as const)('judges %j as %s', (headers, result, pass, modifier) => {
    expect(scored(xfo(headers))).toEqual([result, pass, modifier]);
  });

  it('does not count frame-ancestors from a report-only policy', () => {
    expect(xfo({ 'content-security-policy-report-only': "frame-ancestors 'none'" }).result).toBe('x-frame-options-not-implemented');
  });

  it('reports clickjacking exposure as medium', () => {
    expect(xFrameOptionsFindings(xfo({})).map((f) => [f.id, f.severity, f.evidence])).toEqual([
      ['http.xfo.missing', 'medium', 'No X-Frame-Options header and no CSP frame-ancestors'],
    ]);
  });
});

describe('CORS', () => {
  const preflight = (headers: Record<string, string>) => site(page({}), { cors: { origin: CORS_PROBE_ORIGIN, headers: page(headers).headers } });

  it.each([
    [{}, 'cross-origin-resource-sharing-not-implemented', true, 0],
    [{ 'access-control-allow-origin': '*' }, 'cross-origin-resource-sharing-implemented-with-public-access', true, 0],
    [{ 'access-control-allow-origin': '*', 'access-control-allow-credentials': 'true' }, 'cross-origin-resource-sharing-implemented-with-public-access', true, 0],
    [{ 'access-control-allow-origin': 'https://app.shop.example', 'access-control-allow-credentials': 'true' }, 'cross-origin-resource-sharing-implemented-with-restricted-access', true, 0],
    [{ 'access-control-allow-origin': CORS_PROBE_ORIGIN }, 'cross-origin-resource-sharing-implemented-with-restricted-access', true, 0],
    [{ 'access-control-allow-origin': CORS_PROBE_ORIGIN, 'access-control-allow-credentials': 'TRUE' }, 'cross-origin-resource-sharing-implemented-with-universal-access', false, -50],
  ] as const)('judges a preflight answered %j as %s', (headers, result, pass, modifier) => {
    expect(scored(corsTest(preflight(headers)))).toEqual([result, pass, modifier]);
  });

  it('reports a reflected origin with credentials as high', () => {
    const retrieved = preflight({ 'access-control-allow-origin': CORS_PROBE_ORIGIN, 'access-control-allow-credentials': 'true' });

    expect(corsFindings(corsTest(retrieved), retrieved).map((f) => [f.id, f.severity])).toEqual([['http.cors.universal-with-credentials', 'high']]);
  });
});

describe('HSTS', () => {
  it.each([
    [{ 'strict-transport-security': 'max-age=63072000; includeSubDomains; preload' }, 'hsts-implemented-max-age-at-least-six-months', true, 0],
    [{ 'strict-transport-security': 'max-age=15552000' }, 'hsts-implemented-max-age-at-least-six-months', true, 0],
    [{ 'strict-transport-security': 'max-age="31536000"' }, 'hsts-implemented-max-age-at-least-six-months', true, 0],
    [{ 'strict-transport-security': 'max-age=300' }, 'hsts-implemented-max-age-less-than-six-months', false, -10],
    [{ 'strict-transport-security': 'includeSubDomains' }, 'hsts-header-invalid', false, -20],
    [{ 'strict-transport-security': 'max-age=abc' }, 'hsts-header-invalid', false, -20],
    [{ 'strict-transport-security': ['max-age=31536000', 'max-age=0'] }, 'hsts-header-invalid', false, -20],
    [{}, 'hsts-not-implemented', false, -20],
  ] as const)('judges %j as %s', (headers, result, pass, modifier) => {
    expect(scored(hstsTest(site(page(headers as Record<string, string | string[]>))))).toEqual([result, pass, modifier]);
  });

  it('cannot count HSTS without HTTPS or with an untrusted certificate', () => {
    const noHttps = hstsTest(site(null, { http: page({}, { url: 'http://shop.example/' }) }));
    const untrusted = hstsTest(site(page({ 'strict-transport-security': 'max-age=63072000' }, { certificateTrusted: false })));

    expect([noHttps.result, untrusted.result]).toEqual(['hsts-not-implemented-no-https', 'hsts-invalid-cert']);
  });

  it('records the directives', () => {
    expect(hstsTest(site(page({ 'strict-transport-security': 'max-age=31536000; includeSubDomains; preload' })))).toMatchObject({
      maxAge: 31536000, includeSubDomains: true, preload: true, preloaded: null,
    });
  });

  it('credits a host on the preload list with +5, whatever its header, even over an untrusted certificate', () => {
    const listed = preloadList('shop.example');
    const withoutHeader = hstsTest(site(page({})), listed);
    const untrusted = hstsTest(site(page({ 'strict-transport-security': 'max-age=0' }, { certificateTrusted: false })), listed);

    expect(scored(withoutHeader)).toEqual(['hsts-preloaded', true, 5]);
    expect(withoutHeader).toMatchObject({ preloaded: { name: 'shop.example', includeSubDomains: true }, includeSubDomains: true });
    expect(scored(untrusted)).toEqual(['hsts-preloaded', true, 5]);
  });

  it('gives no preload credit to a host off the list, nor to a site without HTTPS', () => {
    expect(hstsTest(site(page({})), preloadList('other.example')).result).toBe('hsts-not-implemented');
    expect(hstsTest(site(null, { http: page({}, { url: 'http://shop.example/' }) }), preloadList('shop.example')).result).toBe('hsts-not-implemented-no-https');
  });
});

describe('redirection', () => {
  const hop = (url: string, status = 301) => ({ url, status });
  const fromHttp = (finalUrl: string, hops: { url: string; status: number }[], certificateTrusted?: boolean) =>
    redirectionTest(site(page({}), { http: page({}, { url: finalUrl, redirects: hops, ...(certificateTrusted === undefined ? {} : { certificateTrusted }) }) }));

  it('passes a first redirect to HTTPS on the same host', () => {
    const outcome = fromHttp('https://www.shop.example/', [hop('http://shop.example/'), hop('https://shop.example/')]);

    expect(scored(outcome)).toEqual(['redirection-to-https', true, 0]);
    expect(outcome.route).toEqual(['http://shop.example/', 'https://shop.example/', 'https://www.shop.example/']);
  });

  it.each([
    ['no redirect', 'http://shop.example/', [], 'redirection-missing', -20],
    ['a redirect that stays on HTTP', 'http://www.shop.example/', [hop('http://shop.example/')], 'redirection-not-to-https', -20],
    ['HTTP to HTTP, then HTTPS', 'https://www.shop.example/', [hop('http://shop.example/'), hop('http://www.shop.example/')], 'redirection-not-to-https-on-initial-redirection', -10],
    ['a first redirect to HTTPS on another host', 'https://www.shop.example/', [hop('http://shop.example/')], 'redirection-off-host-from-http', -5],
  ] as const)('judges %s', (_label, finalUrl, hops, result, modifier) => {
    expect(scored(fromHttp(finalUrl, [...hops]))).toEqual([result, false, modifier]);
  });

  it('passes a chain whose every host is preloaded, redirecting or not, since browsers never request it over HTTP', () => {
    const stays = redirectionTest(site(page({}), { http: page({}, { url: 'http://shop.example/' }) }), preloadList('shop.example'));
    const offHost = redirectionTest(site(page({}), { http: page({}, { url: 'https://www.shop.example/', redirects: [hop('http://shop.example/')] }) }), preloadList('shop.example'));
    const partly = redirectionTest(site(page({}), { http: page({}, { url: 'https://cdn.other.example/', redirects: [hop('http://shop.example/')] }) }), preloadList('shop.example'));

    expect([stays.result, offHost.result, partly.result]).toEqual(['redirection-all-redirects-preloaded', 'redirection-all-redirects-preloaded', 'redirection-off-host-from-http']);
    expect(scored(stays)).toEqual(['redirection-all-redirects-preloaded', true, 0]);
  });

  it('fails a chain that ends on an untrusted certificate, and passes a site without plain HTTP', () => {
    expect(fromHttp('https://shop.example/', [hop('http://shop.example/')], false).result).toBe('redirection-invalid-cert');
    expect(scored(redirectionTest(site(page({}))))).toEqual(['redirection-not-needed-no-http', true, 0]);
  });
});

describe('Subresource Integrity', () => {
  const withBody = (body: string, url = 'https://www.shop.example/', type = 'text/html; charset=utf-8') =>
    sriTest(site(page({ 'content-type': type }, { body, url })));

  it.each([
    ['no script', '<p>hello</p>', 'sri-not-implemented-but-no-scripts-loaded', true, 0],
    ['inline scripts only', '<script>var a = 1;</script>', 'sri-not-implemented-but-all-scripts-loaded-from-secure-origin', true, 0],
    ['same-site scripts', '<script src="/app.js"></script><script src="https://static.shop.example/x.js"></script>', 'sri-not-implemented-but-all-scripts-loaded-from-secure-origin', true, 0],
    ['a same-origin script with integrity', '<script src="/app.js" integrity="sha384-abc"></script>', 'sri-implemented-and-all-scripts-loaded-securely', true, 5],
    ['a CDN script with integrity', '<script src="https://cdn.example.net/lib.js" integrity="sha384-abc" crossorigin="anonymous"></script>', 'sri-implemented-and-external-scripts-loaded-securely', true, 5],
    ['a CDN script without integrity', '<SCRIPT SRC=https://cdn.example.net/lib.js></SCRIPT>', 'sri-not-implemented-but-external-scripts-loaded-securely', false, -5],
    ['an http CDN script with integrity', '<script src="http://cdn.example.net/lib.js" integrity="sha384-abc"></script>', 'sri-implemented-but-external-scripts-not-loaded-securely', false, -20],
    ['an http CDN script', '<script src="http://cdn.example.net/lib.js"></script>', 'sri-not-implemented-and-external-scripts-not-loaded-securely', false, -50],
    ['a protocol-relative script', '<script src="//cdn.example.net/lib.js"></script>', 'sri-not-implemented-and-external-scripts-not-loaded-securely', false, -50],
  ] as const)('judges %s', (_label, body, result, pass, modifier) => {
    expect(scored(withBody(body))).toEqual([result, pass, modifier]);
  });

  it('ignores script tags inside comments and inside script text', () => {
    const body = '<!-- <script src="http://old.example/x.js"></script> --><script>document.write("<script src=\\"http://ads.example/x.js\\"></" + "script>")</script>';

    expect(withBody(body).result).toBe('sri-not-implemented-but-all-scripts-loaded-from-secure-origin');
  });

  it('skips a response that is not HTML', () => {
    expect(scored(withBody('<script src="http://x.example/a.js"></script>', undefined, 'application/json'))).toEqual(['sri-not-implemented-response-not-html', true, 0]);
  });

  it('reports scripts over HTTP as medium and CDN scripts without integrity as low', () => {
    const insecure = sriFindings(withBody('<script src="http://cdn.example.net/lib.js"></script>'));
    const missing = sriFindings(withBody('<script src="https://cdn.example.net/lib.js"></script>'));

    expect([...insecure, ...missing].map((f) => [f.id, f.severity, f.evidence])).toEqual([
      ['http.sri.insecure-scripts', 'medium', 'Loaded over http: or a protocol-relative URL: http://cdn.example.net/lib.js'],
      ['http.sri.missing', 'low', 'Without an integrity attribute: https://cdn.example.net/lib.js'],
    ]);
  });
});

describe('CORP, COEP, COOP', () => {
  it('reads the policy token as a structured field, with parameters', () => {
    expect(parseStructuredToken('same-origin')).toBe('same-origin');
    expect(parseStructuredToken('same-origin; report-to="coop"')).toBe('same-origin');
    expect(parseStructuredToken('same-origin; report-to')).toBe('same-origin');
    expect(parseStructuredToken('require-corp; report-to=coep endpoint')).toBeNull();
    expect(parseStructuredToken('"same-origin"')).toBeNull();
    expect(parseStructuredToken('same-origin, same-origin')).toBeNull();
  });

  it.each([
    [{ 'cross-origin-resource-policy': 'same-origin' }, 'corp-implemented-with-same-origin', true, 10],
    [{ 'cross-origin-resource-policy': 'Same-Site' }, 'corp-implemented-with-same-site', true, 10],
    [{ 'cross-origin-resource-policy': 'cross-origin' }, 'corp-implemented-with-cross-origin', true, 0],
    [{ 'cross-origin-resource-policy': 'same-domain' }, 'corp-header-invalid', false, -5],
    [{}, 'corp-not-implemented', true, 0],
  ] as const)('CORP %j is %s', (headers, result, pass, modifier) => {
    expect(scored(corpTest(site(page(headers))))).toEqual([result, pass, modifier]);
  });

  it.each([
    [{ 'cross-origin-embedder-policy': 'require-corp' }, 'coep-implemented-with-require-corp', true, 10],
    [{ 'cross-origin-embedder-policy': 'credentialless; report-to="e"' }, 'coep-implemented-with-credentialless', true, 10],
    [{ 'cross-origin-embedder-policy': 'unsafe-none' }, 'coep-implemented-with-unsafe-none', true, 0],
    [{ 'cross-origin-embedder-policy': 'whimsy' }, 'coep-header-invalid', false, -5],
    [{}, 'coep-not-implemented', true, 0],
  ] as const)('COEP %j is %s', (headers, result, pass, modifier) => {
    expect(scored(coepTest(site(page(headers))))).toEqual([result, pass, modifier]);
  });

  it.each([
    [{ 'cross-origin-opener-policy': 'same-origin' }, 'coop-implemented-with-same-origin', true, 10],
    [{ 'cross-origin-opener-policy': 'same-origin-allow-popups' }, 'coop-implemented-with-same-origin-allow-popups', true, 10],
    [{ 'cross-origin-opener-policy': 'noopener-allow-popups' }, 'coop-implemented-with-noopener-allow-popups', true, 10],
    [{ 'cross-origin-opener-policy': 'unsafe-none' }, 'coop-implemented-with-unsafe-none', true, 0],
    [{ 'cross-origin-opener-policy': ['same-origin', 'same-origin'] }, 'coop-header-invalid', false, -5],
    [{}, 'coop-not-implemented', true, 0],
  ] as const)('COOP %j is %s', (headers, result, pass, modifier) => {
    expect(scored(coopTest(site(page(headers as Record<string, string | string[]>))))).toEqual([result, pass, modifier]);
  });

  it('reports unreadable values as low, and missing headers not at all', () => {
    const retrieved = site(page({ 'cross-origin-resource-policy': 'same-domain', 'cross-origin-opener-policy': 'same_origin' }));

    const findings = crossOriginFindings(corpTest(retrieved), coepTest(retrieved), coopTest(retrieved));

    expect(findings.map((f) => [f.id, f.severity, f.evidence])).toEqual([
      ['http.corp.invalid', 'low', 'Cross-Origin-Resource-Policy: same-domain'],
      ['http.coop.invalid', 'low', 'Cross-Origin-Opener-Policy: same_origin'],
    ]);
  });
});
