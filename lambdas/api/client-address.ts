import { isIP } from 'node:net';
import type { ApiRequest } from './http.js';

/**
 * The visitor's address, for per-address limits. Behind CloudFront, API Gateway's `sourceIp` is the
 * edge server's address (every visitor of one edge location would share one limit), so CloudFront's
 * `CloudFront-Viewer-Address` ("ip:port", IPv6 without brackets) is preferred when it holds a valid
 * address. A caller reaching API Gateway directly could forge that header; closing that door (an
 * origin secret CloudFront adds and the API checks) is the stack's job, see README "Free scans".
 */
export function clientAddress(request: Pick<ApiRequest, 'header' | 'sourceIp'>): string {
  const viewer = request.header('cloudfront-viewer-address')?.trim();
  if (viewer) {
    const ip = viewer.replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
    if (isIP(ip)) return ip;
  }
  return request.sourceIp;
}
