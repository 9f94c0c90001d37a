import { isIP } from 'node:net';
import type { ApiRequest } from './http.js';

/**
 * The visitor's address, for per-address limits. Behind CloudFront, API Gateway's `sourceIp` is the
 * edge server's address (every visitor of one edge location would share one limit), so CloudFront's
 * `CloudFront-Viewer-Address` ("ip:port", IPv6 without brackets) is preferred when it holds a valid
 * address. A caller reaching API Gateway directly could forge that header; closing that door (an
 * origin secret CloudFront adds and the API checks) is the stack's job, see README "Free scans".
 * The full address is returned (leads store it); the limits count it by its /64 for IPv6
 * (`sourceSubject` in use-cases/rate-limits.ts, applied by `enforceLimits` to every `…:ip` scope).
 */
export function clientAddress(request: Pick<ApiRequest, 'header' | 'sourceIp'>): string {
  const viewer = request.header('cloudfront-viewer-address')?.trim();
  if (viewer) {
    const ip = viewer.replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
    if (isIP(ip)) return ip;
  }
  return request.sourceIp;
}
