import { badgeSvg } from '../use-cases/badges.js';
import { httpHandler, type HandlerFactory } from './http.js';

/**
 * Any site may embed the badge: a cross-origin image (CORP cross-origin, CORS open), cached briefly
 * (CloudFront and browsers: five minutes), and a document that can run nothing (the SVG has no
 * scripts, links or styles; the CSP says so to a browser that opens it directly).
 */
export const BADGE_HEADERS = {
  'content-type': 'image/svg+xml',
  'cache-control': 'public, max-age=300',
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'",
  'access-control-allow-origin': '*',
  'cross-origin-resource-policy': 'cross-origin',
} as const;

/** `GET /badge/{domain}.svg?theme&size&style`: the 'Protected by' badge, or the neutral one. */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => ({
    status: 200,
    text: await badgeSvg(deps, request.path('badgeFile'), request.event.queryStringParameters ?? {}),
    headers: BADGE_HEADERS,
  }));

