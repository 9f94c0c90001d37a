/**
 * checkdmarc's record-level DMARC cases (../shared/conformance/dmarc) through the scanner's DMARC
 * evaluation and analysis: the TXT records found at _dmarc.<domain> go to evaluateDmarc, and
 * analyzeDmarc's findings give the scanner's verdict.
 *
 * "invalid" means checkdmarc raises an error for the record set; the scanner agrees when it raises
 * one of its record-error findings (no usable record, an invalid record, several records, tag
 * errors, or other TXT records beside the DMARC record). "valid" and "valid-with-warning" both mean the record is usable: checkdmarc's warnings
 * are advice (no rua, sp=none), like the scanner's own low findings, and its "valid" cases carry
 * the same advice (v=DMARC1;p=ReJect has no rua either), so the data does not separate the two.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyzeDmarc, evaluateDmarc } from '../../../lambdas/scanner/checks/email/dmarc.js';
import { conformanceFolder } from './conformance-data.js';

interface DmarcCase {
  test: string;
  txt: string[];
  domain: string;
  checkdmarc: string;
  verdict: 'valid' | 'invalid' | 'valid-with-warning';
  basis: 'RFC 7489 and RFC 9989' | 'RFC 9989 only';
}
type Verdict = 'usable' | 'invalid';

const RECORD_ERRORS = new Set(['email.dmarc.missing', 'email.dmarc.invalid', 'email.dmarc.multiple-records', 'email.dmarc.syntax', 'email.dmarc.unrelated-records']);

/**
 * RFC 9989-only cases are the scanner's decision: where it follows RFC 7489 rather than DMARCbis,
 * the reason is written here. The test fails when a decided case starts to agree (the decision is
 * stale) or changes its answer.
 */
const PCT_DECISION = {
  ours: 'invalid',
  reason:
    'RFC 9989 only: DMARCbis removed pct, so checkdmarc no longer validates it; receivers that implement RFC 7489 still read pct, and an invalid value is a tag error they replace with the default 100. The scanner keeps reporting it (low, "tag errors"): the owner meant something receivers will not do.',
} as const;
const DECISIONS: Record<string, { ours: Verdict; reason: string }> = {
  'testRFC9989MissingPTagWarning: ["v=DMARC1; rua=mailto:dmarc@example.com"]': {
    ours: 'invalid',
    reason:
      'RFC 9989 only: DMARCbis reads a record without p as p=none; RFC 7489 §6.3 makes p required, and its receivers treat such a record as p=none at best (§6.6.3). Nothing is enforced either way, so the scanner keeps its medium "invalid record" finding, which tells the owner to add p=.',
  },
  'testDMARCPctRemovedNotValidated pct=150: ["v=DMARC1; p=reject; pct=150"]': PCT_DECISION,
  'testDMARCPctRemovedNotValidated pct=-1: ["v=DMARC1; p=reject; pct=-1"]': PCT_DECISION,
  'testDMARCPctRemovedNotValidated pct=abc: ["v=DMARC1; p=reject; pct=abc"]': PCT_DECISION,
};

const folder = conformanceFolder('dmarc', 'checkdmarc DMARC cases');
const cases: DmarcCase[] = folder ? (JSON.parse(readFileSync(join(folder, 'checkdmarc-record-cases.json'), 'utf8')) as DmarcCase[]) : [];
const key = (c: DmarcCase) => `${c.test}: ${JSON.stringify(c.txt)}`;

const tally = { both: 0, bothAgree: 0, bisOnly: 0, bisOnlyAgree: 0 };

describe.skipIf(!folder)('checkdmarc record cases through the DMARC analysis', () => {
  afterAll(() => {
    console.log(
      `checkdmarc DMARC: RFC 7489 and RFC 9989 cases ${tally.bothAgree}/${tally.both} agree; RFC 9989-only cases ${tally.bisOnlyAgree}/${tally.bisOnly} agree (${Object.keys(DECISIONS).length} written decisions)`,
    );
  });

  it.each(cases.map((c) => [key(c), c] as const))('%s', (_name, test) => {
    // Act
    const findings = analyzeDmarc(evaluateDmarc(test.domain, test.txt));
    const ours: Verdict = findings.some((f) => RECORD_ERRORS.has(f.id)) ? 'invalid' : 'usable';

    // Assess
    const expected: Verdict = test.verdict === 'invalid' ? 'invalid' : 'usable';
    const agrees = ours === expected;
    if (test.basis === 'RFC 9989 only') {
      tally.bisOnly++;
      if (agrees) tally.bisOnlyAgree++;
    } else {
      tally.both++;
      if (agrees) tally.bothAgree++;
    }
    const decision = DECISIONS[key(test)];
    if (decision) {
      expect(test.basis, 'only RFC 9989-only cases may be decided differently').toBe('RFC 9989 only');
      expect(agrees, `${key(test)} now agrees: remove its decision`).toBe(false);
      expect(ours, decision.reason).toBe(decision.ours);
    } else {
      expect(ours, `${test.checkdmarc}; findings: ${JSON.stringify(findings.map((f) => [f.id, f.evidence]))}`).toBe(expected);
    }
  });
});
