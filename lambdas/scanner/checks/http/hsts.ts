/**
 * Observatory test "strict-transport-security": the HSTS header of the HTTPS response. It counts
 * in the Observatory score, but its findings belong to the TLS check, so this file has none.
 * The HSTS preload list is not consulted (the scanner works offline): "hsts-preloaded" is never
 * given, so a preloaded site without its own header scores lower here than on the Observatory.
 */
import { header, type Retrieved, type TestOutcome } from './retrieved.js';

export type HstsResult =
  | 'hsts-preloaded'
  | 'hsts-implemented-max-age-at-least-six-months'
  | 'hsts-implemented-max-age-less-than-six-months'
  | 'hsts-not-implemented'
  | 'hsts-header-invalid'
  | 'hsts-not-implemented-no-https'
  | 'hsts-invalid-cert';

export interface HstsOutcome extends TestOutcome<'strict-transport-security', HstsResult> {
  header: string | null;
  maxAge: number | null;
  includeSubDomains: boolean;
  preload: boolean;
}

/** 15768000 s is six months; many sites use 15552000 (180 days), which the Observatory accepts too. */
export const SIX_MONTHS_SECONDS = 15_552_000;

/** Runs the HSTS test on the HTTPS response (redirects followed). */
export function hstsTest(retrieved: Retrieved): HstsOutcome {
  const outcome = (result: HstsResult, rest: Partial<HstsOutcome> = {}): HstsOutcome => ({
    name: 'strict-transport-security',
    result,
    pass: result === 'hsts-implemented-max-age-at-least-six-months' || result === 'hsts-preloaded',
    header: null,
    maxAge: null,
    includeSubDomains: false,
    preload: false,
    ...rest,
  });
  const response = retrieved.https;
  if (!response) return outcome('hsts-not-implemented-no-https');
  // Browsers ignore HSTS from a site whose certificate they do not trust.
  if (response.certificateTrusted === false) return outcome('hsts-invalid-cert');
  const value = header(response.headers, 'strict-transport-security')?.slice(0, 1024);
  if (value === undefined) return outcome('hsts-not-implemented');

  let maxAge: number | null = null;
  let includeSubDomains = false;
  let preload = false;
  for (const directive of value.split(';').map((part) => part.trim().toLowerCase())) {
    if (directive.startsWith('max-age=')) maxAge = parseMaxAge(directive.slice('max-age='.length, 128));
    else if (directive === 'includesubdomains') includeSubDomains = true;
    else if (directive === 'preload') preload = true;
  }
  // A comma means the header was sent more than once, which browsers treat as invalid.
  if (value.includes(',') || maxAge === null) return outcome('hsts-header-invalid', { header: value, includeSubDomains, preload });
  return outcome(maxAge < SIX_MONTHS_SECONDS ? 'hsts-implemented-max-age-less-than-six-months' : 'hsts-implemented-max-age-at-least-six-months', {
    header: value,
    maxAge,
    includeSubDomains,
    preload,
  });
}

/**
 * Seconds of max-age, quoted or not; null when it is not a number. (The Observatory's parseInt
 * takes "max-age=abc" as six months or more; browsers ignore such a header, so we call it invalid.)
 */
function parseMaxAge(text: string): number | null {
  const match = /^"?(\d+)"?$/.exec(text.trim());
  return match ? Number(match[1]) : null;
}
