import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeExposure, type ExposureProbe } from '../../../lambdas/scanner/checks/exposure.check.js';
import type { Sample } from '../../../lambdas/scanner/checks/exposure/fetcher.js';
import { analyzeSecurityTxt, securityTxtAnalysisFindings } from '../../../lambdas/scanner/checks/exposure/security-txt.js';

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/exposure/${name}`, import.meta.url), 'utf8');
const URL_ASKED = 'https://shop.example/.well-known/security.txt';
const NOW = new Date('2026-11-27T09:00:00Z');
const analyze = (body: string, fetchedFrom = URL_ASKED) => analyzeSecurityTxt({ url: fetchedFrom, body }, URL_ASKED, NOW);
const ids = (body: string, fetchedFrom = URL_ASKED) => securityTxtAnalysisFindings(analyze(body, fetchedFrom)!, NOW).map((f) => [f.id, f.severity]);

describe('security.txt against RFC 9116', () => {
  it('reads a signed file: the cleartext signature taken off, dash-escaped lines restored, every field kept', () => {
    // Act
    const analysis = analyze(fixture('security-txt-signed.txt'));
    // Assess
    expect(analysis).toMatchObject({
      signed: true,
      contacts: ['mailto:security@shop.example', 'https://shop.example/report'],
      expires: { value: '2027-03-31T00:00:00Z', date: '2027-03-31T00:00:00.000Z', valid: true, count: 1 },
      expiresInDays: 123,
      canonical: { listed: ['https://shop.example/.well-known/security.txt', 'https://www.shop.example/.well-known/security.txt'], matches: true },
      unknownFields: [],
    });
    expect(analysis!.fields.map((f) => f.name)).toEqual(['contact', 'contact', 'expires', 'encryption', 'canonical', 'canonical', 'policy']);
    expect(ids(fixture('security-txt-signed.txt'))).toEqual([]);
  });

  it('reports an expired file whose Canonical names another site, CRLF lines and a numeric offset read', () => {
    const analysis = analyze(fixture('security-txt-stale.txt'));
    expect([analysis!.expires.date, analysis!.expiresInDays, analysis!.canonical.matches, analysis!.unknownFields]).toEqual(['2025-01-31T22:59:59.000Z', -665, false, ['x-note']]);
    const findings = securityTxtAnalysisFindings(analysis!, NOW);
    expect(findings.map((f) => [f.id, f.severity, f.evidence])).toEqual([
      ['exposure.security-txt.expired', 'low', `GET ${URL_ASKED}: Expires 2025-01-31T23:59:59+01:00 (665 days ago)`],
      ['exposure.security-txt.canonical-mismatch', 'low', `GET ${URL_ASKED}: Canonical https://old-agency.example/.well-known/security.txt`],
      ['exposure.security-txt.unsigned', 'info', `GET ${URL_ASKED}: no OpenPGP cleartext signature`],
    ]);
  });

  it('reports a file without Contact and with Expires twice, the first not a date-time', () => {
    const findings = securityTxtAnalysisFindings(analyze(fixture('security-txt-broken.txt'))!, NOW);
    expect(findings.map((f) => [f.id, f.evidence])).toEqual([
      ['exposure.security-txt.no-contact', `GET ${URL_ASKED}: fields policy, expires, no Contact`],
      ['exposure.security-txt.expires-invalid', `GET ${URL_ASKED}: Expires appears 2 times`],
      ['exposure.security-txt.unsigned', `GET ${URL_ASKED}: no OpenPGP cleartext signature`],
    ]);
    expect(ids('Contact: mailto:a@shop.example\nExpires: 2027-01-01\n')).toContainEqual(['exposure.security-txt.expires-invalid', 'low']);
    expect(ids('Contact: mailto:a@shop.example\n')).toContainEqual(['exposure.security-txt.expires-invalid', 'low']);
  });

  it('recommends an Expires within a year, and accepts one just inside it', () => {
    expect(ids('Contact: mailto:a@shop.example\nExpires: 2028-01-15T00:00:00Z\n')).toEqual([
      ['exposure.security-txt.expires-far', 'info'],
      ['exposure.security-txt.unsigned', 'info'],
    ]);
    expect(ids('Contact: mailto:a@shop.example\nExpires: 2027-11-20T00:00:00Z\n')).toEqual([['exposure.security-txt.unsigned', 'info']]);
  });

  it('accepts a Canonical naming the address after a redirect, and reports a file answered over plain HTTP', () => {
    const redirected = 'https://www.shop.example/.well-known/security.txt';
    expect(analyze(`Contact: mailto:a@shop.example\nCanonical: ${redirected}\n`, redirected)!.canonical.matches).toBe(true);
    expect(ids('Contact: mailto:a@shop.example\nExpires: 2027-06-01T00:00:00Z\n', 'http://shop.example/.well-known/security.txt')).toEqual([
      ['exposure.security-txt.not-https', 'low'],
      ['exposure.security-txt.unsigned', 'info'],
    ]);
  });

  it('is no security.txt without any RFC 9116 field', () => {
    expect(analyze('Hello, nothing to see here.\nUser-agent: *\n')).toBeNull();
  });
});

describe('the exposure check with the RFC 9116 analysis', () => {
  const sample = (path: string, body: string, headers: Record<string, string[]> = { 'content-type': ['text/plain'] }): Sample => ({
    path,
    url: `https://shop.example${path}`,
    status: 200,
    headers,
    body,
    bytes: Buffer.byteLength(body),
    truncated: false,
    redirects: [],
  });
  const probe = (samples: Sample[]): ExposureProbe => ({
    origin: 'https://shop.example',
    landing: sample('/', '<html><title>Shop</title></html>', { 'content-type': ['text/html'] }),
    baseline: { file: null, directory: null },
    samples,
    failures: [],
    sent: samples.length + 1,
    incomplete: false,
  });

  it('judges a file without Contact field by field instead of calling it missing, and keeps the analysis in data', () => {
    const output = analyzeExposure(probe([sample('/.well-known/security.txt', fixture('security-txt-broken.txt'))]), NOW);
    expect(output.findings.map((f) => f.id)).toEqual(['exposure.security-txt.no-contact', 'exposure.security-txt.expires-invalid', 'exposure.security-txt.unsigned']);
    expect(output.data?.securityTxt).toMatchObject({ present: false, rfc9116: { contacts: [], signed: false, url: URL_ASKED } });
  });

  it('still calls an HTML answer at the address a missing security.txt', () => {
    const output = analyzeExposure(probe([sample('/.well-known/security.txt', '<html><body>Contact: us</body></html>', { 'content-type': ['text/html'] })]), NOW);
    expect(output.findings.map((f) => f.id)).toEqual(['exposure.security-txt-missing']);
    expect(output.data?.securityTxt).toEqual({ present: false });
  });
});
