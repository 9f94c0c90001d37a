/**
 * Observatory test "cookies": every cookie the analyzed session was given (its redirect hops and
 * the page), kept as the Observatory's cookie jar keeps them, judged on Secure, HttpOnly for
 * session cookies and SameSite. robots.txt's cookies do not count: the Observatory asks for it
 * "to gather additional cookies", but its request does not go through the session's jar.
 */
import { getDomain } from 'tldts';
import type { Finding } from '../../../domain/audit.js';
import { findingsFor } from '../../check.js';
import { analyzed, CATEGORY, chain, type Retrieved, type TestOutcome } from './retrieved.js';

export type CookiesResult =
  | 'cookies-secure-with-httponly-sessions-and-samesite'
  | 'cookies-secure-with-httponly-sessions'
  | 'cookies-not-found'
  | 'cookies-without-secure-flag-but-protected-by-hsts'
  | 'cookies-session-without-secure-flag-but-protected-by-hsts'
  | 'cookies-without-secure-flag'
  | 'cookies-samesite-flag-invalid'
  | 'cookies-anticsrf-without-samesite-flag'
  | 'cookies-session-without-httponly-flag'
  | 'cookies-session-without-secure-flag';

export interface Cookie {
  name: string;
  domain: string;
  path: string;
  secure: boolean;
  httpOnly: boolean;
  /** Only the three valid values; anything else (or nothing) is undefined, as browsers read it. */
  sameSite?: 'strict' | 'lax' | 'none';
  /** When the cookie expires; undefined for a cookie that lasts the browser session. */
  expires?: string;
  /**
   * Set already expired: a deletion. Browsers drop it, so the findings leave it out; the
   * Observatory's jar (tough-cookie) keeps it and its test judges it, so the score does too.
   */
  expired?: true;
}

export interface CookiesOutcome extends TestOutcome<'cookies', CookiesResult> {
  cookies: Cookie[];
  /** True when every cookie has a valid SameSite. */
  sameSite: boolean;
  /** Set-Cookie headers whose SameSite value is empty or not Strict/Lax/None. */
  invalidSameSite: string[];
}

/** Worst last, in the Observatory's order (which is not the order of the points). */
const BADNESS: CookiesResult[] = [
  'cookies-without-secure-flag-but-protected-by-hsts',
  'cookies-without-secure-flag',
  'cookies-session-without-secure-flag-but-protected-by-hsts',
  'cookies-samesite-flag-invalid',
  'cookies-anticsrf-without-samesite-flag',
  'cookies-session-without-httponly-flag',
  'cookies-session-without-secure-flag',
];

const worse = (next: CookiesResult, current: CookiesResult | undefined) =>
  current === undefined || BADNESS.indexOf(next) > BADNESS.indexOf(current) ? next : current;

/** A Heroku router cookie that sites cannot change: the Observatory leaves it out. */
const IGNORED = new Set(['heroku-session-affinity']);

/** The Observatory's notion of a session cookie: its name contains "login" or "sess". */
export const isObservatorySessionCookie = (name: string) => ['login', 'sess'].some((part) => name.toLowerCase().includes(part));
const isAntiCsrfCookie = (name: string) => name.toLowerCase().includes('csrf');

/** Runs the cookies test; `hstsPasses` is the HSTS test's verdict (HSTS lessens a missing Secure flag). */
export function cookiesTest(retrieved: Retrieved, hstsPasses: boolean, now = new Date()): CookiesOutcome {
  const response = analyzed(retrieved);
  const invalidSameSite = (response?.headers['set-cookie'] ?? []).filter(hasInvalidSameSite);
  let result: CookiesResult | undefined = invalidSameSite.length > 0 ? 'cookies-samesite-flag-invalid' : undefined;

  const cookies = cookieJar(chain(response).flatMap(({ url, headers }) => (headers['set-cookie'] ?? []).map((text) => ({ url, text }))), now);
  if (cookies.length === 0) {
    return { name: 'cookies', result: 'cookies-not-found', pass: true, cookies, sameSite: false, invalidSameSite };
  }

  let missingSameSite = false;
  for (const cookie of cookies) {
    const session = isObservatorySessionCookie(cookie.name);
    if (!cookie.secure && cookie.sameSite === 'none') result = worse('cookies-samesite-flag-invalid', result);
    if (!cookie.secure) result = worse(hstsPasses ? 'cookies-without-secure-flag-but-protected-by-hsts' : 'cookies-without-secure-flag', result);
    if (isAntiCsrfCookie(cookie.name) && !cookie.sameSite) result = worse('cookies-anticsrf-without-samesite-flag', result);
    if (session && !cookie.secure) {
      result = worse(hstsPasses ? 'cookies-session-without-secure-flag-but-protected-by-hsts' : 'cookies-session-without-secure-flag', result);
    }
    if (session && !cookie.httpOnly) result = worse('cookies-session-without-httponly-flag', result);
    if (!cookie.sameSite) missingSameSite = true;
  }
  result ??= missingSameSite ? 'cookies-secure-with-httponly-sessions' : 'cookies-secure-with-httponly-sessions-and-samesite';
  return {
    name: 'cookies',
    result,
    pass: result === 'cookies-secure-with-httponly-sessions' || result === 'cookies-secure-with-httponly-sessions-and-samesite',
    cookies,
    sameSite: !missingSameSite && result === 'cookies-secure-with-httponly-sessions-and-samesite',
    invalidSameSite,
  };
}

function hasInvalidSameSite(setCookie: string): boolean {
  return setCookie
    .split(';')
    .slice(1)
    .some((part) => {
      const [key = '', value] = part.trim().split('=');
      if (key.trim().toLowerCase() !== 'samesite') return false;
      return !value || !['lax', 'strict', 'none'].includes(value.trim().toLowerCase());
    });
}

interface ParsedSetCookie extends Cookie {
  /** Seconds from Max-Age, which wins over Expires. */
  maxAge?: number;
  /** The Domain attribute, as given (without a leading dot); undefined for a host-only cookie. */
  domainAttribute?: string;
  pathAttribute?: string;
}

/** Reads one Set-Cookie header (RFC 6265); undefined when it has no name=value pair. */
export function parseSetCookie(text: string): Omit<ParsedSetCookie, 'domain' | 'path'> | undefined {
  const [pair = '', ...attributes] = text.split(';');
  const eq = pair.indexOf('=');
  if (eq <= 0) return undefined;
  const name = pair.slice(0, eq).trim();
  if (!name) return undefined;
  const cookie: Omit<ParsedSetCookie, 'domain' | 'path'> = { name, secure: false, httpOnly: false };
  for (const attribute of attributes) {
    const at = attribute.indexOf('=');
    const key = (at === -1 ? attribute : attribute.slice(0, at)).trim().toLowerCase();
    const value = at === -1 ? '' : attribute.slice(at + 1).trim();
    switch (key) {
      case 'secure':
        cookie.secure = true;
        break;
      case 'httponly':
        cookie.httpOnly = true;
        break;
      case 'samesite': {
        const lower = value.toLowerCase();
        cookie.sameSite = lower === 'strict' || lower === 'lax' || lower === 'none' ? lower : undefined;
        break;
      }
      case 'domain':
        if (value) cookie.domainAttribute = value.replace(/^\./, '').toLowerCase();
        break;
      case 'path':
        if (value.startsWith('/')) cookie.pathAttribute = value;
        break;
      case 'max-age':
        if (/^-?\d+$/.test(value)) cookie.maxAge = Number(value);
        break;
      case 'expires': {
        const time = Date.parse(value);
        if (!Number.isNaN(time)) cookie.expires = new Date(time).toISOString();
        break;
      }
      default:
        break;
    }
  }
  return cookie;
}

/**
 * The cookies after these Set-Cookie headers, in order, as the Observatory's jar (tough-cookie,
 * RFC 6265 with the cookie prefixes) keeps them: a Domain that is a public suffix (private ones,
 * like github.io, included) or that the response's host is not in is refused; a `__Secure-` cookie
 * needs Secure, a `__Host-` one Secure, no Domain and the path /; a later cookie replaces one of
 * the same name, domain and path; a cookie set already expired is kept, marked `expired`.
 */
export function cookieJar(setCookies: readonly { url: string; text: string }[], now: Date): Cookie[] {
  const jar = new Map<string, Cookie>();
  for (const { url, text } of setCookies) {
    const parsed = parseSetCookie(text);
    if (!parsed || IGNORED.has(parsed.name)) continue;
    const requestUrl = new URL(url);
    const host = requestUrl.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    const domain = parsed.domainAttribute ?? host;
    if (parsed.domainAttribute) {
      if (!isIPv6(domain) && getDomain(domain, { allowPrivateDomains: true }) === null) continue;
      if (host !== domain && (isIP(host) || !host.endsWith(`.${domain}`))) continue;
    }
    const path = parsed.pathAttribute ?? defaultPath(requestUrl.pathname);
    if (parsed.name.startsWith('__Secure-') && !parsed.secure) continue;
    if (parsed.name.startsWith('__Host-') && !(parsed.secure && !parsed.domainAttribute && path === '/')) continue;
    const key = `${parsed.name}\u0000${domain}\u0000${path}`;
    const expiresAt = parsed.maxAge !== undefined ? now.getTime() + parsed.maxAge * 1000 : parsed.expires ? Date.parse(parsed.expires) : undefined;
    const { maxAge: _maxAge, domainAttribute: _domain, pathAttribute: _path, expires: _expires, ...rest } = parsed;
    jar.set(key, {
      ...rest,
      domain,
      path,
      ...(expiresAt !== undefined ? { expires: new Date(Math.min(Math.max(expiresAt, -8.64e15), 8.64e15)).toISOString() } : {}),
      ...(expiresAt !== undefined && expiresAt <= now.getTime() ? { expired: true as const } : {}),
    });
  }
  return [...jar.values()];
}

const isIPv6 = (name: string) => name.includes(':');
const isIP = (name: string) => isIPv6(name) || /^\d+\.\d+\.\d+\.\d+$/.test(name);

function defaultPath(pathname: string): string {
  if (!pathname.startsWith('/') || pathname.lastIndexOf('/') === 0) return '/';
  return pathname.slice(0, pathname.lastIndexOf('/'));
}

/**
 * Session cookies for the findings: the Observatory's names ("sess", "login") plus common ones it
 * misses (WordPress' wordpress_logged_in_*, connect.sid, auth cookies), so a site owner is told
 * about the cookie that really keeps them logged in. The score keeps the Observatory's rule.
 */
export function looksLikeSessionCookie(name: string): boolean {
  const lower = name.toLowerCase();
  return isObservatorySessionCookie(lower) || lower.includes('logged_in') || /(^|[._-])sid$/.test(lower) || /^(auth|__secure-auth|__host-auth)/.test(lower);
}

const finding = findingsFor('http');
const names = (cookies: readonly Cookie[]) => cookies.map((c) => c.name).join(', ');

/** Findings per kind of problem, naming the cookies, so one fix closes one finding. */
export function cookiesFindings(outcome: CookiesOutcome, hstsPasses: boolean): Finding[] {
  const findings: Finding[] = [];
  // A cookie set already expired is a deletion: no browser keeps it, so it is no one's problem.
  const kept = outcome.cookies.filter((c) => !c.expired);
  const sessions = kept.filter((c) => looksLikeSessionCookie(c.name));
  const others = kept.filter((c) => !looksLikeSessionCookie(c.name));

  const sessionInsecure = sessions.filter((c) => !c.secure);
  if (sessionInsecure.length > 0) {
    findings.push(
      finding({
        id: 'http.cookies.session-without-secure',
        title: 'Login or session cookie can travel over plain HTTP',
        severity: hstsPasses ? 'low' : 'medium',
        category: CATEGORY,
        evidence: `Without the Secure flag: ${names(sessionInsecure)}${hstsPasses ? ' (HSTS keeps returning browsers on HTTPS)' : ''}`,
        description:
          'A cookie that keeps visitors logged in is sent without the Secure flag, so a browser also sends it over unencrypted HTTP, where anyone on the same network can copy it and take over the session.',
        recommendation: `Add the Secure flag to session cookies (in PHP: session.cookie_secure = 1; most frameworks have a "secure cookies" setting) and serve the whole site over HTTPS. Rated ${
          hstsPasses ? 'low because HSTS already keeps browsers that know the site on HTTPS' : 'medium: a stolen session cookie is a logged-in account'
        }.`,
      }),
    );
  }
  const sessionScriptable = sessions.filter((c) => !c.httpOnly);
  if (sessionScriptable.length > 0) {
    findings.push(
      finding({
        id: 'http.cookies.session-without-httponly',
        title: 'Login or session cookie is readable by scripts',
        severity: 'medium',
        category: CATEGORY,
        evidence: `Without the HttpOnly flag: ${names(sessionScriptable)}`,
        description:
          'A session cookie without HttpOnly can be read by JavaScript, so any script injected into a page (cross-site scripting, a compromised plugin or ad) can steal it and log in as your visitor.',
        recommendation:
          'Add the HttpOnly flag to session and login cookies (in PHP: session.cookie_httponly = 1). Rated medium: it turns any script injection into account takeover.',
      }),
    );
  }
  const otherInsecure = others.filter((c) => !c.secure);
  if (otherInsecure.length > 0) {
    findings.push(
      finding({
        id: 'http.cookies.without-secure',
        title: 'Cookies without the Secure flag',
        severity: 'low',
        category: CATEGORY,
        evidence: `Without the Secure flag: ${names(otherInsecure)}`,
        description: 'These cookies may be sent over unencrypted HTTP, where they can be read or changed on the way.',
        recommendation: 'Set the Secure flag on every cookie and serve the site over HTTPS only. Rated low: these cookies do not look like login cookies.',
      }),
    );
  }
  const sameSiteNoneInsecure = kept.filter((c) => c.sameSite === 'none' && !c.secure).map((c) => c.name);
  if (outcome.invalidSameSite.length > 0 || sameSiteNoneInsecure.length > 0) {
    const invalid = outcome.invalidSameSite.map((text) => text.split('=')[0]!.trim());
    findings.push(
      finding({
        id: 'http.cookies.samesite-invalid',
        title: 'Cookies with an invalid SameSite setting',
        severity: 'low',
        category: CATEGORY,
        evidence: [
          invalid.length > 0 ? `SameSite not Strict, Lax or None: ${[...new Set(invalid)].join(', ')}` : '',
          sameSiteNoneInsecure.length > 0 ? `SameSite=None without Secure (browsers reject it): ${sameSiteNoneInsecure.join(', ')}` : '',
        ]
          .filter(Boolean)
          .join('; '),
        description: 'Browsers ignore a SameSite value they do not recognise, and reject SameSite=None cookies that are not Secure, so these cookies do not behave as intended.',
        recommendation: 'Use SameSite=Lax (or Strict) for your own cookies; use SameSite=None only together with Secure for cookies that must work across sites. Rated low: a configuration slip, rarely exploitable alone.',
      }),
    );
  }
  const csrf = kept.filter((c) => isAntiCsrfCookie(c.name) && !c.sameSite);
  if (csrf.length > 0) {
    findings.push(
      finding({
        id: 'http.cookies.anticsrf-without-samesite',
        title: 'Anti-CSRF cookie without SameSite',
        severity: 'low',
        category: CATEGORY,
        evidence: `Without SameSite: ${names(csrf)}`,
        description: 'The cookie that protects forms against cross-site request forgery is sent on requests from other sites too, weakening that protection.',
        recommendation: 'Set SameSite=Lax or SameSite=Strict on the anti-CSRF cookie. Rated low: the token still protects forms; SameSite adds a second layer.',
      }),
    );
  }
  const noSameSite = kept.filter((c) => !c.sameSite && !(isAntiCsrfCookie(c.name)));
  if (noSameSite.length > 0) {
    findings.push(
      finding({
        id: 'http.cookies.without-samesite',
        title: 'Cookies without SameSite',
        severity: 'info',
        category: CATEGORY,
        evidence: `Without SameSite: ${names(noSameSite)}`,
        description: 'Current browsers treat cookies without SameSite as SameSite=Lax, but older ones send them on cross-site requests.',
        recommendation: 'Set SameSite=Lax (or Strict) explicitly on every cookie. For information: browsers already default to Lax.',
      }),
    );
  }
  return findings;
}
