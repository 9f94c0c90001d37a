/**
 * Observatory test "referrer-policy": the Referrer-Policy header, or the page's
 * `<meta name="referrer">`, which wins when both are given (the last valid value counts).
 */
import type { Finding } from '../../../domain/audit.js';
import { findingsFor } from '../../check.js';
import { pageMeta } from './html.js';
import { analyzed, CATEGORY, clip, type Retrieved, type TestOutcome } from './retrieved.js';

export type ReferrerPolicyResult =
  | 'referrer-policy-private'
  | 'referrer-policy-unsafe'
  | 'referrer-policy-not-implemented'
  | 'referrer-policy-header-invalid';

export interface ReferrerPolicyOutcome extends TestOutcome<'referrer-policy', ReferrerPolicyResult> {
  /** What the site gave, header values then meta, joined; null when neither. */
  value: string | null;
  /** The policy browsers apply, when one was recognised. */
  policy: string | null;
}

const PRIVATE = ['no-referrer', 'same-origin', 'strict-origin', 'strict-origin-when-cross-origin'];
const UNSAFE = ['origin', 'origin-when-cross-origin', 'unsafe-url', 'no-referrer-when-downgrade'];
const VALID = new Set([...PRIVATE, ...UNSAFE]);

/** Runs the Referrer-Policy test on the analyzed response and its meta tags. */
export function referrerPolicyTest(retrieved: Retrieved): ReferrerPolicyOutcome {
  const response = analyzed(retrieved);
  const given = response ? [...(response.headers['referrer-policy'] ?? []), ...pageMeta(response).referrer] : [];
  if (given.length === 0) {
    return { name: 'referrer-policy', result: 'referrer-policy-not-implemented', pass: true, value: null, policy: null };
  }
  const value = given.join(', ');
  const policy = value.split(',').map((part) => part.trim().toLowerCase()).filter((part) => VALID.has(part)).at(-1) ?? null;
  const result: ReferrerPolicyResult = policy && PRIVATE.includes(policy) ? 'referrer-policy-private' : policy ? 'referrer-policy-unsafe' : 'referrer-policy-header-invalid';
  return { name: 'referrer-policy', result, pass: result === 'referrer-policy-private', value, policy };
}

const finding = findingsFor('http');
const recommendation = (rated: string) =>
  `Send Referrer-Policy: strict-origin-when-cross-origin (or no-referrer / same-origin if other sites never need to know where visitors came from). ${rated}`;

/** Missing, unsafe and unrecognised policies, each on its own id. */
export function referrerPolicyFindings(outcome: ReferrerPolicyOutcome): Finding[] {
  switch (outcome.result) {
    case 'referrer-policy-not-implemented':
      return [
        finding({
          id: 'http.referrer-policy.missing',
          title: 'No Referrer-Policy',
          severity: 'low',
          category: CATEGORY,
          evidence: 'No Referrer-Policy header or referrer meta tag',
          description:
            'Without a Referrer-Policy, the site leaves it to each browser what it tells other sites about the page a visitor came from. Current browsers send only your domain, but older ones and some in-app browsers send the full address, including search terms, order numbers or reset tokens in the URL.',
          recommendation: recommendation('Rated low: current browsers already default to a safe policy; the header makes it true for every visitor.'),
        }),
      ];
    case 'referrer-policy-unsafe':
      return [
        finding({
          id: 'http.referrer-policy.unsafe',
          title: 'Referrer-Policy leaks page addresses to other sites',
          severity: 'low',
          category: CATEGORY,
          evidence: `Referrer-Policy: ${clip(outcome.value ?? '')}`,
          description: `The policy "${outcome.policy}" sends the address of your pages (or your origin over plain HTTP) to the sites your visitors go to next, including any private data in the URL.`,
          recommendation: recommendation('Rated low: it leaks information, it does not give access.'),
        }),
      ];
    case 'referrer-policy-header-invalid':
      return [
        finding({
          id: 'http.referrer-policy.invalid',
          title: 'Referrer-Policy not recognised',
          severity: 'low',
          category: CATEGORY,
          evidence: `Referrer-Policy: ${clip(outcome.value ?? '')}`,
          description: 'Browsers ignore a Referrer-Policy value they do not recognise and fall back to their default.',
          recommendation: recommendation('Rated low: browsers fall back to their own default.'),
        }),
      ];
    default:
      return [];
  }
}
