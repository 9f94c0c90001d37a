import { describe, expect, it } from 'vitest';
import { cookieJar, cookiesFindings, cookiesTest, parseSetCookie } from '../../../lambdas/scanner/checks/http/cookies.js';
import { SCORE_TABLE } from '../../../lambdas/scanner/checks/http/observatory-score.js';
import { page, site } from './http-support.js';

const now = new Date('2026-01-12T12:00:00Z');
const withCookies = (cookies: string[], hsts = false) => cookiesTest(site(page({ 'set-cookie': cookies })), hsts, now);
const judged = (cookies: string[], hsts = false) => {
  const outcome = withCookies(cookies, hsts);
  return [outcome.result, outcome.pass, SCORE_TABLE[outcome.result]];
};

describe('Set-Cookie parsing and the jar', () => {
  it('reads flags, SameSite and lifetime', () => {
    expect(parseSetCookie('SID=31d4; Path=/; Domain=.Example.com; Secure; HttpOnly; SameSite=Lax; Max-Age=3600')).toEqual({
      name: 'SID', secure: true, httpOnly: true, sameSite: 'lax', domainAttribute: 'example.com', pathAttribute: '/', maxAge: 3600,
    });
    expect(parseSetCookie('theme=dark; SameSite=Sometimes')?.sameSite).toBeUndefined();
    expect(parseSetCookie('no-equals-sign; Secure')).toBeUndefined();
  });

  it('keeps the last of the same name, keeps a deletion marked expired, and refuses foreign and public-suffix domains', () => {
    const jar = cookieJar(
      [
        { url: 'https://shop.example/', text: 'a=1' },
        { url: 'https://shop.example/', text: 'a=2; Secure' },
        { url: 'https://shop.example/', text: 'gone=1' },
        { url: 'https://shop.example/', text: 'gone=; Expires=Thu, 01 Jan 1970 00:00:00 GMT' },
        { url: 'https://shop.example/', text: 'evil=1; Domain=bank.example' },
        { url: 'https://shop.example/', text: 'tld=1; Domain=example' },
        { url: 'https://www.shop.example/', text: 'parent=1; Domain=shop.example' },
        { url: 'https://shop.example/', text: 'heroku-session-affinity=x' },
        // github.io is a public suffix of the list's private section: the Observatory's jar refuses it too.
        { url: 'https://me.github.io/', text: 'pages=1; Domain=github.io' },
      ],
      now,
    );

    expect(jar.map((c) => [c.name, c.domain, c.secure, c.expired ?? false])).toEqual([
      ['a', 'shop.example', true, false],
      ['gone', 'shop.example', false, true],
      ['parent', 'shop.example', false, false],
    ]);
  });

  it('refuses cookies that break their prefix: __Secure- without Secure, __Host- without Secure, with a Domain or off path /', () => {
    const jar = cookieJar(
      [
        { url: 'https://shop.example/', text: '__Secure-a=1' },
        { url: 'https://shop.example/', text: '__Secure-b=1; Secure' },
        { url: 'https://shop.example/', text: '__Host-c=1; Path=/' },
        { url: 'https://shop.example/', text: '__Host-d=1; Secure; Domain=shop.example; Path=/' },
        { url: 'https://shop.example/', text: '__Host-e=1; Secure; Path=/app' },
        { url: 'https://shop.example/account', text: '__Host-f=1; Secure' },
      ],
      now,
    );

    expect(jar.map((c) => c.name)).toEqual(['__Secure-b', '__Host-f']);
  });
});

describe('cookies test', () => {
  it('passes with no cookies at all', () => {
    expect(judged([])).toEqual(['cookies-not-found', true, 0]);
  });

  it('gives +5 when every cookie is Secure, sessions are HttpOnly and all have SameSite', () => {
    expect(judged(['SESSIONID=1; Secure; HttpOnly; SameSite=Strict', 'pref=1; Secure; SameSite=Lax'])).toEqual([
      'cookies-secure-with-httponly-sessions-and-samesite', true, 5,
    ]);
  });

  it('passes without a bonus when a cookie lacks SameSite', () => {
    expect(judged(['SESSIONID=1; Secure; HttpOnly', 'pref=1; Secure; SameSite=Lax'])).toEqual(['cookies-secure-with-httponly-sessions', true, 0]);
  });

  it.each([
    [['pref=1'], false, 'cookies-without-secure-flag', -20],
    [['pref=1'], true, 'cookies-without-secure-flag-but-protected-by-hsts', -5],
    [['SESSIONID=1; HttpOnly'], true, 'cookies-session-without-secure-flag-but-protected-by-hsts', -10],
    [['SESSIONID=1; HttpOnly'], false, 'cookies-session-without-secure-flag', -40],
    [['SESSIONID=1; Secure'], false, 'cookies-session-without-httponly-flag', -30],
    [['user_login=1; Secure'], false, 'cookies-session-without-httponly-flag', -30],
    [['CSRFTOKEN=1; Secure; HttpOnly'], false, 'cookies-anticsrf-without-samesite-flag', -20],
    [['SESSIONID=1; Secure; HttpOnly; SameSite='], false, 'cookies-samesite-flag-invalid', -20],
    [['SESSIONID=1; Secure; HttpOnly; SameSite=True'], false, 'cookies-samesite-flag-invalid', -20],
  ] as const)('judges %j (HSTS %s) as %s', (cookies, hsts, result, modifier) => {
    expect(judged([...cookies], hsts)).toEqual([result, false, modifier]);
  });

  it('keeps the worst result in the Observatory order, which is not the order of the points', () => {
    // The session cookie without HttpOnly (-30) ranks above a plain cookie without Secure (-20) …
    expect(withCookies(['SESSIONID=1; Secure', 'pref=1']).result).toBe('cookies-session-without-httponly-flag');
    // … but a plain cookie without Secure ranks below a session cookie protected by HSTS (-10 beats -5, not -20).
    expect(withCookies(['SESSIONID=1; HttpOnly', 'pref=1'], true).result).toBe('cookies-session-without-secure-flag-but-protected-by-hsts');
  });

  it("collects cookies from the analyzed session's redirect hops, not from robots.txt (the Observatory's jar never sees those)", () => {
    const https = page({}, { redirects: [{ url: 'https://shop.example/old', status: 301, headers: { 'set-cookie': ['SESSIONID=1; Secure'] } }] });
    const robots = page({ 'set-cookie': 'tracker=1' }, { url: 'https://shop.example/robots.txt' });

    const outcome = cookiesTest(site(https, { robots }), false, now);

    expect(outcome.cookies.map((c) => c.name)).toEqual(['SESSIONID']);
    expect(outcome.result).toBe('cookies-session-without-httponly-flag');
  });

  it('judges a cookie set already expired, as the Observatory does, but raises no finding for it', () => {
    const outcome = withCookies(['SESSIONID=; Max-Age=0']);

    expect([outcome.result, outcome.cookies[0]?.expired]).toEqual(['cookies-session-without-secure-flag', true]);
    expect(cookiesFindings(outcome, false)).toEqual([]);
  });
});

describe('cookie findings', () => {
  it('names the cookies per kind of problem, with a session cookie over HTTP as medium', () => {
    const outcome = withCookies(['PHPSESSID=1; path=/', 'wordpress_logged_in_ab=1; Secure', 'lang=en', 'csrftoken=1; Secure; SameSite=Bogus']);

    const findings = cookiesFindings(outcome, false);

    expect(findings.map((f) => [f.id, f.severity, f.evidence])).toEqual([
      ['http.cookies.session-without-secure', 'medium', 'Without the Secure flag: PHPSESSID'],
      ['http.cookies.session-without-httponly', 'medium', 'Without the HttpOnly flag: PHPSESSID, wordpress_logged_in_ab'],
      ['http.cookies.without-secure', 'low', 'Without the Secure flag: lang'],
      ['http.cookies.samesite-invalid', 'low', 'SameSite not Strict, Lax or None: csrftoken'],
      ['http.cookies.anticsrf-without-samesite', 'low', 'Without SameSite: csrftoken'],
      ['http.cookies.without-samesite', 'info', 'Without SameSite: PHPSESSID, wordpress_logged_in_ab, lang'],
    ]);
  });

  it('lowers a session cookie without Secure to low when HSTS protects it', () => {
    const findings = cookiesFindings(withCookies(['PHPSESSID=1; HttpOnly; SameSite=Lax'], true), true);

    expect(findings.map((f) => [f.id, f.severity])).toEqual([['http.cookies.session-without-secure', 'low']]);
  });

  it('flags SameSite=None without Secure', () => {
    const findings = cookiesFindings(withCookies(['embed=1; SameSite=None']), false);

    expect(findings.find((f) => f.id === 'http.cookies.samesite-invalid')?.evidence).toBe('SameSite=None without Secure (browsers reject it): embed');
  });

  it('reports nothing for well-set cookies', () => {
    expect(cookiesFindings(withCookies(['__Host-sid=1; Path=/; Secure; HttpOnly; SameSite=Lax']), true)).toEqual([]);
  });
});
