/**
 * The security headers the site is served with: CloudFront's response-headers policy on AWS and
 * the local server in `npm start` both read this one table, so both score the same.
 */

/** The site's CSP with the given connect-src sources. */
const siteCsp = (connectSources: string): string =>
  [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src ${connectSources}`,
    "frame-ancestors 'none'",
    "form-action 'self'",
    "base-uri 'none'",
    "object-src 'none'",
  ].join('; ');

// The browser talks to the API (same origin) and to Cognito (its own origin on AWS).
export const SITE_CSP = siteCsp("'self' https://*.amazonaws.com");

export const HSTS_MAX_AGE_SECONDS = 63_072_000; // two years, the preload list's minimum is one

export const siteSecurityHeaders: Readonly<Record<string, string>> = {
  'content-security-policy': SITE_CSP,
  'strict-transport-security': `max-age=${HSTS_MAX_AGE_SECONDS}; includeSubDomains; preload`,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=(self)',
};

/**
 * The Wazuh tester (SPEC §7) calls the user's own Wazuh manager straight from the browser, at an
 * address only the user knows: that page alone may connect to any https origin. CloudFront gives
 * these paths their own response-headers policy; the local server serves them the local variant.
 */
export const WAZUH_TEST_PAGE_PATHS = ['/wazuh-test', '/wazuh-test/'] as const;

export const wazuhTestSecurityHeaders: Readonly<Record<string, string>> = {
  ...siteSecurityHeaders,
  'content-security-policy': siteCsp("'self' https:"),
};

/** `npm start` only: a manager on this machine (and the tests' stand-in) answers over loopback http. */
export const localWazuhTestSecurityHeaders: Readonly<Record<string, string>> = {
  ...siteSecurityHeaders,
  'content-security-policy': siteCsp("'self' https: http://127.0.0.1:* http://localhost:*"),
};

/** The headers a page is served with on `npm start` (the same table CloudFront uses, per path). */
export const localPageSecurityHeaders = (path: string): Readonly<Record<string, string>> =>
  (WAZUH_TEST_PAGE_PATHS as readonly string[]).includes(path) ? localWazuhTestSecurityHeaders : siteSecurityHeaders;
