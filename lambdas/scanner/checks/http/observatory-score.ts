/**
 * The MDN HTTP Observatory's points, in one table (its src/grader/charts.js), and its grading:
 * baseline 100; penalties always count; bonuses count only when 100 + penalties ≥ 90; never below
 * 0; the grade comes from the score rounded down to a multiple of 5 (100 and above is A+).
 * The table is the Observatory's current algorithm, ahead of its last npm release (1.4.8,
 * algorithm 4): X-Frame-Options DENY/SAMEORIGIN earns +5 as frame-ancestors does (algorithm 5,
 * mdn/mdn-http-observatory#332), and COOP and COEP (algorithm 6, #498) earn +10 for their
 * protective values, −5 when unreadable, as CORP does. test/unit/conformance/observatory-differential
 * compares the rest with the released package.
 */
import type { CookiesResult } from './cookies.js';
import type { CorsResult } from './cors.js';
import type { CoepResult, CoopResult, CorpResult } from './cross-origin.js';
import type { CspResult } from './csp.js';
import type { HstsResult } from './hsts.js';
import type { RedirectionResult } from './redirection.js';
import type { ReferrerPolicyResult } from './referrer-policy.js';
import type { TestOutcome } from './retrieved.js';
import type { SriResult } from './sri.js';
import type { XContentTypeOptionsResult } from './x-content-type-options.js';
import type { XFrameOptionsResult } from './x-frame-options.js';

export type ObservatoryResult =
  | CspResult
  | CookiesResult
  | CorsResult
  | RedirectionResult
  | ReferrerPolicyResult
  | HstsResult
  | SriResult
  | XContentTypeOptionsResult
  | XFrameOptionsResult
  | CorpResult
  | CoepResult
  | CoopResult;

export const SCORE_TABLE: Readonly<Record<ObservatoryResult, number>> = {
  // Content Security Policy
  'csp-implemented-with-no-unsafe-default-src-none': 10,
  'csp-implemented-with-no-unsafe': 5,
  'csp-implemented-with-unsafe-inline-in-style-src-only': 0,
  'csp-implemented-but-duplicate-directives': 0,
  'csp-implemented-with-insecure-scheme-in-passive-content-only': -10,
  'csp-implemented-with-unsafe-eval': -10,
  'csp-implemented-with-unsafe-inline': -20,
  'csp-implemented-with-insecure-scheme': -20,
  'csp-header-invalid': -25,
  'csp-not-implemented': -25,
  'csp-not-implemented-but-reporting-enabled': -25,
  // Cookies
  'cookies-secure-with-httponly-sessions-and-samesite': 5,
  'cookies-secure-with-httponly-sessions': 0,
  'cookies-not-found': 0,
  'cookies-without-secure-flag-but-protected-by-hsts': -5,
  'cookies-session-without-secure-flag-but-protected-by-hsts': -10,
  'cookies-without-secure-flag': -20,
  'cookies-samesite-flag-invalid': -20,
  'cookies-anticsrf-without-samesite-flag': -20,
  'cookies-session-without-httponly-flag': -30,
  'cookies-session-without-secure-flag': -40,
  // Cross-origin resource sharing
  'cross-origin-resource-sharing-not-implemented': 0,
  'cross-origin-resource-sharing-implemented-with-public-access': 0,
  'cross-origin-resource-sharing-implemented-with-restricted-access': 0,
  'cross-origin-resource-sharing-implemented-with-universal-access': -50,
  // Redirection
  'redirection-all-redirects-preloaded': 0,
  'redirection-to-https': 0,
  'redirection-not-needed-no-http': 0,
  'redirection-off-host-from-http': -5,
  'redirection-not-to-https-on-initial-redirection': -10,
  'redirection-not-to-https': -20,
  'redirection-missing': -20,
  'redirection-invalid-cert': -20,
  // Referrer-Policy
  'referrer-policy-private': 5,
  'referrer-policy-not-implemented': 0,
  'referrer-policy-unsafe': -5,
  'referrer-policy-header-invalid': -5,
  // Strict-Transport-Security
  'hsts-preloaded': 5,
  'hsts-implemented-max-age-at-least-six-months': 0,
  'hsts-implemented-max-age-less-than-six-months': -10,
  'hsts-not-implemented': -20,
  'hsts-header-invalid': -20,
  'hsts-not-implemented-no-https': -20,
  'hsts-invalid-cert': -20,
  // Subresource Integrity
  'sri-implemented-and-all-scripts-loaded-securely': 5,
  'sri-implemented-and-external-scripts-loaded-securely': 5,
  'sri-not-implemented-response-not-html': 0,
  'sri-not-implemented-but-no-scripts-loaded': 0,
  'sri-not-implemented-but-all-scripts-loaded-from-secure-origin': 0,
  'sri-not-implemented-but-external-scripts-loaded-securely': -5,
  'sri-implemented-but-external-scripts-not-loaded-securely': -20,
  'sri-not-implemented-and-external-scripts-not-loaded-securely': -50,
  // X-Content-Type-Options
  'x-content-type-options-nosniff': 0,
  'x-content-type-options-not-implemented': -5,
  'x-content-type-options-header-invalid': -5,
  // X-Frame-Options
  'x-frame-options-implemented-via-csp': 5,
  'x-frame-options-sameorigin-or-deny': 5,
  'x-frame-options-allow-from-origin': 0,
  'x-frame-options-not-implemented': -20,
  'x-frame-options-header-invalid': -20,
  // Cross-Origin-Resource-Policy
  'corp-implemented-with-same-origin': 10,
  'corp-implemented-with-same-site': 10,
  'corp-implemented-with-cross-origin': 0,
  'corp-not-implemented': 0,
  'corp-header-invalid': -5,
  // Cross-Origin-Embedder-Policy
  'coep-implemented-with-require-corp': 10,
  'coep-implemented-with-credentialless': 10,
  'coep-implemented-with-unsafe-none': 0,
  'coep-not-implemented': 0,
  'coep-header-invalid': -5,
  // Cross-Origin-Opener-Policy
  'coop-implemented-with-same-origin': 10,
  'coop-implemented-with-same-origin-allow-popups': 10,
  'coop-implemented-with-noopener-allow-popups': 10,
  'coop-implemented-with-unsafe-none': 0,
  'coop-not-implemented': 0,
  'coop-header-invalid': -5,
};

export type ObservatoryGrade = 'A+' | 'A' | 'A-' | 'B+' | 'B' | 'B-' | 'C+' | 'C' | 'C-' | 'D+' | 'D' | 'D-' | 'F';

/** Lowest score (a multiple of 5) for each grade, best first. */
const GRADES: readonly [number, ObservatoryGrade][] = [
  [100, 'A+'], [90, 'A'], [85, 'A-'], [80, 'B+'], [70, 'B'], [65, 'B-'], [60, 'C+'], [50, 'C'], [45, 'C-'], [40, 'D+'], [30, 'D'], [25, 'D-'], [0, 'F'],
];

/** Bonuses count only when the score without them is at least this (an A already). */
export const MINIMUM_SCORE_FOR_EXTRA_CREDIT = 90;

export interface ScoredTest {
  name: string;
  result: ObservatoryResult;
  modifier: number;
  pass: boolean;
}

export interface ObservatoryScore {
  score: number;
  grade: ObservatoryGrade;
  tests: ScoredTest[];
  testsPassed: number;
  testsFailed: number;
}

/** The Observatory's letter for a score. */
export function observatoryGrade(score: number): ObservatoryGrade {
  const rounded = Math.min(Math.max(score, 0) - (Math.max(score, 0) % 5), 100);
  return GRADES.find(([floor]) => rounded >= floor)![1];
}

/** Scores the tests' outcomes with the table. */
export function observatoryScore(outcomes: readonly TestOutcome<string, ObservatoryResult>[]): ObservatoryScore {
  const tests = outcomes.map(({ name, result, pass }) => ({ name, result, modifier: SCORE_TABLE[result], pass }));
  const withBonuses = 100 + tests.reduce((sum, test) => sum + test.modifier, 0);
  const penaltiesOnly = 100 + tests.reduce((sum, test) => sum + Math.min(test.modifier, 0), 0);
  const score = Math.max(penaltiesOnly >= MINIMUM_SCORE_FOR_EXTRA_CREDIT ? withBonuses : penaltiesOnly, 0);
  const testsPassed = tests.filter((test) => test.pass).length;
  return { score, grade: observatoryGrade(score), tests, testsPassed, testsFailed: tests.length - testsPassed };
}
