/**
 * Observatory test "strict-transport-security": the HSTS header of the HTTPS response. It counts
 * in the Observatory score, but its findings belong to the TLS check, so this file has none.
 * A site on the browsers' HSTS preload list (the knowledge base's copy of Chromium's) gets
 * "hsts-preloaded" whatever its header says, as on the Observatory: browsers use HTTPS for it anyway.
 */
import { NOT_PRELOADED, type PreloadEntry, type PreloadLookup } from '../../hsts-preload.js';
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
  /** The header's preload directive (a request to be listed, not a listing). */
  preload: boolean;
  /** The preload list's entry covering the scanned host, or null when it is not listed. */
  preloaded: PreloadEntry | null;
}

/** 15768000 s is six months; many sites use 15552000 (180 days), which the Observatory accepts too. */
export const SIX_MONTHS_SECONDS = 15_552_000;

/**
 * Runs the HSTS test on the HTTPS response (redirects followed); `preloaded` looks the scanned host
 * up on the preload list. The Observatory lets the list override any answer over HTTPS (even an
 * untrusted certificate), taking include_subdomains from the list.
 */
export function hstsTest(retrieved: Retrieved, preloaded: PreloadLookup = NOT_PRELOADED): HstsOutcome {
  const response = retrieved.https;
  const listed = response ? preloaded(retrieved.host) : null;
  const outcome = (result: HstsResult, rest: Partial<HstsOutcome> = {}): HstsOutcome => {
    const final = listed ? 'hsts-preloaded' : result;
    return {
      name: 'strict-transport-security',
      result: final,
      pass: final === 'hsts-implemented-max-age-at-least-six-months' || final === 'hsts-preloaded',
      header: null,
      maxAge: null,
      includeSubDomains: false,
      preload: false,
      ...rest,
      ...(listed ? { includeSubDomains: listed.includeSubDomains } : {}),
      preloaded: listed,
    };
  };
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
