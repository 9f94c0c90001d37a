/**
 * Observatory tests "cross-origin-resource-policy", "cross-origin-embedder-policy" and
 * "cross-origin-opener-policy": the isolation headers that keep other sites' pages from reading
 * or reaching into this one (Spectre-style leaks, window.opener tricks).
 */
import type { Finding } from '../../../domain/audit.js';
import { findingsFor } from '../../check.js';
import { analyzed, CATEGORY, clip, header, type Retrieved, type TestOutcome } from './retrieved.js';

export type CorpResult =
  | 'corp-not-implemented'
  | 'corp-implemented-with-same-origin'
  | 'corp-implemented-with-same-site'
  | 'corp-implemented-with-cross-origin'
  | 'corp-header-invalid';

export type CoepResult =
  | 'coep-not-implemented'
  | 'coep-implemented-with-require-corp'
  | 'coep-implemented-with-credentialless'
  | 'coep-implemented-with-unsafe-none'
  | 'coep-header-invalid';

export type CoopResult =
  | 'coop-not-implemented'
  | 'coop-implemented-with-same-origin'
  | 'coop-implemented-with-same-origin-allow-popups'
  | 'coop-implemented-with-noopener-allow-popups'
  | 'coop-implemented-with-unsafe-none'
  | 'coop-header-invalid';

export interface CrossOriginOutcome<Name extends string, Result extends string> extends TestOutcome<Name, Result> {
  value: string | null;
}

export type CorpOutcome = CrossOriginOutcome<'cross-origin-resource-policy', CorpResult>;
export type CoepOutcome = CrossOriginOutcome<'cross-origin-embedder-policy', CoepResult>;
export type CoopOutcome = CrossOriginOutcome<'cross-origin-opener-policy', CoopResult>;

/** Runs the Cross-Origin-Resource-Policy test. */
export function corpTest(retrieved: Retrieved): CorpOutcome {
  const response = analyzed(retrieved);
  const value = response ? header(response.headers, 'cross-origin-resource-policy')?.slice(0, 256).trim().toLowerCase() : undefined;
  const result: CorpResult = !value
    ? 'corp-not-implemented'
    : value === 'same-origin'
      ? 'corp-implemented-with-same-origin'
      : value === 'same-site'
        ? 'corp-implemented-with-same-site'
        : value === 'cross-origin'
          ? 'corp-implemented-with-cross-origin'
          : 'corp-header-invalid';
  return { name: 'cross-origin-resource-policy', result, pass: result !== 'corp-header-invalid', value: value ?? null };
}

/** Runs the Cross-Origin-Embedder-Policy test. */
export function coepTest(retrieved: Retrieved): CoepOutcome {
  const { value, token } = structuredToken(retrieved, 'cross-origin-embedder-policy');
  const known: Record<string, CoepResult> = {
    'require-corp': 'coep-implemented-with-require-corp',
    credentialless: 'coep-implemented-with-credentialless',
    'unsafe-none': 'coep-implemented-with-unsafe-none',
  };
  const result: CoepResult = value === null ? 'coep-not-implemented' : (token && known[token]) || 'coep-header-invalid';
  return { name: 'cross-origin-embedder-policy', result, pass: result !== 'coep-header-invalid', value };
}

/** Runs the Cross-Origin-Opener-Policy test. */
export function coopTest(retrieved: Retrieved): CoopOutcome {
  const { value, token } = structuredToken(retrieved, 'cross-origin-opener-policy');
  const known: Record<string, CoopResult> = {
    'same-origin': 'coop-implemented-with-same-origin',
    'same-origin-allow-popups': 'coop-implemented-with-same-origin-allow-popups',
    'noopener-allow-popups': 'coop-implemented-with-noopener-allow-popups',
    'unsafe-none': 'coop-implemented-with-unsafe-none',
  };
  const result: CoopResult = value === null ? 'coop-not-implemented' : (token && known[token]) || 'coop-header-invalid';
  return { name: 'cross-origin-opener-policy', result, pass: result !== 'coop-header-invalid', value };
}

/** The header (null when absent) and its policy token, read as browsers do: an RFC 8941 item whose value is a token. */
function structuredToken(retrieved: Retrieved, name: string): { value: string | null; token: string | null } {
  const response = analyzed(retrieved);
  const raw = response ? header(response.headers, name) : undefined;
  if (raw === undefined || raw === '') return { value: null, token: null };
  const value = raw.slice(0, 1024).trim();
  return { value, token: parseStructuredToken(value) };
}

const TOKEN = /^[A-Za-z*][!#$%&'*+\-.^_`|~0-9A-Za-z:/]*/;
const KEY = /^[a-z*][a-z0-9_\-.*]*/;

/**
 * The bare item of an RFC 8941 structured-field item when it is a token (parameters such as
 * report-to are allowed and ignored); null when the value is not a valid item or not a token.
 */
export function parseStructuredToken(value: string): string | null {
  let rest = value.replace(/^ +| +$/g, '');
  const token = TOKEN.exec(rest)?.[0];
  if (!token) return null;
  rest = rest.slice(token.length);
  while (rest.length > 0) {
    if (rest[0] !== ';') return null;
    rest = rest.slice(1).replace(/^ +/, '');
    const key = KEY.exec(rest)?.[0];
    if (!key) return null;
    rest = rest.slice(key.length);
    if (rest[0] === '=') {
      rest = rest.slice(1);
      const bare = /^(?:"(?:[^"\\]|\\["\\])*"|-?\d+(?:\.\d+)?|[A-Za-z*][!#$%&'*+\-.^_`|~0-9A-Za-z:/]*|\?[01]|:[A-Za-z0-9+/=]*:)/.exec(rest)?.[0];
      if (bare === undefined) return null;
      rest = rest.slice(bare.length);
    }
  }
  return token;
}

const finding = findingsFor('http');

/** Only unreadable values: these headers are optional hardening, so their absence is no finding. */
export function crossOriginFindings(corp: CorpOutcome, coep: CoepOutcome, coop: CoopOutcome): Finding[] {
  const invalid = [
    { outcome: corp, id: 'http.corp.invalid', header: 'Cross-Origin-Resource-Policy', valid: 'same-origin, same-site or cross-origin' },
    { outcome: coep, id: 'http.coep.invalid', header: 'Cross-Origin-Embedder-Policy', valid: 'require-corp, credentialless or unsafe-none' },
    { outcome: coop, id: 'http.coop.invalid', header: 'Cross-Origin-Opener-Policy', valid: 'same-origin, same-origin-allow-popups, noopener-allow-popups or unsafe-none' },
  ].filter(({ outcome }) => !outcome.pass);
  return invalid.map(({ outcome, id, header: name, valid }) =>
    finding({
      id,
      title: `${name} not recognised`,
      severity: 'low',
      category: CATEGORY,
      evidence: `${name}: ${clip(outcome.value ?? '')}`,
      description: `Browsers ignore a ${name} value they do not recognise, so the isolation you meant to set up is not in place.`,
      recommendation: `Use one of the valid values (${valid}); same-origin is the safest where nothing else needs to embed or open your pages. Rated low: these headers are a defence in depth.`,
    }),
  );
}
