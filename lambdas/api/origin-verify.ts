import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * The header CloudFront adds to every request it sends to the API origin (lib/site/site.ts), whose
 * value only CloudFront and the API functions know: a request to the `execute-api` address without
 * it did not come through the site (its headers, caching, TLS policy).
 */
export const ORIGIN_VERIFY_HEADER = 'x-origin-verify';

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/**
 * Whether the presented header value is the expected secret, in constant time: both sides are
 * hashed first, so neither the comparison nor its length check says how much of a guess was right.
 */
export function isOriginVerified(expected: string, presented: string | undefined): boolean {
  if (presented === undefined) return false;
  return timingSafeEqual(digest(expected), digest(presented));
}
