/**
 * The security headers the site is served with: CloudFront's response-headers policy on AWS and
 * the local server in `npm start` both read this one table, so both score the same.
 */
export const SITE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  // The browser talks to the API (same origin) and to Cognito (its own origin on AWS).
  "connect-src 'self' https://*.amazonaws.com",
  "frame-ancestors 'none'",
  "form-action 'self'",
  "base-uri 'none'",
  "object-src 'none'",
].join('; ');

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
