import { describe, expect, it } from 'vitest';
import { analyzeDmarc, dmarcEnforced, evaluateDmarc, parseDmarc } from '../../../lambdas/scanner/checks/email/dmarc.js';

const judged = (txt: string[], domain = 'example.com') => {
  const evaluation = evaluateDmarc(domain, txt);
  return { evaluation, findings: analyzeDmarc(evaluation).map((f) => [f.id, f.severity]) };
};

describe('DMARC parsing', () => {
  it('reads every tag and lower-cases tag names', () => {
    const { tags, fatal, warnings } = parseDmarc('v=DMARC1; P=quarantine; sp=reject; pct=50; rua=mailto:a@example.com,mailto:b@example.net!10m; ruf=mailto:f@example.com; adkim=s; aspf=r; t=y; fo=1');
    expect([fatal, warnings]).toEqual([[], []]);
    expect(tags).toEqual({ v: 'DMARC1', p: 'quarantine', sp: 'reject', pct: '50', rua: 'mailto:a@example.com,mailto:b@example.net!10m', ruf: 'mailto:f@example.com', adkim: 's', aspf: 'r', t: 'y', fo: '1' });
  });

  it('treats a bad version or policy as fatal and bad optional tags as warnings', () => {
    expect(parseDmarc('p=reject; v=DMARC1').fatal).toEqual(['The record must start with v=DMARC1']);
    expect(parseDmarc('v=DMARC1; p=block').fatal).toEqual(['p=block is not none, quarantine or reject']);
    expect(parseDmarc('v=DMARC1; rua=mailto:d@example.com').fatal).toEqual(['The record has no p= tag']);
    expect(parseDmarc('v=DMARC1; p=reject; pct=150; adkim=x; rua=https://example.com/r').warnings).toEqual([
      'pct=150 is not a whole number from 0 to 100',
      'adkim=x is not r or s',
      'rua destination "https://example.com/r" is not a mailto: address',
    ]);
  });
});

describe('DMARC analysis', () => {
  it('reports a missing record as medium', () => {
    expect(judged(['v=spf1 -all']).findings).toEqual([['email.dmarc.missing', 'medium']]);
  });

  it('reports p=none as monitoring only (medium), as the range publishes it', () => {
    const { evaluation, findings } = judged(['v=DMARC1; p=none; rua=mailto:dmarc@example.test'], 'example.test');
    expect(findings).toEqual([['email.dmarc.policy-none', 'medium']]);
    expect([evaluation.policy, evaluation.effectivePolicy, dmarcEnforced(evaluation)]).toEqual(['none', 'none', false]);
  });

  it('accepts p=reject with reports and finds nothing', () => {
    const { evaluation, findings } = judged(['v=DMARC1; p=reject; rua=mailto:dmarc@example.com']);
    expect([findings, dmarcEnforced(evaluation)]).toEqual([[], true]);
  });

  it('accepts p=quarantine with reports', () => {
    expect(judged(['v=DMARC1; p=quarantine; rua=mailto:dmarc@example.com']).findings).toEqual([]);
  });

  it('reports pct below 100 as low', () => {
    expect(judged(['v=DMARC1; p=reject; pct=25; rua=mailto:dmarc@example.com']).findings).toEqual([['email.dmarc.partial-pct', 'low']]);
  });

  it('reports a missing rua as low', () => {
    expect(judged(['v=DMARC1; p=reject']).findings).toEqual([['email.dmarc.no-rua', 'low']]);
  });

  it('applies t=y one level weaker: quarantine acts as none, reject as quarantine', () => {
    expect(judged(['v=DMARC1; p=quarantine; t=y; rua=mailto:d@example.com']).findings).toEqual([['email.dmarc.policy-none', 'medium']]);
    const reject = judged(['v=DMARC1; p=reject; t=y; rua=mailto:d@example.com']);
    expect([reject.evaluation.effectivePolicy, reject.findings]).toEqual(['quarantine', [['email.dmarc.testing', 'low']]]);
  });

  it('reports sp=none under an enforcing policy as low', () => {
    expect(judged(['v=DMARC1; p=reject; sp=none; rua=mailto:d@example.com']).findings).toEqual([['email.dmarc.subdomain-policy-none', 'low']]);
  });

  it('reports two records as medium: receivers ignore both', () => {
    expect(judged(['v=DMARC1; p=reject', 'v=DMARC1; p=none']).findings).toEqual([['email.dmarc.multiple-records', 'medium']]);
  });

  it('reports a record without a valid policy as invalid (medium)', () => {
    expect(judged(['v=DMARC1; p=enforce; rua=mailto:d@example.com']).findings).toEqual([['email.dmarc.invalid', 'medium']]);
  });

  it('marks report addresses in another organisation as external, and reports unauthorised ones', () => {
    const evaluation = evaluateDmarc('shop.example.co.uk', ['v=DMARC1; p=reject; rua=mailto:d@reports.example.co.uk,mailto:x@dmarc.vendor.example']);
    expect(evaluation.reporting.map((r) => [r.domain, r.external])).toEqual([
      ['reports.example.co.uk', false],
      ['dmarc.vendor.example', true],
    ]);
    const unauthorised = { ...evaluation, reporting: evaluation.reporting.map((r) => (r.external ? { ...r, authorized: false } : r)) };
    const [finding] = analyzeDmarc(unauthorised);
    expect([finding?.id, finding?.severity, finding?.evidence]).toEqual([
      'email.dmarc.report-unauthorized',
      'low',
      'rua=mailto:x@dmarc.vendor.example: no v=DMARC1 record at shop.example.co.uk._report._dmarc.dmarc.vendor.example',
    ]);
  });

  it('applies the DMARC record beside other TXT records at _dmarc, and reports those as low', () => {
    const { evaluation, findings } = judged(['some-verification=1', 'v=DMARC1; p=reject; rua=mailto:d@example.com']);
    expect([evaluation.effectivePolicy, evaluation.unrelated]).toEqual(['reject', ['some-verification=1']]);
    expect(findings).toEqual([['email.dmarc.unrelated-records', 'low']]);
  });

  it('reads an upper-case V= tag name, but not a record that starts with whitespace', () => {
    expect(judged(['V=DMARC1; p=reject; rua=mailto:d@example.com']).evaluation.effectivePolicy).toBe('reject');
    const indented = judged([' v=DMARC1; p=reject; rua=mailto:d@example.com']);
    expect([indented.evaluation.effectivePolicy, indented.findings]).toEqual([undefined, [['email.dmarc.invalid', 'medium']]]);
    expect(judged(['v=dmarc1; p=reject']).findings).toEqual([['email.dmarc.missing', 'medium']]);
  });

  it('reports bad fo, np and psd values as tag errors', () => {
    expect(parseDmarc('v=DMARC1; p=reject; fo=0:1:d; np=quarantine; psd=n').warnings).toEqual([]);
    expect(parseDmarc('v=DMARC1; p=reject; fo=x; np=invalid; psd=x').warnings).toEqual([
      'fo=x is not a colon-separated list of 0, 1, d and s',
      'np=invalid is not none, quarantine or reject',
      'psd=x is not y, n or u',
    ]);
  });
});
