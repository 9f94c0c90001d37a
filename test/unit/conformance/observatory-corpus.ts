/**
 * The generated half of the Observatory differential: fast-check builds captures (what the HTTP
 * probe retrieves) from pools of header values and cookies chosen to reach every branch of every
 * Observatory test: CSP grammar (sources, duplicates, several policies, meta tags, nonces,
 * 'strict-dynamic'), cookies (flags, SameSite spellings, Domain and Path, expiry, redirect hops),
 * redirect chains, certificates, CORS answers, script tags for SRI, and hosts on and off the HSTS
 * preload list. Header values are given as a parser hands them over: trimmed, repeats as a list.
 */
import fc from 'fast-check';
import type { HeaderMap, Retrieved, RetrievedHop, RetrievedResponse } from '../../../lambdas/scanner/checks/http/retrieved.js';

/** Hosts: off the list, on it by their own entry (with and without include_subdomains), under a parent entry, under a TLD. */
export const CORPUS_HOSTS = [
  'shop.example',
  'www.shop.example',
  'example.co.uk',
  'aclu.org', // its own entry, without include_subdomains
  'mail.aclu.org', // not covered: aclu.org does not include subdomains
  'github.com', // its own entry, with include_subdomains
  'docs.github.com', // covered by github.com
  'mysite.dev', // covered by the TLD entry dev
] as const;

const CORS_ORIGIN = 'https://http-observatory.security.mozilla.org';

const SOURCES = [
  "'self'", "'none'", "'unsafe-inline'", "'unsafe-eval'", "'strict-dynamic'", "'nonce-r4nd0m'", "'sha256-AbCd='", "'sha384-x'",
  'https:', 'http:', 'ftp:', '*', 'data:', 'blob:', 'https://*', 'http://*.*', 'http://cdn.example', 'https://cdn.example',
  'https://cdn.example/js/', 'https://cdn.example/js/app.js', 'cdn.example', '*.example', 'ftp://files.example', "'SELF'", "'report-sample'",
];
const DIRECTIVES = [
  'default-src', 'default-src', 'script-src', 'script-src', 'style-src', 'object-src', 'img-src', 'media-src', 'frame-ancestors',
  'form-action', 'base-uri', 'connect-src', 'report-uri', 'report-to', 'upgrade-insecure-requests', 'sandbox', 'Script-Src', 'frame-src',
];

const directive = fc
  .tuple(fc.constantFrom(...DIRECTIVES), fc.subarray(SOURCES, { maxLength: 4 }))
  .map(([name, sources]) => (name === 'report-uri' ? `${name} /csp-report` : name === 'report-to' ? `${name} csp` : [name, ...sources].join(' ')));
const policy = fc.tuple(fc.array(directive, { minLength: 1, maxLength: 6 }), fc.constantFrom('; ', ';', ' ; '), fc.boolean()).map(([parts, separator, trailing]) => parts.join(separator) + (trailing ? ';' : ''));
const cspValues = fc.oneof(
  { weight: 3, arbitrary: fc.array(policy, { minLength: 1, maxLength: 2 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<string[]>(
      ["default-src 'none'"],
      ["default-src 'none'; form-action 'self'; frame-ancestors 'none'"],
      ["default-src 'self'; report-uri /a; report-uri /b"],
      ["default-src 'none'; report-to a; report-to b; object-src 'none'"],
      ['img-src'],
      ['a'],
      [''],
    ),
  },
);

const HSTS = [
  'max-age=31536000', 'max-age=31536000; includeSubDomains; preload', 'max-age=15552000', 'max-age=15551999', 'max-age=0', 'max-age="31536000"',
  'max-age=abc', 'includeSubDomains', 'MAX-AGE=63072000; INCLUDESUBDOMAINS', 'max-age=300', 'max-age = 31536000', 'max-age=31536000;;preload', '',
  'max-age=-5', 'max-age=12abc',
];
const XFO = ['DENY', 'SAMEORIGIN', 'deny', 'sameorigin', 'ALLOW-FROM https://partner.example', 'allow-from', 'whimsy', '', 'SAMEORIGIN; DENY'];
const XCTO = ['nosniff', 'NOSNIFF', 'sniff', '', 'nosniff; mode=block'];
const REFERRER = [
  'no-referrer', 'same-origin', 'strict-origin', 'strict-origin-when-cross-origin', 'origin', 'origin-when-cross-origin', 'unsafe-url',
  'no-referrer-when-downgrade', 'NO-REFERRER', 'no-referrer, unsafe-url', 'unsafe-url, strict-origin', 'foo', 'foo, same-origin', '',
];
const CORP = ['same-origin', 'same-site', 'cross-origin', 'SAME-SITE', 'same-origin, same-site', 'foo', ''];
const COOP = ['same-origin', 'same-origin-allow-popups', 'noopener-allow-popups', 'unsafe-none', 'same-origin; report-to="coop"', 'foo', ''];
const COEP = ['require-corp', 'credentialless', 'unsafe-none', 'require-corp; report-to="coep"', 'foo', ''];
const CONTENT_TYPES = ['text/html', 'text/html; charset=utf-8', 'text/html;charset=UTF-8', 'application/xhtml+xml', 'application/json', 'text/plain', 'TEXT/HTML'];

/** `arbitrary` in `percent` of the cases, else undefined. */
const sometimes = <T>(arbitrary: fc.Arbitrary<T>, percent: number): fc.Arbitrary<T | undefined> =>
  fc.oneof({ weight: 100 - percent, arbitrary: fc.constant(undefined) }, { weight: percent, arbitrary });

/** A header present or not, once or repeated. */
const repeated = (values: readonly string[], percent = 50) => sometimes(fc.array(fc.constantFrom(...values), { minLength: 1, maxLength: 2 }), percent);

const COOKIE_NAMES = ['SESSIONID', 'sessionid', 'login_token', 'csrftoken', 'XSRF-TOKEN', 'prefs', 'heroku-session-affinity', '__Host-sess', 'wp_lang'];
const EXPIRES_PAST = 'Expires=Thu, 01 Jan 1970 00:00:00 GMT';
const EXPIRES_FUTURE = 'Expires=Fri, 01 Jan 2100 00:00:00 GMT';

function cookie(host: string) {
  const parent = host.split('.').slice(-2).join('.');
  const attributes = [
    'Secure', 'Secure', 'HttpOnly', 'HttpOnly', 'SameSite=Lax', 'SameSite=Strict', 'SameSite=None', 'SameSite=lax', 'SameSite=Invalid', 'SameSite=',
    'SameSite', 'Path=/', 'Path=/app', `Domain=${host}`, `Domain=.${parent}`, 'Domain=foreign.example', 'Domain=co.uk', 'Max-Age=0', 'Max-Age=3600',
    EXPIRES_PAST, EXPIRES_FUTURE,
  ];
  return fc
    .tuple(fc.constantFrom(...COOKIE_NAMES), fc.subarray(attributes, { maxLength: 5 }), fc.constantFrom('; ', ';'))
    .map(([name, flags, separator]) => [`${name}=v4lue`, ...flags].join(separator));
}

const SCRIPT_SOURCES = (host: string) => {
  const parent = host.split('.').slice(-2).join('.');
  return [
    '/js/app.js', 'js/app.js', 'https://cdn.jsdelivr.net/npm/x.js', 'http://cdn.example/x.js', '//cdn.example/x.js', `https://${host}/a.js`,
    `https://static.${parent}/a.js`, `http://${host}/a.js`, `//${host}/a.js`, 'HTTPS://CDN.EXAMPLE/UPPER.js', 'https://cdn.example/a.js?v=1#frag',
  ];
};

function body(host: string) {
  const script = fc
    .tuple(fc.option(fc.constantFrom(...SCRIPT_SOURCES(host)), { nil: undefined }), fc.boolean(), fc.boolean())
    .map(([src, integrity, crossorigin]) =>
      src === undefined ? '<script>var a = "<script src=\'http://evil.example/x.js\'></script>";</script>' : `<script src="${src}"${integrity ? ' integrity="sha384-abc"' : ''}${crossorigin ? ' crossorigin="anonymous"' : ''}></script>`,
    );
  const meta = fc.constantFrom(
    `<meta http-equiv="Content-Security-Policy" content="default-src 'self'">`,
    `<meta http-equiv="content-security-policy" content="script-src 'unsafe-inline'; frame-ancestors 'none'">`,
    `<meta http-equiv="Content-Security-Policy" content="frame-ancestors 'none'">`,
    '<meta name="referrer" content="unsafe-url">',
    '<meta name="Referrer" content="no-referrer">',
    '<meta http-equiv="X-Frame-Options" content="DENY">',
    '<meta http-equiv="Cross-Origin-Resource-Policy" content="same-origin">',
  );
  return fc
    .tuple(fc.subarray([0, 1, 2]), fc.array(meta, { maxLength: 2 }), fc.array(script, { maxLength: 3 }), fc.constantFrom('html', 'text', 'empty'))
    .map(([, metas, scripts, kind]) => {
      if (kind === 'empty') return '';
      if (kind === 'text') return 'User-agent: *\nDisallow:\n';
      return `<!doctype html><html><head><title>Shop</title>${metas.join('')}</head><body><h1>Shop</h1>${scripts.join('')}<!-- <script src="http://old.example/x.js"></script> --></body></html>`;
    });
}

/** The page's own headers. */
function pageHeaders(host: string) {
  return fc
    .record({
      'content-type': sometimes(fc.constantFrom(...CONTENT_TYPES), 90),
      'content-security-policy': sometimes(cspValues, 55),
      'content-security-policy-report-only': sometimes(fc.constant<string[]>(["default-src 'self'"]), 15),
      'strict-transport-security': repeated(HSTS, 60),
      'x-frame-options': repeated(XFO),
      'x-content-type-options': repeated(XCTO, 60),
      'referrer-policy': repeated(REFERRER),
      'cross-origin-resource-policy': repeated(CORP, 30),
      'cross-origin-opener-policy': repeated(COOP, 30),
      'cross-origin-embedder-policy': repeated(COEP, 30),
      'set-cookie': sometimes(fc.array(cookie(host), { minLength: 1, maxLength: 3 }), 50),
    })
    .map((headers) => {
      const map: Record<string, string[]> = {};
      for (const [name, value] of Object.entries(headers)) {
        if (value === undefined) continue;
        map[name] = (typeof value === 'string' ? [value] : value).map((v) => v.trim());
      }
      return map as HeaderMap;
    });
}

const STATUSES = [200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 301, 401, 403, 404, 500, 204];

export interface CorpusCase {
  label: string;
  retrieved: Retrieved;
}

function hop(url: string, status: number, location: string, cookies?: readonly string[]): RetrievedHop {
  return { url, status, location, headers: { location: [location], ...(cookies ? { 'set-cookie': [...cookies] } : {}) } };
}

/** One capture: a site, its https and http sessions, the CORS preflight and robots.txt. */
export const captureArbitrary: fc.Arbitrary<CorpusCase> = fc.constantFrom(...CORPUS_HOSTS).chain((host) =>
  fc
    .record({
      headers: pageHeaders(host),
      body: body(host),
      status: fc.constantFrom(...STATUSES),
      httpsShape: fc.constantFrom('direct', 'direct', 'direct', 'www', 'off-site', 'none'),
      trusted: fc.constantFrom(true, true, true, true, true, true, true, true, false),
      hopCookies: sometimes(fc.array(cookie(host), { minLength: 1, maxLength: 2 }), 20),
      httpShape: fc.constantFrom('to-https', 'to-https', 'to-https', 'missing', 'via-http', 'off-host', 'not-to-https', 'to-preloaded', 'none'),
      httpStatus: fc.constantFrom(301, 302, 307, 308),
      httpTrusted: fc.constantFrom(true, true, true, true, true, true, true, true, true, true, false),
      cors: sometimes(
        fc.record({
          origin: fc.constantFrom('*', CORS_ORIGIN, 'https://partner.example', 'null', CORS_ORIGIN.toUpperCase(), `${CORS_ORIGIN}/`),
          credentials: sometimes(fc.constantFrom('true', 'false', 'TRUE'), 70),
        }),
        50,
      ),
      robotsCookie: sometimes(cookie(host), 20),
    })
    .map((c): CorpusCase => {
      const www = host.startsWith('www.') ? host : `www.${host}`;
      const pageUrl = c.httpsShape === 'www' ? `https://${www}/` : c.httpsShape === 'off-site' ? 'https://shop-platform.example/store/' : `https://${host}/`;
      const httpsRedirects: RetrievedHop[] = c.httpsShape === 'direct' ? [] : [hop(`https://${host}/`, 301, pageUrl, c.hopCookies)];
      const https: RetrievedResponse | null =
        c.httpsShape === 'none'
          ? null
          : { url: pageUrl, status: c.status, headers: c.headers, body: c.body, redirects: httpsRedirects, certificateTrusted: c.trusted };

      const plainPage = (url: string): RetrievedResponse => ({ url, status: 200, headers: { 'content-type': ['text/html'] }, body: '<p>plain</p>', redirects: [] });
      const start = `http://${host}/`;
      let http: RetrievedResponse | null;
      switch (c.httpShape) {
        case 'none':
          http = null;
          break;
        case 'missing':
          http = https ? { ...https, url: start, redirects: [], certificateTrusted: undefined } : plainPage(start);
          break;
        case 'via-http':
          http = { ...(https ?? plainPage(pageUrl)), url: pageUrl, redirects: [hop(start, c.httpStatus, `http://${www}/`, c.hopCookies), hop(`http://${www}/`, 301, pageUrl)], certificateTrusted: c.httpTrusted };
          break;
        case 'off-host':
          http = { ...(https ?? plainPage(pageUrl)), url: `https://${www}/`, redirects: [hop(start, c.httpStatus, `https://${www}/`)], certificateTrusted: c.httpTrusted };
          break;
        case 'not-to-https':
          http = { ...plainPage(`http://${host}/shop/`), redirects: [hop(start, c.httpStatus, `http://${host}/shop/`)] };
          break;
        case 'to-preloaded':
          http = { ...(https ?? plainPage('https://docs.github.com/')), url: 'https://docs.github.com/', redirects: [hop(start, c.httpStatus, 'https://docs.github.com/')], certificateTrusted: c.httpTrusted };
          break;
        default:
          http = { ...(https ?? plainPage(pageUrl)), url: https?.url ?? pageUrl, redirects: [hop(start, c.httpStatus, `https://${host}/`, c.hopCookies), ...httpsRedirects], certificateTrusted: c.httpTrusted };
      }
      if (!https && !http) http = plainPage(start);
      const analyzed = https ?? http!;
      const robotsUrl = new URL('/robots.txt', analyzed.redirects[0]?.url ?? analyzed.url).href;
      return {
        label: `${host} https:${c.httpsShape} http:${c.httpShape} status:${c.status}`,
        retrieved: {
          host,
          https,
          http,
          cors: c.cors
            ? { origin: CORS_ORIGIN, headers: { 'access-control-allow-origin': [c.cors.origin], ...(c.cors.credentials ? { 'access-control-allow-credentials': [c.cors.credentials] } : {}) } }
            : null,
          robots: c.robotsCookie ? { url: robotsUrl, status: 200, headers: { 'set-cookie': [c.robotsCookie], 'content-type': ['text/plain'] }, body: '', redirects: [] } : null,
        },
      };
    }),
);

/** The corpus: `size` captures, the same ones every run (a fixed seed). */
export function generatedCorpus(size: number, seed = 20261127): CorpusCase[] {
  return fc.sample(captureArbitrary, { numRuns: size, seed });
}
