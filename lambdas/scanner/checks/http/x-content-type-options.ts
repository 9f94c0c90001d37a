/** Observatory test "x-content-type-options": `nosniff`, so browsers do not guess content types. */
import type { Finding } from '../../../domain/audit.js';
import { findingsFor } from '../../check.js';
import { analyzed, CATEGORY, clip, header, type Retrieved, type TestOutcome } from './retrieved.js';

export type XContentTypeOptionsResult =
  | 'x-content-type-options-nosniff'
  | 'x-content-type-options-not-implemented'
  | 'x-content-type-options-header-invalid';

export interface XContentTypeOptionsOutcome extends TestOutcome<'x-content-type-options', XContentTypeOptionsResult> {
  value: string | null;
}

/** Runs the X-Content-Type-Options test on the analyzed response. */
export function xContentTypeOptionsTest(retrieved: Retrieved): XContentTypeOptionsOutcome {
  const response = analyzed(retrieved);
  const value = response ? header(response.headers, 'x-content-type-options')?.slice(0, 256) : undefined;
  const result: XContentTypeOptionsResult = !value
    ? 'x-content-type-options-not-implemented'
    : value.trim().toLowerCase() === 'nosniff'
      ? 'x-content-type-options-nosniff'
      : 'x-content-type-options-header-invalid';
  return { name: 'x-content-type-options', result, pass: result === 'x-content-type-options-nosniff', value: value ?? null };
}

const finding = findingsFor('http');

/** A missing or unrecognised header. */
export function xContentTypeOptionsFindings(outcome: XContentTypeOptionsOutcome): Finding[] {
  if (outcome.pass) return [];
  const missing = outcome.result === 'x-content-type-options-not-implemented';
  return [
    finding({
      id: missing ? 'http.xcto.missing' : 'http.xcto.invalid',
      title: missing ? 'No X-Content-Type-Options header' : 'X-Content-Type-Options not recognised',
      severity: 'low',
      category: CATEGORY,
      evidence: missing ? 'No X-Content-Type-Options header' : `X-Content-Type-Options: ${clip(outcome.value ?? '')}`,
      description:
        'Without X-Content-Type-Options: nosniff, browsers may guess that an uploaded file or a text response is a script or a page and run it. Sites that accept uploads (images, documents) are the ones at risk.',
      recommendation:
        'Send X-Content-Type-Options: nosniff on every response (one line in the web server configuration, e.g. `add_header X-Content-Type-Options nosniff always;` in nginx). Rated low: it needs an upload or injection to abuse.',
    }),
  ];
}
