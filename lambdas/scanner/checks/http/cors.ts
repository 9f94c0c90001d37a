/**
 * Observatory test "cross-origin-resource-sharing": the answer to a CORS preflight sent from a
 * foreign origin. Reflecting that origin while allowing credentials lets any site read what a
 * logged-in visitor sees.
 */
import type { Finding } from '../../../domain/audit.js';
import { findingsFor } from '../../check.js';
import { CATEGORY, header, type Retrieved, type TestOutcome } from './retrieved.js';

export type CorsResult =
  | 'cross-origin-resource-sharing-not-implemented'
  | 'cross-origin-resource-sharing-implemented-with-public-access'
  | 'cross-origin-resource-sharing-implemented-with-restricted-access'
  | 'cross-origin-resource-sharing-implemented-with-universal-access';

export interface CorsOutcome extends TestOutcome<'cross-origin-resource-sharing', CorsResult> {
  /** Access-Control-Allow-Origin as answered (lower case), or null. */
  allowOrigin: string | null;
  allowCredentials: boolean;
}

/** The origin the probe claims in its preflight: one no site has a reason to trust. */
export const CORS_PROBE_ORIGIN = 'https://http-observatory.security.mozilla.org';

/** Runs the CORS test on the preflight's answer. */
export function corsTest(retrieved: Retrieved): CorsOutcome {
  const headers = retrieved.cors?.headers;
  const allowOrigin = header(headers, 'access-control-allow-origin');
  const allowCredentials = header(headers, 'access-control-allow-credentials')?.trim().toLowerCase() === 'true';
  const outcome = (result: CorsResult): CorsOutcome => ({
    name: 'cross-origin-resource-sharing',
    result,
    pass: result !== 'cross-origin-resource-sharing-implemented-with-universal-access',
    allowOrigin: allowOrigin ? allowOrigin.slice(0, 256).trim().toLowerCase() : null,
    allowCredentials,
  });
  if (!retrieved.cors || !allowOrigin) return outcome('cross-origin-resource-sharing-not-implemented');
  if (allowOrigin.slice(0, 256).trim().toLowerCase() === '*') return outcome('cross-origin-resource-sharing-implemented-with-public-access');
  if (allowOrigin === retrieved.cors.origin && allowCredentials) return outcome('cross-origin-resource-sharing-implemented-with-universal-access');
  return outcome('cross-origin-resource-sharing-implemented-with-restricted-access');
}

const finding = findingsFor('http');

/** A finding only for universal access with credentials (the one case the Observatory penalises). */
export function corsFindings(outcome: CorsOutcome, retrieved: Retrieved): Finding[] {
  if (outcome.result !== 'cross-origin-resource-sharing-implemented-with-universal-access') return [];
  return [
    finding({
      id: 'http.cors.universal-with-credentials',
      title: 'Any website can read your pages as your logged-in visitors see them',
      severity: 'high',
      category: CATEGORY,
      evidence: `A preflight from ${retrieved.cors?.origin} was answered with Access-Control-Allow-Origin: ${retrieved.cors?.origin} and Access-Control-Allow-Credentials: true`,
      description:
        'The server copies whatever Origin a request claims into Access-Control-Allow-Origin and allows credentials. A malicious page a visitor opens can then send requests with their cookies and read the answers: account details, orders, messages, tokens.',
      recommendation:
        'Only allow the exact origins you trust (a fixed list, not the request\'s Origin echoed back), and send Access-Control-Allow-Credentials only to those. If the content is public, use Access-Control-Allow-Origin: * without credentials. Rated high: any site on the internet can read logged-in data without another flaw.',
    }),
  ];
}
