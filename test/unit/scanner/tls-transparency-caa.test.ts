import type { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { caaCoverage, caaDomainsFor, issuerOrganisation } from '../../../lambdas/scanner/checks/tls/caa.js';
import { ocspStaplingOf, parseSctList, transparencyIssues, transparencyOf } from '../../../lambdas/scanner/checks/tls/transparency.js';
import { cert, handshake, suites } from './tls-fixtures.js';

describe('Certificate Transparency: SCTs embedded in the leaf', () => {
  it('reads each SCT of the list extension: log id and timestamp', () => {
    // Prepare: leaf-sct.pem carries two made-up SCTs (logs 0xA1… and 0xB2…), see generate.sh.
    const leaf = cert('leaf-sct');
    // Act
    const report = transparencyOf(leaf);
    // Assess
    expect(report).toEqual({
      scts: [
        { logId: Buffer.alloc(32, 0xa1).toString('base64'), timestamp: '2023-11-14T22:13:20.000Z' },
        { logId: Buffer.alloc(32, 0xb2).toString('base64'), timestamp: '2023-11-14T22:13:21.000Z' },
      ],
      sctListMalformed: false,
      sctSources: 'embedded only',
    });
  });

  it('finds no SCTs in a leaf without the extension, and none to read without a certificate', () => {
    expect(transparencyOf(cert('leaf-rsa2048-sha256')).scts).toEqual([]);
    expect(transparencyOf(undefined).scts).toBeNull();
  });

  it('refuses a list whose length does not add up', () => {
    expect(() => parseSctList(Buffer.from([0x04, 0x04, 0x00, 0x09, 0x00, 0x01]))).toThrow('SCT list length does not match');
  });

  it('reports missing SCTs only on a trusted leaf, and missing stapling only when the leaf names a responder', () => {
    const none = transparencyOf(cert('leaf-rsa2048-sha256'));
    const withScts = transparencyOf(cert('leaf-sct'));
    const unstapled = { stapled: false, responder: 'http://ocsp.example.test' };
    expect(transparencyIssues(none, { stapled: false, responder: null }, true).map((i) => i.id)).toEqual(['tls.cert.no-sct']);
    expect(transparencyIssues(none, { stapled: false, responder: null }, false)).toEqual([]);
    expect(transparencyIssues(withScts, unstapled, true).map((i) => [i.id, i.severity])).toEqual([['tls.ocsp.not-stapled', 'info']]);
    expect(transparencyIssues(withScts, { ...unstapled, stapled: true }, true)).toEqual([]);
    expect(transparencyIssues(withScts, { ...unstapled, stapled: null }, true)).toEqual([]);
  });

  it('counts a port as stapling when any handshake got a response, and unknown when none recorded it', () => {
    const leaf = cert('leaf-sct');
    const stapled = handshake('TLSv1.3', suites.tls13, { ocspStapleBytes: 1400 });
    const bare = handshake('TLSv1.2', suites.ecdheGcm, { ocspStapleBytes: 0 });
    expect(ocspStaplingOf([bare, stapled], leaf)).toEqual({ stapled: true, responder: 'http://ocsp.example.test' });
    expect(ocspStaplingOf([bare], leaf).stapled).toBe(false);
    expect(ocspStaplingOf([handshake('TLSv1.3', suites.tls13)], leaf).stapled).toBeNull();
  });
});

/** A leaf as far as the CAA comparison reads it: its issuer. */
const issuedBy = (issuer: string) => ({ issuer }) as X509Certificate;
const LETS_ENCRYPT = issuedBy("C=US\nO=Let's Encrypt\nCN=R11");
const caaInput = (records: string[], overrides: Partial<Parameters<typeof caaCoverage>[0]> = {}) => ({
  host: 'shop.example.com',
  source: 'dns check' as const,
  caa: { owner: 'example.com', records },
  leaf: LETS_ENCRYPT,
  sans: ['DNS:shop.example.com'],
  trusted: true,
  ...overrides,
});

describe('CAA against the issuer of the served certificate', () => {
  it('maps issuer organisations to their CAA domains, and an unknown one to none', () => {
    expect(issuerOrganisation(LETS_ENCRYPT)).toBe("Let's Encrypt");
    expect(caaDomainsFor("Let's Encrypt")).toEqual(['letsencrypt.org']);
    expect(caaDomainsFor('Google Trust Services')).toEqual(['pki.goog']);
    expect(caaDomainsFor('Sectigo Limited')).toContain('comodoca.com');
    expect(caaDomainsFor('Amazon')).toEqual(expect.arrayContaining(['amazon.com', 'amazontrust.com']));
    expect(caaDomainsFor('Rampart Test')).toEqual([]);
  });

  it('passes an issuer the issue records allow, parameters and case aside', () => {
    const { report, issues } = caaCoverage(caaInput(['0 issue "digicert.com"', '0 issue "LetsEncrypt.org; validationmethods=dns-01"']));
    expect(issues).toEqual([]);
    expect(report).toMatchObject({ tag: 'issue', allowed: ['digicert.com', 'letsencrypt.org'], issuerAllowed: true });
  });

  it('reports an issuer the records leave out, naming both sides', () => {
    const { report, issues } = caaCoverage(caaInput(['0 issue "digicert.com"', '0 iodef "mailto:security@example.com"']));
    expect(report.issuerAllowed).toBe(false);
    expect(issues).toEqual([
      {
        id: 'tls.caa.issuer-not-allowed',
        severity: 'medium',
        evidence: "certificate issued by Let's Encrypt (CAA letsencrypt.org), but example.com CAA issue allows only digicert.com",
      },
    ]);
  });

  it('reads issuewild for a certificate that covers the host only by a wildcard, and ";" as nobody', () => {
    const wildcard = caaInput(['0 issue "letsencrypt.org"', '0 issuewild ";"'], { sans: ['DNS:*.example.com', 'DNS:example.com'] });
    const { report, issues } = caaCoverage(wildcard);
    expect([report.tag, report.allowed, report.issuerAllowed]).toEqual(['issuewild', [], false]);
    expect(issues[0]!.evidence).toBe('certificate issued by Let\'s Encrypt (CAA letsencrypt.org), but example.com CAA issuewild allows only no CA (";")');
    expect(caaCoverage({ ...wildcard, sans: ['DNS:shop.example.com'] }).issues).toEqual([]);
  });

  it('gives no verdict, and says why, for an unknown issuer, an untrusted chain, no issue record or no dns data', () => {
    const reason = (input: Parameters<typeof caaCoverage>[0]) => {
      const { report, issues } = caaCoverage(input);
      expect([report.issuerAllowed, issues]).toEqual([null, []]);
      return report.reason;
    };
    expect(reason(caaInput(['0 issue "digicert.com"'], { leaf: issuedBy('O=Tiny Regional CA\nCN=Tiny') }))).toBe(
      'issuer Tiny Regional CA is not in the table of CAA issuer domains: no verdict',
    );
    expect(reason(caaInput(['0 issue "digicert.com"'], { trusted: false }))).toBe('the certificate is not publicly trusted, so no CA checked CAA for it');
    expect(reason(caaInput(['0 iodef "mailto:security@example.com"']))).toBe('no CAA issue restriction: every CA may issue');
    expect(reason(caaInput([], { caa: null, source: 'dns check not finished in time' }))).toBe('no CAA data from the dns check');
  });
});
