import { describe, expect, it } from 'vitest';
import { cspFindings, cspTest, parseCsp } from '../../../lambdas/scanner/checks/http/csp.js';
import { SCORE_TABLE } from '../../../lambdas/scanner/checks/http/observatory-score.js';
import { page, site } from './http-support.js';

const withCsp = (policy: string | string[], extra: Record<string, string | string[]> = {}) => cspTest(site(page({ 'content-security-policy': policy, ...extra })));

describe('CSP parsing', () => {
  it('reads directives case-insensitively, lower-cases sources and treats an empty source list as none', () => {
    const { directives } = parseCsp(["Default-Src 'SELF' https://CDN.example; img-src; report-uri /csp"]);

    expect(Object.fromEntries([...directives].map(([d, s]) => [d, [...s]]))).toEqual({
      'default-src': ["'self'", 'https://cdn.example'],
      'img-src': ["'none'"],
      'report-uri': ['/csp'],
    });
  });

  it('rejects a directive given twice, but only notes a repeated report-uri', () => {
    expect(() => parseCsp(["script-src 'self'; script-src 'none'"])).toThrow(/Duplicate directive script-src/);
    expect([...parseCsp(["default-src 'self'; report-uri /a; report-uri /b"]).duplicates]).toEqual(['report-uri']);
  });

  it('rejects an empty or too short policy', () => {
    expect(() => parseCsp([''])).toThrow();
    expect(() => parseCsp(['a b'])).toThrow();
  });

  it('keeps only what every policy allows when several are enforced', () => {
    const { directives } = parseCsp(["default-src 'self' https://a.example", "default-src 'self'"]);

    expect([...directives.get('default-src')!]).toEqual(["'self'"]);
  });
});

describe('CSP test', () => {
  it("gives the top bonus to default-src 'none'", () => {
    const outcome = withCsp("default-src 'none'; script-src 'self'; form-action 'self'");

    expect([outcome.result, outcome.pass, SCORE_TABLE[outcome.result]]).toEqual(['csp-implemented-with-no-unsafe-default-src-none', true, 10]);
    expect(outcome.policy?.defaultNone).toBe(true);
  });

  it('gives +5 to a policy without unsafe sources', () => {
    const outcome = withCsp("default-src 'self'");

    expect([outcome.result, SCORE_TABLE[outcome.result]]).toEqual(['csp-implemented-with-no-unsafe', 5]);
  });

  it.each([
    ["default-src 'self'; script-src 'self' 'unsafe-inline'", "script-src: 'unsafe-inline'"],
    ["default-src 'self'; script-src 'self' data:", 'script-src: data:'],
    ["default-src 'self'; script-src https:", 'script-src: https:'],
    ["default-src 'self'; object-src *", 'object-src: *'],
    ["img-src 'self'", 'script-src (unrestricted: no script-src or default-src): *'],
  ])('penalises %s by 20 as unsafe-inline', (policy, evidence) => {
    const outcome = withCsp(policy);

    expect([outcome.result, outcome.pass, SCORE_TABLE[outcome.result]]).toEqual(['csp-implemented-with-unsafe-inline', false, -20]);
    expect(outcome.offenders.unsafeInline).toContain(evidence);
  });

  it("ignores 'unsafe-inline' next to a nonce, as browsers do", () => {
    const outcome = withCsp("default-src 'self'; script-src 'nonce-abc123' 'unsafe-inline'");

    expect(outcome.result).toBe('csp-implemented-with-no-unsafe');
    expect(outcome.directives?.['script-src']).toEqual(["'nonce-abc123'"]);
  });

  it("drops host sources under 'strict-dynamic' with a nonce, and calls it invalid without one", () => {
    const strict = withCsp("default-src 'self'; object-src 'none'; script-src 'nonce-r4nd0m' 'strict-dynamic' https: 'unsafe-inline'");
    const broken = withCsp("default-src 'self'; script-src 'self' 'strict-dynamic'");

    expect([strict.result, strict.policy?.strictDynamic]).toEqual(['csp-implemented-with-no-unsafe', true]);
    expect(strict.directives?.['script-src']).toEqual(["'nonce-r4nd0m'", "'strict-dynamic'"]);
    expect([broken.result, broken.pass, SCORE_TABLE[broken.result]]).toEqual(['csp-header-invalid', false, -25]);
  });

  it("penalises 'unsafe-eval' by 10", () => {
    const outcome = withCsp("default-src 'self'; script-src 'self' 'unsafe-eval'");

    expect([outcome.result, SCORE_TABLE[outcome.result]]).toEqual(['csp-implemented-with-unsafe-eval', -10]);
  });

  it('penalises http: sources on an HTTPS site: active content by 20, images only by 10', () => {
    const active = withCsp("default-src 'self'; script-src 'self' http://cdn.example");
    const passive = withCsp("default-src 'self'; img-src 'self' http://images.example");

    expect([active.result, SCORE_TABLE[active.result]]).toEqual(['csp-implemented-with-insecure-scheme', -20]);
    expect([passive.result, passive.pass, SCORE_TABLE[passive.result]]).toEqual(['csp-implemented-with-insecure-scheme-in-passive-content-only', true, -10]);
  });

  it("lets 'unsafe-inline' in style-src pass without a bonus", () => {
    const outcome = withCsp("default-src 'self'; style-src 'self' 'unsafe-inline'");

    expect([outcome.result, outcome.pass, SCORE_TABLE[outcome.result]]).toEqual(['csp-implemented-with-unsafe-inline-in-style-src-only', true, 0]);
  });

  it('takes away the bonus of a good policy with a repeated report-uri', () => {
    const outcome = withCsp("default-src 'self'; report-uri /a; report-uri /b");

    expect([outcome.result, outcome.pass, SCORE_TABLE[outcome.result]]).toEqual(['csp-implemented-but-duplicate-directives', true, 0]);
  });

  it('penalises a missing policy, an unreadable one and a report-only one by 25', () => {
    const missing = cspTest(site(page({})));
    const invalid = withCsp("script-src 'self'; script-src 'none'");
    const reportOnly = cspTest(site(page({ 'content-security-policy-report-only': "default-src 'none'" })));

    expect([missing.result, invalid.result, reportOnly.result]).toEqual(['csp-not-implemented', 'csp-header-invalid', 'csp-not-implemented-but-reporting-enabled']);
    expect([missing, invalid, reportOnly].map((o) => SCORE_TABLE[o.result])).toEqual([-25, -25, -25]);
  });

  it('splits comma-joined and repeated headers into separate policies', () => {
    const outcome = withCsp(["default-src 'self' https://a.example", "default-src 'self'"]);

    expect(outcome.directives?.['default-src']).toEqual(["'self'"]);
  });

  it('reads a policy from a meta tag of an HTML page, but not frame-ancestors there', () => {
    const body = `<html><head><meta http-equiv="Content-Security-Policy" content="default-src 'self'; frame-ancestors 'none'"></head></html>`;
    const html = cspTest(site(page({ 'content-type': 'text/html; charset=utf-8' }, { body })));
    const text = cspTest(site(page({ 'content-type': 'text/plain' }, { body })));

    expect([html.result, html.meta, html.http, html.policy?.antiClickjacking]).toEqual(['csp-implemented-with-no-unsafe', true, false, false]);
    expect(text.result).toBe('csp-not-implemented');
  });
});

describe('CSP findings', () => {
  it('reports a missing policy as medium', () => {
    const retrieved = site(page({}));

    const findings = cspFindings(cspTest(retrieved), retrieved);

    expect(findings.map((f) => [f.id, f.severity, f.category])).toEqual([['http.csp.missing', 'medium', 'Web Security']]);
  });

  it('reports a report-only policy on its own id', () => {
    const retrieved = site(page({ 'content-security-policy-report-only': "default-src 'none'" }));

    expect(cspFindings(cspTest(retrieved), retrieved).map((f) => [f.id, f.evidence])).toEqual([
      ['http.csp.report-only', "Content-Security-Policy-Report-Only: default-src 'none'"],
    ]);
  });

  it('reports each unsafe allowance with the sources behind it', () => {
    const retrieved = site(page({ 'content-security-policy': "default-src 'self'; script-src 'self' 'unsafe-inline' 'unsafe-eval' http://cdn.example" }));

    const findings = cspFindings(cspTest(retrieved), retrieved);

    expect(findings.map((f) => [f.id, f.severity, f.evidence])).toEqual([
      ['http.csp.unsafe-inline', 'medium', "script-src: 'unsafe-inline'"],
      ['http.csp.unsafe-eval', 'low', "script-src: 'unsafe-eval'"],
      ['http.csp.insecure-sources', 'medium', 'HTTP sources in the policy of an HTTPS site: http://cdn.example'],
    ]);
  });

  it('reports nothing for a strict policy', () => {
    const retrieved = site(page({ 'content-security-policy': "default-src 'none'; script-src 'self'" }));

    expect(cspFindings(cspTest(retrieved), retrieved)).toEqual([]);
  });
});
