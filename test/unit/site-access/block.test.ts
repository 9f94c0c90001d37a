import { describe, expect, it } from 'vitest';
import { type BlockKind, blockOf, detectBlock, detectPathBlock, genericBlock, retryAfterSeconds } from '../../../lambdas/scanner/site-access/block.js';
import { VENDOR_SIGNATURES } from '../../../lambdas/scanner/site-access/vendors.js';
import { SCANNER_ACCESS_VENDORS } from '../../../lambdas/domain/platform-guides.js';
import { blockFixtureNames, observed } from './block-fixtures.js';

/** What each capture is: the vendor's wall (vendor id and kind), the generic rule's (vendor null), or the site itself (null). */
export const EXPECTED: Readonly<Record<string, { vendor: string | null; kind: BlockKind } | null>> = {
  'cloudflare-managed-challenge': { vendor: 'cloudflare', kind: 'challenge' },
  'cloudflare-under-attack': { vendor: 'cloudflare', kind: 'challenge' },
  'cloudflare-block-1020': { vendor: 'cloudflare', kind: 'block' },
  'cloudflare-rate-limited-1015': { vendor: 'cloudflare', kind: 'rate_limited' },
  'akamai-access-denied': { vendor: 'akamai', kind: 'block' },
  'akamai-bot-manager-challenge': { vendor: 'akamai', kind: 'challenge' },
  'imperva-challenge': { vendor: 'imperva', kind: 'challenge' },
  'imperva-block-error-15': { vendor: 'imperva', kind: 'block' },
  'imperva-js-check': { vendor: 'imperva', kind: 'challenge' },
  'sucuri-access-denied': { vendor: 'sucuri', kind: 'block' },
  'sucuri-js-challenge': { vendor: 'sucuri', kind: 'challenge' },
  'aws-waf-alb-block': { vendor: 'aws-waf', kind: 'block' },
  'aws-waf-challenge': { vendor: 'aws-waf', kind: 'challenge' },
  'aws-waf-cloudfront-block': { vendor: 'aws-waf', kind: 'block' },
  'cloudfront-geo-block': { vendor: 'cloudfront', kind: 'block' },
  'azure-front-door-waf-block': { vendor: 'azure-front-door', kind: 'block' },
  'azure-front-door-rate-limited': { vendor: 'azure-front-door', kind: 'rate_limited' },
  'f5-asm-rejected': { vendor: 'f5-big-ip', kind: 'block' },
  'fastly-ngwaf-block': { vendor: 'fastly', kind: 'block' },
  'fastly-rate-limited': { vendor: 'fastly', kind: 'rate_limited' },
  'datadome-captcha': { vendor: 'datadome', kind: 'challenge' },
  'perimeterx-press-and-hold': { vendor: 'perimeterx', kind: 'challenge' },
  'wordfence-blocked': { vendor: 'wordfence', kind: 'block' },
  'wordfence-rate-limited': { vendor: 'wordfence', kind: 'rate_limited' },
  'siteground-sgcaptcha': { vendor: 'siteground', kind: 'challenge' },
  'imunify360-one-moment': { vendor: 'imunify360', kind: 'challenge' },
  'imunify360-bot-protection-denied': { vendor: 'imunify360', kind: 'block' },
  'ddos-guard-check': { vendor: 'ddos-guard', kind: 'challenge' },
  'hosting-one-moment': { vendor: 'hosting', kind: 'challenge' },
  'generic-429-retry-after': { vendor: null, kind: 'rate_limited' },
  'generic-503-maintenance': { vendor: null, kind: 'unavailable' },
  'generic-503-retry-after-date': { vendor: null, kind: 'rate_limited' },
  'generic-401-basic': { vendor: null, kind: 'auth' },
  'generic-451-geo': { vendor: null, kind: 'block' },
  'modsecurity-not-acceptable': { vendor: 'modsecurity', kind: 'block' },
  'negative-cloudflare-normal': null,
  'negative-cloudflare-origin-404': null,
  // The landing page answering 403 is a wall whoever wrote it (the generic rule); on a path it is the site's answer (below).
  'negative-cloudflare-origin-403-path': { vendor: null, kind: 'block' },
  'negative-akamai-normal': null,
  'negative-imperva-normal': null,
  // An app's shell has next to no text, like a challenge page: only the vendors' challenge machinery may count, not their injected scripts.
  'negative-cloudflare-spa': null,
  'negative-imperva-spa': null,
  'negative-sucuri-normal': null,
  'negative-aws-alb-normal': null,
  'negative-cloudfront-normal': null,
  'negative-azure-front-door-normal': null,
  'negative-f5-normal': null,
  'negative-fastly-normal': null,
  'negative-datadome-normal': null,
  'negative-perimeterx-normal': null,
  'negative-wordfence-normal': null,
  'negative-site-404': null,
  'negative-site-403-path': { vendor: null, kind: 'block' },
  'negative-recaptcha-contact': null,
};

describe('detectBlock on captured responses', () => {
  it('has an expectation for every capture in test/fixtures/blocks', () => {
    expect(blockFixtureNames()).toEqual(Object.keys(EXPECTED).sort());
  });

  for (const [name, expected] of Object.entries(EXPECTED)) {
    it(`${name}: ${expected ? `${expected.vendor ?? 'generic rule'} ${expected.kind}` : 'the site itself, not blocked'}`, () => {
      const response = observed(name);

      const block = detectBlock(response);

      expect(block && { vendor: block.vendor, kind: block.kind }).toEqual(expected);
      if (block?.vendor) expect(block.vendorName).toBe(VENDOR_SIGNATURES.find((v) => v.id === block.vendor)!.name);
    });
  }

  it("leaves the origin's own 429 passed through Cloudflare to the generic rule (Cloudflare's 1015 page is Cloudflare's)", () => {
    const origin429 = { ...observed('generic-429-retry-after'), headers: { ...observed('generic-429-retry-after').headers, server: ['cloudflare'], 'cf-ray': ['8e7a1b2c3d4e5f67-SYD'] } };

    expect(detectBlock(origin429)).toMatchObject({ vendor: null, kind: 'rate_limited', retryAfterSeconds: 120 });
  });

  it('names the vendor in the sentence the report prints', () => {
    const block = detectBlock(observed('cloudflare-managed-challenge', 'https://shop.example.com/'))!;

    expect(block).toMatchObject({ vendorName: 'Cloudflare', status: 403, url: 'https://shop.example.com/' });
    expect(block.reason).toBe(
      'The site answered the scanner with a bot-protection challenge (a page a browser solves and a scanner cannot) from Cloudflare (HTTP 403), so its pages were not checked.',
    );
  });

  it('carries the Retry-After of a vendor rate limit', () => {
    expect(detectBlock(observed('cloudflare-rate-limited-1015'))).toMatchObject({ kind: 'rate_limited', vendor: 'cloudflare', retryAfterSeconds: 60 });
  });

  it('reads a vendor mark alone (cf-ray, Imperva cookies, x-azure-ref) on a 200 page as no wall', () => {
    for (const name of Object.keys(EXPECTED).filter((n) => n.startsWith('negative-') && observed(n).status === 200)) {
      for (const vendor of VENDOR_SIGNATURES) expect(vendor.match(observed(name)), `${vendor.id} on ${name}`).toBeNull();
    }
  });

  it("reads a real page that quotes the vendors' wall words (a blog post about WAFs) as the site", () => {
    const quoted = [
      'Generated by Wordfence',
      'Your access to this site has been limited by the site owner',
      'The requested URL was rejected. Please consult with your administrator.',
      'Sucuri WebSite Firewall - Access Denied',
      'Request unsuccessful. Incapsula incident ID',
      'geo.captcha-delivery.com',
      'px-captcha',
      '/.well-known/sgcaptcha/',
      'Access denied by Imunify360 bot-protection',
      'This error was generated by Mod_Security',
    ];
    const post = `<html><head><title>What a WAF block page looks like</title></head><body><article>${'<p>Web application firewalls answer a refused request with their own page. </p>'.repeat(8)}${quoted.map((q) => `<blockquote>${q}</blockquote>`).join('')}</article></body></html>`;

    expect(detectBlock({ url: 'https://blog.example.com/waf-pages', status: 200, headers: { server: ['nginx'] }, body: post })).toBeNull();
  });

  it('gives every vendor a "let the scanner in" guide', () => {
    for (const vendor of VENDOR_SIGNATURES) expect(SCANNER_ACCESS_VENDORS, vendor.id).toContain(vendor.id);
  });

  it('asks only the vendors it is given', () => {
    expect(detectBlock(observed('cloudfront-geo-block'), [])).toMatchObject({ vendor: null, vendorName: null, kind: 'block' });
    expect(detectBlock(observed('f5-asm-rejected'), [])).toBeNull();
  });
});

describe('detectPathBlock: a wall on a path other than the landing page', () => {
  it("reads the site's own 401/403/404 on a path as the site's answer", () => {
    for (const name of ['negative-cloudflare-origin-403-path', 'negative-site-403-path', 'negative-site-404', 'negative-cloudflare-origin-404', 'generic-401-basic', 'generic-503-maintenance']) {
      expect(detectPathBlock(observed(name, 'https://www.example.com/.git/config')), name).toBeNull();
    }
  });

  it('still sees a vendor challenge, a challenge body or a rate limit on a path', () => {
    expect(detectPathBlock(observed('cloudflare-managed-challenge', 'https://www.example.com/wp-login.php'))).toMatchObject({ vendor: 'cloudflare', kind: 'challenge', url: 'https://www.example.com/wp-login.php' });
    expect(detectPathBlock(observed('f5-asm-rejected'))).toMatchObject({ vendor: 'f5-big-ip', kind: 'block' });
    expect(detectPathBlock(observed('generic-429-retry-after'))).toMatchObject({ vendor: null, kind: 'rate_limited', retryAfterSeconds: 120 });
    expect(detectPathBlock(observed('generic-503-retry-after-date'), [])).toMatchObject({ vendor: null, kind: 'rate_limited' });
    expect(detectPathBlock(observed('hosting-one-moment'), [])).toMatchObject({ vendor: null, kind: 'challenge' });
  });
});

describe('genericBlock: the rule without a vendor', () => {
  const response = (status: number, headers: Record<string, string[]> = {}, body = '<html><body>x</body></html>') => ({ url: 'https://www.example.com/', status, headers, body });

  it.each([
    [401, 'auth'],
    [403, 'block'],
    [406, 'block'],
    [429, 'rate_limited'],
    [451, 'block'],
    [503, 'unavailable'],
  ] as const)('reads %i on the landing page as %s', (status, kind) => {
    expect(genericBlock(response(status))?.kind).toBe(kind);
  });

  it.each([200, 204, 301, 404, 410, 500])('reads %i without a challenge body as no wall', (status) => {
    expect(genericBlock(response(status))).toBeNull();
  });

  it('reads 503 with Retry-After as a rate limit', () => {
    expect(genericBlock(response(503, { 'retry-after': ['30'] }))).toMatchObject({ kind: 'rate_limited', retryAfterSeconds: 30 });
  });

  it('reads a challenge title as a challenge whatever the status', () => {
    expect(genericBlock(response(200, {}, '<html><head><title>Just a moment...</title></head><body></body></html>'))?.kind).toBe('challenge');
  });

  it("reads the scripts vendors inject into normal pages as no challenge, even on an app's empty shell", () => {
    const shell = (script: string) => `<html><head><title>App</title></head><body><div id="root"></div>${script}</body></html>`;
    expect(genericBlock(response(200, {}, shell('<script src="/cdn-cgi/challenge-platform/h/b/scripts/jsd/a1b2c3/main.js"></script>')))).toBeNull();
    expect(genericBlock(response(200, {}, shell('<script src="/_Incapsula_Resource?SWJIYLWA=719d34d31c8e3a6e6fffd425f7e032f3"></script>')))).toBeNull();
  });

  it('reads CAPTCHA widgets as a challenge only on a refusal', () => {
    const form = '<html><body><form><div class="g-recaptcha" data-sitekey="k"></div></form></body></html>';
    expect(genericBlock(response(200, {}, form))).toBeNull();
    expect(genericBlock(response(403, {}, form))?.kind).toBe('challenge');
  });

  it("reads a challenge's machinery on a 200 as a challenge only on a page with next to no text", () => {
    const script = '<script src="/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1?ray=8e7a1b2c3d4e5f60"></script>';
    expect(genericBlock(response(200, {}, `<html><head>${script}</head><body></body></html>`))?.kind).toBe('challenge');
    expect(genericBlock(response(200, {}, `<html><head>${script}</head><body><p>${'Real words on a real page. '.repeat(20)}</p></body></html>`))).toBeNull();
  });
});

describe('retryAfterSeconds', () => {
  const now = Date.parse('2026-11-27T03:00:00Z');

  it('reads delta-seconds', () => {
    expect(retryAfterSeconds({ 'retry-after': ['120'] }, now)).toBe(120);
    expect(retryAfterSeconds({ 'retry-after': [' 0 '] }, now)).toBe(0);
  });

  it('reads an HTTP date as the seconds until it, rounded up', () => {
    expect(retryAfterSeconds({ 'retry-after': ['Fri, 27 Nov 2026 03:02:00 GMT'] }, now)).toBe(120);
    expect(retryAfterSeconds({ 'retry-after': ['Fri, 27 Nov 2026 03:00:00 GMT'] }, now + 500)).toBe(0);
  });

  it('reads a date in the past as 0 and nonsense or absence as undefined', () => {
    expect(retryAfterSeconds({ 'retry-after': ['Thu, 26 Nov 2026 03:00:00 GMT'] }, now)).toBe(0);
    expect(retryAfterSeconds({ 'retry-after': ['soon'] }, now)).toBeUndefined();
    expect(retryAfterSeconds({ 'retry-after': ['-5'] }, now)).toBeUndefined();
    expect(retryAfterSeconds({}, now)).toBeUndefined();
  });

  it('reaches the block through the fixture of a 503 with a date', () => {
    const block = blockOf(observed('generic-503-retry-after-date'), 'rate_limited', null, null);
    expect(block.retryAfterSeconds).toBeTypeOf('number');
  });
});
