import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Audit } from '../../../lambdas/domain/audit.js';
import { buildAuditView } from '../../../lambdas/domain/audit-view.js';
import { renderPdfReport } from '../../../lambdas/reports/pdf-report.js';
import { readPdf } from '../../support/pdf-text.js';

/** The range WordPress scan, stored before MTA-STS policies, TLS-RPT, BIMI, DANE, DNSSEC validation, CAA/OCSP/SCTs and the web hardening checks. */
const rangeAudit = JSON.parse(readFileSync(new URL('../../fixtures/audits/range-wordpress.json', import.meta.url), 'utf8')) as Audit;
const options = { productName: 'Rampart', reportUrl: 'https://rampart.example/results/3f9c2a1e-7b4d-4c8e-9a2f-5d6e7f8a9b0c' };
const HEADING = 'Email, DNS and website protections';

/** The range scan as today's scanner stores it: the data of each new check patched in. */
function withNewChecks(): Audit {
  const audit = structuredClone(rangeAudit);
  const data = (name: string) => audit.checks.find((check) => check.name === name)!.data as Record<string, unknown>;
  const email = data('email');
  email.mx = [{ ...(email.mx as Record<string, unknown>[])[0], tlsa: [{ usage: 3, selector: 1, matchingType: 1, data: 'ab'.repeat(32) }], tlsaSigned: false, daneResult: 'mismatch' }];
  email.mtaStsPolicy = { records: ['v=STSv1; id=1'], status: 200, certificateTrusted: true, mode: 'testing', maxAge: 86400, mx: ['mx.other.test'], errors: [] };
  email.tlsRpt = { record: 'v=TLSRPTv1; rua=mailto:tls@example.test', rua: ['mailto:tls@example.test'], errors: [] };
  email.bimi = { record: 'v=BIMI1; l=https://example.test/logo.svg', logo: 'https://example.test/logo.svg', errors: [] };
  const dnssec = data('dns').dnssec as Record<string, unknown>;
  Object.assign(dnssec, {
    status: 'broken',
    validation: { result: 'bogus', reason: 'A example.test: every signature expired', algorithms: [5], steps: [{ step: 'rrset', name: 'example.test', result: 'expired', signatures: [] }] },
  });
  Object.assign(data('tls'), {
    caa: { records: ['0 issue "letsencrypt.org"'], issuerOrganisation: null, allowed: [], issuerAllowed: null, reason: 'the certificate is not publicly trusted, so no CA checked CAA for it' },
    ocspStapling: { stapled: false, responder: null },
    certificateTransparency: { scts: [], sctListMalformed: false },
  });
  Object.assign(data('http'), {
    permissionsPolicy: { value: 'camera=()', valid: true, features: { camera: [] }, broad: [] },
    mixedContent: { checked: true, active: [], passive: [{ url: 'http://wp.example.test/logo.png' }, { url: 'http://wp.example.test/b.png' }], upgradeInsecureRequests: false },
  });
  data('exposure').securityTxt = {
    present: true,
    rfc9116: { signed: true, contacts: ['mailto:security@example.test'], expires: { date: '2024-01-01T00:00:00.000Z', valid: true }, expiresInDays: -1056, canonical: { matches: false } },
  };
  return audit;
}

describe('the PDF report: email, DNS and website protections', () => {
  it('lists each protection of a current scan with its status and what was found', async () => {
    // Act
    const pdf = await readPdf(await renderPdfReport(buildAuditView(withNewChecks()), options));
    const text = pdf.text.replace(/\s+/g, ' ');

    // Assess: a section after the headers, a table per group.
    expect(pdf.lines.indexOf(HEADING)).toBeGreaterThan(pdf.lines.indexOf('Web security headers'));
    expect(pdf.lines.indexOf(HEADING)).toBeLessThan(pdf.lines.indexOf('Technologies and known vulnerabilities'));
    expect(pdf.lines).toEqual(expect.arrayContaining(['Email delivery', 'DNS', 'Certificate', 'Website hardening', 'Protection', 'Status', 'What the scan found']));
    for (const sentence of [
      'testing mode, covers 0 of 1 mail server (not mail.example.test), remembered for 1 day',
      'failure reports go to mailto:tls@example.test',
      'no mark certificate (Gmail and Apple Mail need one to show the logo)',
      '1 TLSA record without DNSSEC signatures: sending servers ignore them',
      'signed but broken (signatures expired or not yet valid): resolvers that check DNSSEC cannot reach your site or mail. A example.test: every signature expired',
      'RSA/SHA-1 is deprecated: move to ECDSA P-256/SHA-256',
      '1 record; the certificate is not publicly trusted, so no CA checked CAA for it',
      'not needed: the certificate names no OCSP responder',
      'no signed timestamps (SCTs) in the certificate',
      'set; switches off camera',
      'expired on 2024-01-01; contact mailto:security@example.test; signed; its Canonical address is not where it is served',
      '2 images or media files on the home page load over plain HTTP (for example http://wp.example.test/logo.png)',
    ]) {
      expect(text).toContain(sentence);
    }
    expect(pdf.lines).toEqual(expect.arrayContaining(['MTA-STS', 'TLS-RPT', 'BIMI', 'DANE (mail.example.test)', 'DNSSEC', 'CAA', 'OCSP stapling', 'Certificate Transparency', 'Permissions-Policy', 'security.txt', 'Mixed content', 'Fix', 'Improve', 'OK', 'Info']));
  });

  it('says only what an older report holds: no MTA-STS, DANE, CAA or mixed content rows, and no crash', async () => {
    // Act
    const pdf = await readPdf(await renderPdfReport(buildAuditView(rangeAudit), options));

    // Assess: the old dns check stored DNSSEC's status, the old exposure check whether security.txt was there.
    expect(pdf.lines).toContain(HEADING);
    expect(pdf.text.replace(/\s+/g, ' ')).toContain('not signed: forged answers about your domain cannot be told from real ones');
    expect(pdf.text.replace(/\s+/g, ' ')).toContain('not published: someone who finds a flaw in your site has no listed way to tell you');
    for (const label of ['MTA-STS', 'TLS-RPT', 'BIMI', 'CAA', 'OCSP stapling', 'Certificate Transparency', 'Permissions-Policy', 'Mixed content', 'Email delivery', 'Certificate']) {
      expect(pdf.lines).not.toContain(label);
    }
  });

  it('leaves the section out when the report holds none of these facts', async () => {
    const audit = structuredClone(rangeAudit);
    audit.checks = audit.checks.filter((check) => check.name !== 'dns' && check.name !== 'exposure');
    const pdf = await readPdf(await renderPdfReport(buildAuditView(audit), options));
    expect(pdf.lines).not.toContain(HEADING);
  });
});
