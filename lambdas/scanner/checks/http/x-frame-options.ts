/**
 * Observatory test "x-frame-options": whether other sites may show the page in a frame
 * (clickjacking). CSP frame-ancestors replaces X-Frame-Options and earns the bonus.
 */
import type { Finding } from '../../../domain/audit.js';
import { findingsFor } from '../../check.js';
import type { CspOutcome } from './csp.js';
import { analyzed, CATEGORY, clip, header, type Retrieved, type TestOutcome } from './retrieved.js';

export type XFrameOptionsResult =
  | 'x-frame-options-implemented-via-csp'
  | 'x-frame-options-sameorigin-or-deny'
  | 'x-frame-options-allow-from-origin'
  | 'x-frame-options-not-implemented'
  | 'x-frame-options-header-invalid';

export interface XFrameOptionsOutcome extends TestOutcome<'x-frame-options', XFrameOptionsResult> {
  value: string | null;
}

/** Runs the X-Frame-Options test; a CSP frame-ancestors (from `csp`) takes its place. */
export function xFrameOptionsTest(retrieved: Retrieved, csp: CspOutcome): XFrameOptionsOutcome {
  const response = analyzed(retrieved);
  const value = response ? header(response.headers, 'x-frame-options')?.slice(0, 1024) : undefined;
  let result: XFrameOptionsResult = 'x-frame-options-not-implemented';
  if (value) {
    const xfo = value.trim().toLowerCase();
    result = xfo === 'deny' || xfo === 'sameorigin' ? 'x-frame-options-sameorigin-or-deny' : xfo.startsWith('allow-from') ? 'x-frame-options-allow-from-origin' : 'x-frame-options-header-invalid';
  }
  if (response && csp.directives?.['frame-ancestors']) result = 'x-frame-options-implemented-via-csp';
  const pass = result !== 'x-frame-options-not-implemented' && result !== 'x-frame-options-header-invalid';
  return { name: 'x-frame-options', result, pass, value: value ?? null };
}

const finding = findingsFor('http');

/** Framing allowed (missing or unrecognised protection). */
export function xFrameOptionsFindings(outcome: XFrameOptionsOutcome): Finding[] {
  if (outcome.pass) return [];
  const missing = outcome.result === 'x-frame-options-not-implemented';
  return [
    finding({
      id: missing ? 'http.xfo.missing' : 'http.xfo.invalid',
      title: missing ? 'Pages can be framed by other sites (clickjacking)' : 'X-Frame-Options not recognised',
      severity: 'medium',
      category: CATEGORY,
      evidence: missing ? 'No X-Frame-Options header and no CSP frame-ancestors' : `X-Frame-Options: ${clip(outcome.value ?? '')}`,
      description:
        'Another site can load your pages in an invisible frame and trick visitors into clicking buttons on them: confirming an order, changing a setting, or logging into an admin panel while they think they are clicking something else.',
      recommendation:
        "Send Content-Security-Policy: frame-ancestors 'self' (or 'none'), and X-Frame-Options: SAMEORIGIN for older browsers. Rated medium: it needs no flaw in your code, only a logged-in visitor lured to the attacker's page.",
    }),
  ];
}
