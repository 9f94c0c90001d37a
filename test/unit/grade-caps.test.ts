import { describe, expect, it } from 'vitest';
import type { CheckResult, Finding } from '../../lambdas/domain/audit.js';
import { GRADE_CAP_LIMITS, gradeCapHeading, noWorkingHttps, scoreChecks, scoreScan } from '../../lambdas/domain/grade-caps.js';
import { sampleAudit } from '../../lambdas/domain/sample-report.js';
import { grade } from '../../lambdas/domain/scoring.js';
import { demoAudits } from '../../lambdas/use-cases/seed-demo.js';
import { sampleReport } from '../../frontend/src/features/landing/lib/sample-report.js';
import { riskScore } from '../../lambdas/domain/scoring.js';
import { analyzeHttp } from '../../lambdas/scanner/checks/http.check.js';
import type { PortProbe } from '../../lambdas/scanner/checks/tls/port.js';
import { analyzeTls } from '../../lambdas/scanner/checks/tls.check.js';
import type { TlsFailure } from '../../lambdas/scanner/net/tls-client.js';
import { page, site } from './scanner/http-support.js';
import { cert, DAY, handshake, suites, validity } from './scanner/tls-fixtures.js';

// The TLS and http checks' data come from their own analysis over captured handshakes and
// responses, so a renamed field in either check fails here instead of silently lifting a cap.
const NAME = 'shop.example.test';
const good = validity('leaf-rsa2048-sha256');
const inValidity = new Date(good.notAfter.getTime() - 100 * DAY);
const refused: TlsFailure = { failed: 'ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:443', code: 'ECONNREFUSED', connected: false };
const versionAlert: TlsFailure = { failed: 'ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION: tlsv1 alert protocol version', code: 'ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION', connected: true };
const aborted: TlsFailure = { failed: 'Aborted before connecting', code: 'ABORT_ERR', connected: false };
const answered = (url: string) => ({ ok: true as const, value: { url, status: 200, headers: {}, body: '', redirects: [] } });

function modernProbe(overrides: Parameters<typeof handshake>[2] = {}): PortProbe {
  return { port: 443, versions: { TLSv1: versionAlert, 'TLSv1.1': versionAlert, 'TLSv1.2': handshake('TLSv1.2', suites.ecdheGcm, overrides), 'TLSv1.3': handshake('TLSv1.3', suites.tls13, overrides) }, restricted: {} };
}

function tlsCheck(primary: PortProbe, options: { now?: Date; name?: string; https?: 'answers' | 'refused' } = {}): CheckResult {
  const { findings, data } = analyzeTls({
    name: options.name ?? NAME,
    now: options.now ?? inValidity,
    primary,
    extra: [],
    https: { url: `https://${NAME}/`, response: options.https === 'refused' ? { ok: false, error: 'ECONNREFUSED: connect ECONNREFUSED' } : answered(`https://${NAME}/`) },
    plain: { url: `http://${NAME}/`, response: answered(`http://${NAME}/`) },
  });
  return { name: 'tls', status: 'ok', findings, data };
}

/** The http check over a site whose HTTPS page is `https` (null: the HTTPS request failed with `httpsError`). */
function httpCheck(https: ReturnType<typeof page> | null, httpsError?: { code: string; message: string }): CheckResult {
  const output = analyzeHttp({
    retrieved: site(https, { http: page({}, { url: `http://${NAME}/` }) }),
    trace: null,
    errors: httpsError ? { https: httpsError } : {},
  });
  return { name: 'http', status: 'ok', findings: output.findings, data: output.data };
}

const kept = (name: string, cause: 'blocked' | 'rate_limited' = 'blocked'): CheckResult => ({ name, status: 'skipped', cause, reason: 'The site answered with a challenge.', findings: [] });

const finding = (severity: Finding['severity'], overrides: Partial<Finding> = {}): Finding => ({
  id: `test.${severity}.${Math.random().toString(36).slice(2, 8)}`,
  check: 'software',
  title: `A ${severity} problem`,
  severity,
  category: 'Software',
  description: 'd',
  recommendation: 'r',
  ...overrides,
});

const kevFinding = (severity: Finding['severity'] = 'critical') =>
  finding(severity, {
    id: 'software.jquery.vulnerable',
    title: 'jQuery 1.12.4 has known vulnerabilities',
    cves: ['CVE-2020-11022', 'CVE-2019-11358'],
    cveDetails: [
      { id: 'CVE-2020-11022', severity: 'medium', exploited: true, cvssScore: 6.1 },
      { id: 'CVE-2019-11358', severity: 'medium', exploited: false, cvssScore: 6.1 },
    ],
  });

const workingTls = () => tlsCheck(modernProbe());
const workingHttp = () => httpCheck(page({}, { url: `https://${NAME}/` }));

describe('no working HTTPS (read from the tls and http checks)', () => {
  it('sees none on a site with a trusted TLS 1.2/1.3 certificate', () => {
    expect(noWorkingHttps([workingTls(), workingHttp()])).toBeNull();
  });

  it('sees it when port 443 does not answer TLS while plain HTTP answers (tls.none)', () => {
    const tls = tlsCheck({ port: 443, versions: { TLSv1: refused, 'TLSv1.1': refused, 'TLSv1.2': refused, 'TLSv1.3': refused }, restricted: {} }, { https: 'refused' });
    expect(tls.findings.map((f) => f.id)).toEqual(['tls.none']);
    expect(noWorkingHttps([tls, httpCheck(null, { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:443' })])).toBe('port 443 does not answer with TLS');
  });

  it.each([
    ['an expired certificate', tlsCheck(modernProbe(), { now: new Date(good.notAfter.getTime() + 3 * DAY) }), 'browsers refuse its certificate: it has expired'],
    ['a certificate not valid yet', tlsCheck(modernProbe(), { now: new Date(good.notBefore.getTime() - 3 * DAY) }), 'browsers refuse its certificate: it is not valid yet'],
    [
      'a self-signed certificate',
      tlsCheck(modernProbe({ certificates: [cert('self-ec384')], authorized: false, authorizationError: 'DEPTH_ZERO_SELF_SIGNED_CERT' }), { now: new Date(validity('self-ec384').notBefore.getTime() + DAY) }),
      'browsers refuse its certificate: it is self-signed',
    ],
    ['a certificate for another name', tlsCheck(modernProbe(), { name: 'other.example.test' }), 'browsers refuse its certificate: it is not for other.example.test'],
    [
      'a chain browsers cannot follow to a trusted authority',
      tlsCheck(modernProbe({ certificates: [cert('leaf-rsa2048-sha256')], authorized: false, authorizationError: 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY' })),
      'browsers refuse its certificate: it does not lead to an authority they trust',
    ],
  ])('sees it on %s', (_case, tls, reason) => {
    expect(noWorkingHttps([tls, workingHttp()])).toBe(reason);
  });

  it('sees it when the site speaks only TLS 1.0 and 1.1', () => {
    const old = handshake('TLSv1', suites.ecdheCbc10);
    const tls = tlsCheck({ port: 443, versions: { TLSv1: old, 'TLSv1.1': handshake('TLSv1.1', suites.ecdheCbc10), 'TLSv1.2': versionAlert, 'TLSv1.3': versionAlert }, restricted: {} });
    expect(noWorkingHttps([tls])).toBe('it offers only TLS 1.0 or 1.1, which browsers refuse');
  });

  it("sees it when the page's HTTPS certificate is one a browser warns about (a redirect to another name), though the host's own port is fine", () => {
    const http = httpCheck(page({}, { url: `https://www.${NAME}/`, certificateTrusted: false }));
    expect(noWorkingHttps([workingTls(), http])).toBe(`browsers warn before showing its pages: the certificate of https://www.${NAME}/ is not trusted`);
  });

  it('takes a refused HTTPS request as evidence only when the TLS check did not see the port', () => {
    const refusedHttps = httpCheck(null, { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' });
    expect(noWorkingHttps([kept('tls'), refusedHttps])).toBe('HTTPS did not answer (ECONNREFUSED)');
    expect(noWorkingHttps([refusedHttps])).toBe('HTTPS did not answer (ECONNREFUSED)');
    // The TLS check shook hands with the port: a refused page request is a hiccup, not a missing HTTPS.
    expect(noWorkingHttps([workingTls(), refusedHttps])).toBeNull();
  });

  it('does not count a timeout or a reset as missing HTTPS', () => {
    expect(noWorkingHttps([httpCheck(null, { code: 'ETIMEDOUT', message: 'No answer within 7000 ms' })])).toBeNull();
    expect(noWorkingHttps([httpCheck(null, { code: 'ECONNRESET', message: 'socket hang up' })])).toBeNull();
  });

  it('does not grade what it did not see: checks blocked, rate limited, skipped, in error or out of time', () => {
    expect(noWorkingHttps([])).toBeNull();
    expect(noWorkingHttps([kept('tls'), kept('http')])).toBeNull();
    expect(noWorkingHttps([kept('tls', 'rate_limited'), kept('http', 'rate_limited')])).toBeNull();
    expect(noWorkingHttps([{ name: 'tls', status: 'skipped', reason: 'passive', findings: [] }, { name: 'http', status: 'skipped', reason: 'passive', findings: [] }])).toBeNull();
    expect(noWorkingHttps([{ name: 'tls', status: 'error', reason: 'Neither HTTPS nor HTTP answered', findings: [] }, { name: 'http', status: 'timeout', findings: [] }])).toBeNull();
    // Every handshake on 443 cut short by the deadline: the port was not seen.
    const cut = tlsCheck({ port: 443, versions: { TLSv1: aborted, 'TLSv1.1': aborted, 'TLSv1.2': aborted, 'TLSv1.3': aborted }, restricted: {} });
    expect(cut.data?.ports).toMatchObject([{ tls: false, complete: false }]);
    expect(noWorkingHttps([cut, kept('http')])).toBeNull();
  });
});

describe('scoreScan: the formula, then the caps (DECISIONS "Grade caps")', () => {
  const noHttps = () => [tlsCheck({ port: 443, versions: { TLSv1: refused, 'TLSv1.1': refused, 'TLSv1.2': refused, 'TLSv1.3': refused }, restricted: {} }, { https: 'refused' })];

  it('keeps the formula when no cap applies', () => {
    const findings = [finding('high'), finding('low')];
    expect(scoreScan({ checks: [workingTls(), workingHttp()], findings, partial: false })).toEqual({ score: 90, caps: [] });
  });

  it('holds a site without HTTPS at D (69), naming why', () => {
    const checks = noHttps();
    const findings = checks.flatMap((c) => c.findings);
    expect(riskScore(findings)).toBe(95);
    const { score, caps } = scoreScan({ checks, findings, partial: false });
    expect(score).toBe(69);
    expect(caps).toEqual([{ id: 'no-https', limit: 69, reason: 'The site has no working HTTPS: port 443 does not answer with TLS.' }]);
    expect(gradeCapHeading(caps[0]!)).toBe('Grade capped at D (69)');
  });

  it('holds a site with a known-exploited CVE at F (59), naming the CVE', () => {
    const { score, caps } = scoreScan({ checks: [workingTls()], findings: [kevFinding('high')], partial: false });
    expect(score).toBe(59);
    expect(caps).toEqual([
      { id: 'kev', limit: 59, reason: "A vulnerability known to be exploited in attacks (CISA's KEV catalog) is on the site: CVE-2020-11022 (jQuery 1.12.4 has known vulnerabilities)." },
    ]);
  });

  it('reads KEV from the software check data of findings stored before they carried cveDetails', () => {
    const old = finding('high', { id: 'software.wordpress.vulnerable', title: 'WordPress 5.0 has known vulnerabilities', cves: ['CVE-2019-8942'] });
    const software: CheckResult = {
      name: 'software',
      status: 'ok',
      findings: [old],
      data: { vulnerabilities: [{ findingId: old.id, vulnerabilities: [{ id: 'CVE-2019-8942', severity: 'high', exploited: true }] }] },
    };
    expect(scoreScan({ checks: [software], findings: [old], partial: false }).caps.map((c) => [c.id, c.limit])).toEqual([['kev', 59]]);
  });

  it('holds a site with any other critical finding at C (79)', () => {
    const { score, caps } = scoreScan({ checks: [], findings: [finding('critical', { title: 'The .git folder is readable' })], partial: false });
    expect(riskScore([finding('critical')])).toBe(80);
    expect(score).toBe(79);
    expect(caps).toEqual([{ id: 'critical', limit: 79, reason: 'A critical issue is open: The .git folder is readable.' }]);
  });

  it('leaves a critical finding that is itself known-exploited to the KEV cap alone', () => {
    expect(scoreScan({ checks: [], findings: [kevFinding('critical')], partial: false }).caps.map((c) => c.id)).toEqual(['kev']);
  });

  it('holds a partial report at B (89)', () => {
    expect(scoreScan({ checks: [], findings: [], partial: true })).toEqual({
      score: 89,
      caps: [{ id: 'partial', limit: 89, reason: 'Not everything was checked, and a partial report never gets an A: it cannot look better because less was checked.' }],
    });
  });

  it('applies the lowest cap and names every cap that lowered the score, lowest first', () => {
    const checks = noHttps();
    const findings = [...checks.flatMap((c) => c.findings), kevFinding('high'), finding('critical', { title: 'Database port open to the internet' })];
    // 100 - 5 (tls.none) - 5 (KEV, high) - 20 (critical) = 70: every cap is below it.
    expect(riskScore(findings)).toBe(70);
    const { score, caps } = scoreScan({ checks, findings, partial: true });
    expect(score).toBe(GRADE_CAP_LIMITS.kev);
    expect(caps.map((c) => [c.id, c.limit])).toEqual([['kev', 59], ['no-https', 69]]);
  });

  it('names each cap by whether it lowered the score on its own', () => {
    const findings = [kevFinding('low')];
    const { score, caps } = scoreScan({ checks: noHttps(), findings: [...noHttps()[0]!.findings, ...findings, finding('critical')], partial: true });
    expect(score).toBe(59);
    expect(caps.map((c) => c.id)).toEqual(['kev', 'no-https']);
    // Without the critical finding's 20 points the base is 90: the partial cap (89) lowers it too.
    const all = scoreScan({ checks: noHttps(), findings: [...noHttps()[0]!.findings, ...findings], partial: true });
    expect(all.caps.map((c) => c.id)).toEqual(['kev', 'no-https', 'partial']);
  });

  it('names no cap the formula already met: a site graded F by its findings is not "capped"', () => {
    const findings = [...Array.from({ length: 3 }, () => finding('critical')), ...noHttps()[0]!.findings];
    expect(riskScore(findings)).toBe(35);
    expect(scoreScan({ checks: noHttps(), findings, partial: true })).toEqual({ score: 35, caps: [] });
  });

  it('does not cap for HTTPS a site whose tls and http checks the site blocked, though the report is partial', () => {
    expect(scoreScan({ checks: [kept('tls'), kept('http')], findings: [], partial: true }).caps.map((c) => c.id)).toEqual(['partial']);
  });
});

describe('one score everywhere: the reports that are not scans carry the capped score too', () => {
  it("the spec's sample report (demo_ and audit_ ids) stores scoreChecks' score, grade and caps", () => {
    const audit = sampleAudit('demo_sample');
    const scored = scoreChecks(audit.checks);
    expect([audit.score, audit.grade, audit.gradeCaps ?? []]).toEqual([scored.score, grade(scored.score), scored.caps]);
  });

  it("the demo account's five audits store scoreChecks' score, grade and caps", () => {
    for (const { audit } of demoAudits('0f8fad5b-d9cb-469f-a165-70867728950e', 'demo@rampart.example', 'Rampart', new Date('2026-03-01T00:00:00Z'))) {
      const scored = scoreChecks(audit.checks);
      expect([audit.score, audit.grade, audit.gradeCaps ?? []], audit.host).toEqual([scored.score, grade(scored.score), scored.caps]);
    }
  });

  it("the landing page's preview (kept out of grade-caps to keep its bundle small) is a score no cap lowers", () => {
    const findings = sampleReport.findings.map((f, i) => ({ ...f, id: `sample.${i}` }));
    expect(scoreScan({ checks: [], findings, partial: false })).toEqual({ score: sampleReport.score, caps: [] });
  });
});
