import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../../lambdas/domain/audit.js';
import { coverageOf, notCheckedOf } from '../../lambdas/domain/coverage.js';
import { rescanTarget } from '../../lambdas/domain/rescan-target.js';
import { checksRunInFull, landingLoaded, landingOf, siteOf } from '../../lambdas/domain/scan-site.js';

/**
 * DECISIONS "Rescan target" (issue 27 item 3): where a rescan goes, whether a scan saw the site's
 * landing page, and which site it saw. The http check data below has the shape analyzeHttp stores
 * (lambdas/scanner/checks/http.check.ts), the first one as a scan of an http-only loopback site
 * asked for https:// stored it (EPROTO on https, 200 on http).
 */

type Session = { url: string; status: number; redirects?: { url: string; status: number; location?: string }[] } | { error: { code?: string; message: string } } | null;

/** The http check as analyzeHttp stores it: the page analyzed (`url`), its status, and each scheme's session. */
function httpCheck(sessions: { https: Session; http: Session }, status: CheckResult['status'] = 'ok'): CheckResult {
  const analyzed = sessions.https && 'url' in sessions.https ? 'https' : 'http';
  const page = sessions[analyzed] as { url: string; status: number };
  const withHeaders = (s: Session) => (s && 'url' in s ? { ...s, headers: {}, redirects: s.redirects ?? [] } : s);
  return {
    name: 'http',
    status,
    findings: [],
    data: { url: page.url, analyzed, observatory: { graded: true, url: page.url, statusCode: page.status }, responses: { https: withHeaders(sessions.https), http: withHeaders(sessions.http) } },
  };
}

const EPROTO = { error: { code: 'EPROTO', message: 'write EPROTO …:SSL routines:ssl3_get_record:wrong version number' } };
const REFUSED = { error: { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.157:443' } };
const ok = (name: string): CheckResult => ({ name, status: 'ok', findings: [] });

/** An http-only site on a port of its own, as the scan of `https://shop.example.test:8081/` stored it. */
const httpOnly = httpCheck({ https: EPROTO, http: { url: 'http://shop.example.test:8081/', status: 200 } });

describe('rescanTarget: the site the last completed scan reached', () => {
  it('is https://{domain}/ without an earlier scan', () => {
    expect(rescanTarget('shop.example.test')).toBe('https://shop.example.test/');
  });

  it('stays http for an http-only site, with its port, though the earlier scan was asked for https', () => {
    expect(rescanTarget('shop.example.test', { checks: [httpOnly, ok('software')] })).toBe('http://shop.example.test:8081/');
  });

  it('follows the redirects to the host the site lives on (www.), at the site root', () => {
    const redirected = httpCheck({
      https: { url: 'https://www.shop.example.test/en/home', status: 200, redirects: [{ url: 'https://shop.example.test/', status: 301, location: 'https://www.shop.example.test/en/home' }] },
      http: { url: 'https://www.shop.example.test/en/home', status: 200, redirects: [{ url: 'http://shop.example.test/', status: 301, location: 'https://shop.example.test/' }] },
    });
    expect(rescanTarget('shop.example.test', { checks: [redirected] })).toBe('https://www.shop.example.test/');
  });

  it('keeps the customer’s own host when the site redirects to another registrable domain (a hosted shop)', () => {
    const away = httpCheck({
      https: {
        url: 'https://acme.shops.example.net/',
        status: 200,
        redirects: [
          { url: 'http://acme.example.com/', status: 301, location: 'http://www.acme.example.com/' },
          { url: 'http://www.acme.example.com/', status: 302, location: 'https://acme.shops.example.net/' },
        ],
      },
      http: null,
    });
    expect(rescanTarget('acme.example.com', { checks: [away] })).toBe('http://www.acme.example.com/');
  });

  it('falls back to https://{domain}/ when no hop of the chain is on the customer’s domain', () => {
    const elsewhere = httpCheck({ https: { url: 'https://parked.example.net/', status: 200, redirects: [] }, http: null });
    expect(rescanTarget('acme.example.com', { checks: [elsewhere] })).toBe('https://acme.example.com/');
  });

  it('never crosses a public suffix: one github.io site redirecting to another keeps its own', () => {
    const other = httpCheck({
      https: { url: 'https://someone-else.github.io/', status: 200, redirects: [{ url: 'https://mine.github.io/', status: 301, location: 'https://someone-else.github.io/' }] },
      http: null,
    });
    expect(rescanTarget('mine.github.io', { checks: [other] })).toBe('https://mine.github.io/');
  });

  it('falls back to https://{domain}/ when the earlier landing page did not load (5xx, blocked, neither scheme answered)', () => {
    const down = httpCheck({ https: REFUSED, http: { url: 'http://shop.example.test/', status: 503 } });
    const blocked: CheckResult = { name: 'http', status: 'skipped', cause: 'blocked', reason: 'Cloudflare answered a challenge', findings: [] };
    const error: CheckResult = { name: 'http', status: 'error', reason: 'The site answered neither over HTTPS nor over HTTP', findings: [] };
    for (const checks of [[down], [blocked], [error], []]) expect(rescanTarget('shop.example.test', { checks })).toBe('https://shop.example.test/');
  });
});

describe('landing page and site of a scan', () => {
  it('loaded: the http check finished and its page answered 2xx or 3xx', () => {
    expect(landingOf([httpOnly])).toEqual({ loaded: true, url: 'http://shop.example.test:8081/', status: 200 });
    expect(landingLoaded([httpCheck({ https: { url: 'https://x.example.test/', status: 304 }, http: null })])).toBe(true);
  });

  it('not loaded: 401/403 (a wall, DECISIONS "Blocked is a result"), 404, 5xx, a skipped, failed or missing http check', () => {
    for (const status of [401, 403, 404, 500, 503]) {
      expect(landingOf([httpCheck({ https: { url: 'https://x.example.test/', status }, http: null })])).toMatchObject({ loaded: false, status, reason: `it answered ${status}` });
    }
    expect(landingOf([{ name: 'http', status: 'skipped', cause: 'rate_limited', reason: '429 twice', findings: [] }])).toEqual({ loaded: false, reason: 'the site limited our requests: 429 twice' });
    expect(landingOf([{ name: 'http', status: 'skipped', cause: 'blocked', findings: [] }])).toEqual({ loaded: false, reason: 'the site blocked the scanner' });
    expect(landingLoaded([{ name: 'http', status: 'error', findings: [] }])).toBe(false);
    expect(landingLoaded([ok('dns')])).toBe(false);
    // An http check stored without the page it read says nothing about it.
    expect(landingLoaded([ok('http')])).toBe(false);
  });

  it('the site is the scheme asked for and the origin reached: https:// that ended on http:// is not the scan of http://', () => {
    expect(siteOf({ targetUrl: 'https://shop.example.test:8081/', checks: [httpOnly] })).toBe('https http://shop.example.test:8081');
    expect(siteOf({ targetUrl: 'http://shop.example.test:8081/', checks: [httpOnly] })).toBe('http http://shop.example.test:8081');
    expect(siteOf({ checks: [httpOnly] })).toBe('http http://shop.example.test:8081');
    expect(siteOf({ targetUrl: 'https://x.example.test/', checks: [httpCheck({ https: { url: 'https://x.example.test/', status: 503 }, http: null })] })).toBeUndefined();
  });
});

describe('checksRunInFull: the one rule for fixes', () => {
  const scan = (targetUrl: string, http: CheckResult, ...others: CheckResult[]) => ({ targetUrl, checks: [http, ...others] });
  const loadedHttps = httpCheck({ https: { url: 'https://shop.example.test/', status: 200 }, http: { url: 'https://shop.example.test/', status: 200 } });

  it('is every finished, unlimited check of a scan that loaded its landing page', () => {
    const limited: CheckResult = { name: 'exposure', status: 'ok', findings: [], data: { notChecked: [{ part: '/.git/config', cause: 'rate_limited', reason: 'It answered 429.' }] } };
    const failed: CheckResult = { name: 'ports', status: 'timeout', findings: [] };
    expect([...checksRunInFull(scan('https://shop.example.test/', loadedHttps, ok('software'), ok('dns'), limited, failed))].sort()).toEqual(['dns', 'http', 'software']);
  });

  it('is empty for a scan whose landing page did not load: it fixes nothing, not even the port scan', () => {
    const down = httpCheck({ https: REFUSED, http: { url: 'http://shop.example.test/', status: 502 } });
    expect(checksRunInFull(scan('https://shop.example.test/', down, ok('ports'), ok('dns'), ok('software')))).toEqual(new Set());
  });

  it('compared with another site, leaves out the page checks (http, software, wordpress, exposure, tls) and keeps the rest', () => {
    const names = ['software', 'wordpress', 'exposure', 'tls', 'ports', 'dns', 'email'];
    const current = scan('https://shop.example.test:8081/', httpOnly, ...names.map(ok));
    const sameSite = siteOf({ targetUrl: 'https://shop.example.test:8081/', checks: [httpOnly] })!;
    const httpSite = siteOf({ targetUrl: 'http://shop.example.test:8081/', checks: [httpOnly] })!;
    expect([...checksRunInFull(current, { sameSiteAs: sameSite })].sort()).toEqual(['dns', 'email', 'exposure', 'http', 'ports', 'software', 'tls', 'wordpress']);
    expect([...checksRunInFull(current, { sameSiteAs: httpSite })].sort()).toEqual(['dns', 'email', 'ports']);
    expect([...checksRunInFull(current, { sameSiteAs: null })].sort()).toEqual(['dns', 'email', 'ports']);
  });
});

describe('coverage: a scan whose landing page did not load is never a full scan', () => {
  it('lists the http check as not checked, with why, when it finished on a page that did not load', () => {
    const notFound = httpCheck({ https: { url: 'https://shop.example.test/', status: 404 }, http: null });
    const coverage = coverageOf({ mode: 'active', checks: [notFound, ok('dns'), ok('software')] });
    expect(coverage.partial).toBe(true);
    expect(coverage.notChecked).toEqual([{ check: 'http', title: 'HTTP security headers', cause: 'error', reason: "The site's landing page did not load (it answered 404)." }]);
  });

  it('adds nothing when the page loaded, nor a second item when the http check itself did not finish', () => {
    expect(coverageOf({ mode: 'active', checks: [httpOnly, ok('dns')] })).toMatchObject({ partial: false, notChecked: [] });
    const failed: CheckResult = { name: 'http', status: 'error', reason: 'The site answered neither over HTTPS nor over HTTP', findings: [] };
    expect(notCheckedOf([failed], 'active')).toEqual([{ check: 'http', title: 'HTTP security headers', cause: 'error', reason: 'The site answered neither over HTTPS nor over HTTP' }]);
  });
});
