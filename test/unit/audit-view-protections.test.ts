import { describe, expect, it } from 'vitest';
import { auditWith, rangeWordPressAudit } from '../support/audit-fixtures.js';
import { type AuditResultView, buildAuditView } from '../../lambdas/domain/audit-view.js';
import { protectionFacts } from '../../lambdas/domain/protection-facts.js';
import { evaluateBimi } from '../../lambdas/scanner/checks/email/bimi.js';
import { parseMtaStsPolicy } from '../../lambdas/scanner/checks/email/mta-sts.js';
import { evaluateTlsRpt } from '../../lambdas/scanner/checks/email/tls-rpt.js';
import { analyzeSecurityTxt } from '../../lambdas/scanner/checks/exposure/security-txt.js';
import { permissionsPolicyOf } from '../../lambdas/scanner/checks/http/permissions-policy.js';

/** A scan stored before MTA-STS policies, TLS-RPT, BIMI, DANE, DNSSEC validation and the web hardening checks. */
const rangeAudit = rangeWordPressAudit();


// The check data as the scanner stores it (email.check.ts, dns.check.ts, tls.check.ts, http.check.ts,
// exposure.check.ts), built with the scanner's own readers where they are pure.
const policy = parseMtaStsPolicy('version: STSv1\r\nmode: enforce\r\nmx: mx1.example.test\r\nmax_age: 604800\r\n');
const emailData = {
  domain: 'example.test',
  spf: { record: 'v=spf1 mx -all', allQualifier: '-' },
  dmarc: { record: 'v=DMARC1; p=reject', effectivePolicy: 'reject' },
  dkim: { selectorsFound: ['default'] },
  mx: [
    { host: 'mx1.example.test', preference: 10, starttls: true, tlsVersion: 'TLSv1.3', dane: true, tlsa: [{ usage: 3, selector: 1, matchingType: 1, data: 'ab'.repeat(32) }], tlsaSigned: true, tlsaDnssec: 'secure', tlsaDnssecReason: 'Every link validates', daneResult: 'match' },
    // As stored before the TLSA records were validated: only whether an RRSIG came along.
    { host: 'mx2.example.test', preference: 20, starttls: true, tlsVersion: 'TLSv1.3', dane: true, tlsa: [{ usage: 3, selector: 1, matchingType: 1, data: 'cd'.repeat(32) }], tlsaSigned: true, daneResult: 'mismatch' },
  ],
  mtaSts: true,
  mtaStsPolicy: {
    records: ['v=STSv1; id=20260101'],
    id: '20260101',
    url: 'https://mta-sts.example.test/.well-known/mta-sts.txt',
    status: 200,
    certificateTrusted: true,
    mode: policy.mode,
    maxAge: policy.maxAge,
    mx: policy.mx,
    errors: policy.errors,
  },
  tlsRpt: evaluateTlsRpt({ domain: 'example.test', records: ['v=TLSRPTv1; rua=mailto:tls@example.test'] }),
  bimi: (({ record, logo, authority, errors }) => ({ record, logo, authority, errors }))(
    evaluateBimi({ domain: 'example.test', records: ['v=BIMI1; l=https://example.test/bimi/logo.svg; a=https://example.test/bimi/vmc.pem'] }),
  ),
};

const signature = (result: string, expiration: string) => ({ keyTag: 1234, algorithm: 13, result, inception: '2026-01-01T00:00:00.000Z', expiration });
const dnsData = (result: 'secure' | 'bogus', stepResult = result === 'secure' ? 'valid' : 'expired') => ({
  domain: 'example.test',
  zoneFound: true,
  dnssec: {
    status: result === 'secure' ? 'secure' : 'broken',
    dnskeys: 2,
    rrsig: true,
    ds: 1,
    validated: false,
    dnskeyRcode: 'NOERROR',
    validation: {
      result,
      reason: result === 'secure' ? 'Every link verified' : 'A example.test: the signatures expired on 2025-12-01',
      anchor: '.',
      chainFromAnchor: true,
      checkedAt: '2026-01-01T00:00:01.000Z',
      algorithms: [13, 13],
      steps: [
        // The parent's keys expire first but are not the domain's to renew.
        { step: 'dnskey', name: 'test', type: 'DNSKEY', zone: '.', result: 'valid', detail: '', signatures: [signature('valid', '2026-01-05T00:00:00.000Z')] },
        { step: 'dnskey', name: 'example.test', type: 'DNSKEY', zone: 'test', result: 'valid', detail: '', signatures: [signature('valid', '2026-02-01T00:00:00.000Z')] },
        { step: 'rrset', name: 'example.test', type: 'A', zone: 'example.test', result: stepResult, detail: '', signatures: [signature(stepResult, '2026-01-20T00:00:00.000Z')] },
      ],
    },
  },
});

const tlsData = {
  grade: 'A',
  ports: [],
  hsts: { url: 'https://shop.example.test/', valid: true, maxAge: 31536000 },
  hstsPreload: null,
  certificateTransparency: { scts: [{ logId: 'a', timestamp: '2026-01-01T00:00:00.000Z' }, { logId: 'b', timestamp: '2026-01-01T00:00:00.000Z' }], sctListMalformed: false, sctSources: 'embedded only' },
  ocspStapling: { stapled: false, responder: 'http://ocsp.example.test' },
  caa: { source: 'dns check', owner: 'example.test', records: ['0 issue "digicert.com"'], issuerOrganisation: "Let's Encrypt", issuerDomains: ['letsencrypt.org'], tag: 'issue', allowed: ['digicert.com'], issuerAllowed: false },
  redirect: { endsOnHttps: true },
};

const scannedAt = new Date('2026-01-01T00:00:00.000Z');
const securityTxtUrl = 'https://shop.example.test/.well-known/security.txt';
const expiredSecurityTxt = analyzeSecurityTxt(
  { url: securityTxtUrl, body: `Contact: mailto:security@example.test\nExpires: 2025-06-30T00:00:00.000Z\nCanonical: ${securityTxtUrl}\n` },
  securityTxtUrl,
  scannedAt,
);
const httpData = {
  permissionsPolicy: permissionsPolicyOf({ 'permissions-policy': ['camera=(), microphone=(), geolocation=*'] }),
  mixedContent: {
    checked: true,
    url: 'https://shop.example.test/',
    active: [{ element: 'script src', url: 'http://cdn.example.test/app.js', kind: 'active' }],
    passive: [{ element: 'img src', url: 'http://cdn.example.test/logo.png', kind: 'passive' }],
    upgradeInsecureRequests: false,
  },
};

const fullAudit = auditWith([
  { name: 'email', status: 'ok', findings: [], data: emailData },
  { name: 'dns', status: 'ok', findings: [], data: dnsData('secure') },
  { name: 'tls', status: 'ok', findings: [], data: tlsData },
  { name: 'http', status: 'ok', findings: [], data: httpData },
  { name: 'exposure', status: 'ok', findings: [], data: { securityTxt: { present: true, rfc9116: expiredSecurityTxt } } },
]);

describe('the report view of the mail transport, DNSSEC, certificate and web hardening checks', () => {
  const view = buildAuditView(fullAudit);

  it('reads MTA-STS with the share of mail servers its mx patterns cover, TLS-RPT, BIMI, and DANE per mail server', () => {
    expect(view.email_security.mtaSts).toEqual({
      policyFetched: true,
      certificateTrusted: true,
      fetchProblem: null,
      mode: 'enforce',
      maxAgeSeconds: 604800,
      mxPatterns: ['mx1.example.test'],
      mxCovered: 1,
      mxTotal: 2,
      uncoveredMx: ['mx2.example.test'],
      errors: [],
    });
    expect(view.email_security.tlsRpt).toEqual({ rua: ['mailto:tls@example.test'], valid: true, errors: [] });
    expect(view.email_security.bimi).toEqual({ logo: 'https://example.test/bimi/logo.svg', authority: 'https://example.test/bimi/vmc.pem', valid: true, errors: [] });
    expect(view.email_security.mx.map((m) => [m.host, m.dane])).toEqual([
      ['mx1.example.test', { result: 'match', signed: true, dnssec: 'secure', records: 1 }],
      ['mx2.example.test', { result: 'mismatch', signed: true, dnssec: null, records: 1 }],
    ]);
  });

  it("matches a *. pattern to exactly one more label (RFC 8461 §4.1), and says why a policy senders cannot fetch is no use", () => {
    const email = (patch: Record<string, unknown>) =>
      buildAuditView(auditWith([{ name: 'email', status: 'ok', findings: [], data: { ...emailData, mtaStsPolicy: { ...emailData.mtaStsPolicy, ...patch } } }])).email_security.mtaSts;
    expect(email({ mx: ['*.example.test'] })).toMatchObject({ mxCovered: 2, uncoveredMx: [] });
    expect(email({ mx: ['*.test'] })).toMatchObject({ mxCovered: 0, uncoveredMx: ['mx1.example.test', 'mx2.example.test'] });
    expect(email({ status: 404, mode: undefined, mx: [] })).toMatchObject({ policyFetched: false, fetchProblem: 'HTTP 404' });
    expect(email({ status: undefined, fetchError: 'connection refused' })).toMatchObject({ policyFetched: false, fetchProblem: 'connection refused' });
    expect(email({ records: [] })).toBeNull();
  });

  it('reads DNSSEC validation: the result, the algorithms once each, and the earliest expiry of the domain’s own signatures', () => {
    expect(view.dnssec).toEqual({
      domain: 'example.test',
      status: 'secure',
      validation: 'secure',
      reason: 'Every link verified',
      algorithms: [{ number: 13, name: 'ECDSA P-256/SHA-256', deprecated: false }],
      signaturesExpire: '2026-01-20T00:00:00.000Z',
      signatureDatesWrong: false,
    });
    const bogus = buildAuditView(auditWith([{ name: 'dns', status: 'ok', findings: [], data: dnsData('bogus') }])).dnssec;
    expect(bogus).toMatchObject({ status: 'broken', validation: 'bogus', signatureDatesWrong: true, signaturesExpire: '2026-02-01T00:00:00.000Z' });
  });

  it('reads CAA against the issuer, OCSP stapling and the embedded SCTs', () => {
    expect(view.tls.caa).toEqual({ records: ['0 issue "digicert.com"'], issuer: "Let's Encrypt", allowedIssuers: ['digicert.com'], issuerAllowed: false, note: null });
    expect(view.tls.ocspStapling).toEqual({ stapled: false, responderListed: true });
    expect(view.tls.certificateTransparency).toEqual({ scts: 2, malformed: false });
  });

  it('reads Permissions-Policy, security.txt against RFC 9116 (expired when scanned) and mixed content', () => {
    expect(view.web_hardening).toEqual({
      permissionsPolicy: { present: true, valid: true, blocked: ['camera', 'microphone'], allowedToAll: ['geolocation'] },
      securityTxt: { found: true, signed: false, contacts: ['mailto:security@example.test'], expires: '2025-06-30T00:00:00.000Z', expired: true, canonicalMatches: true },
      mixedContent: { checked: true, active: 1, passive: 1, examples: ['http://cdn.example.test/app.js', 'http://cdn.example.test/logo.png'], upgradeInsecureRequests: false },
    });
  });

  it('says each fact in plain words, grouped for the results page and the PDF', () => {
    const groups = protectionFacts(view);
    const facts = Object.fromEntries(groups.flatMap((g) => g.facts.map((f) => [`${g.id}/${f.label}`, `${f.tone}: ${f.value}`])));
    expect(groups.map((g) => g.title)).toEqual(['Email delivery', 'DNS', 'Certificate', 'Website hardening']);
    expect(facts).toEqual({
      'email/MTA-STS': 'problem: enforce mode, covers 1 of 2 mail servers (not mx2.example.test), remembered for 7 days',
      'email/TLS-RPT': 'good: failure reports go to mailto:tls@example.test',
      'email/BIMI': 'good: logo at https://example.test/bimi/logo.svg; mark certificate at https://example.test/bimi/vmc.pem',
      'email/DANE (mx1.example.test)': "good: the mail server's certificate matches its TLSA record",
      'email/DANE (mx2.example.test)': "problem: the mail server's certificate does not match its TLSA records: servers that check DANE will not deliver to it",
      'dns/DNSSEC': 'good: signed and valid; signatures valid until 2026-01-20',
      'dns/DNSSEC algorithm': 'neutral: ECDSA P-256/SHA-256',
      'certificate/CAA': "problem: does not allow Let's Encrypt, which issued your certificate (allowed: digicert.com): its next renewal will fail",
      'certificate/OCSP stapling': "warning: no: visitors' browsers must ask the certificate authority themselves, or skip the check",
      'certificate/Certificate Transparency': 'good: publicly logged: 2 signed timestamps (SCTs) in the certificate',
      'web/Permissions-Policy': 'warning: grants geolocation to every site, embedded ones included',
      'web/security.txt': 'warning: expired on 2025-06-30; contact mailto:security@example.test',
      'web/Mixed content': 'problem: 1 script, style or frame on the home page loads over plain HTTP (for example http://cdn.example.test/app.js): browsers block it',
    });
  });

  it("says what the TLSA records' DNSSEC validation means for senders: bogus defers mail, insecure is ignored, indeterminate is not checked", () => {
    const mx = (host: string, tlsaDnssec: string, daneResult = 'match') => ({ host, preference: 10, dane: true, tlsa: [{ usage: 3, selector: 1, matchingType: 1, data: 'ab'.repeat(32) }], tlsaSigned: true, tlsaDnssec, daneResult });
    const dane = buildAuditView(
      auditWith([{ name: 'email', status: 'ok', findings: [], data: { domain: 'example.test', mx: [mx('mx1.example.test', 'bogus'), mx('mx2.example.test', 'insecure'), mx('mx3.example.test', 'indeterminate')] } }]),
    );
    expect(dane.email_security.mx.map((m) => [m.host, m.dane])).toEqual([
      ['mx1.example.test', { result: 'match', signed: null, dnssec: 'bogus', records: 1 }],
      ['mx2.example.test', { result: 'match', signed: false, dnssec: 'insecure', records: 1 }],
      ['mx3.example.test', { result: 'match', signed: null, dnssec: 'indeterminate', records: 1 }],
    ]);
    const facts = protectionFacts(dane).flatMap((g) => g.facts.filter((f) => f.label.startsWith('DANE')).map((f) => [f.label, `${f.tone}: ${f.value}`]));
    expect(facts).toEqual([
      ['DANE (mx1.example.test)', "problem: the TLSA records' DNSSEC signatures do not validate: servers that check DANE will not deliver to it"],
      ['DANE (mx2.example.test)', 'warning: 1 TLSA record that DNSSEC does not vouch for (unsigned, or no DS record for the zone): sending servers ignore them'],
      ['DANE (mx3.example.test)', 'neutral: 1 TLSA record found, not checked (their DNSSEC signatures could not be validated)'],
    ]);
  });

  it('adds nothing for a report stored before these checks: no field, no fact, no crash', () => {
    const old = buildAuditView(rangeAudit);
    expect('mtaSts' in old.email_security).toBe(false);
    expect('tlsRpt' in old.email_security).toBe(false);
    expect('bimi' in old.email_security).toBe(false);
    expect(old.email_security.mx.some((m) => 'dane' in m)).toBe(false);
    expect('caa' in old.tls).toBe(false);
    expect('ocspStapling' in old.tls).toBe(false);
    expect('certificateTransparency' in old.tls).toBe(false);
    // The old dns check stored a DNSSEC status, without the validation.
    expect(old.dnssec).toMatchObject({ status: 'unsigned', validation: null, algorithms: [], signaturesExpire: null });
    // The old exposure check stored whether security.txt was there, nothing of RFC 9116.
    expect(old.web_hardening).toEqual({ securityTxt: { found: false, signed: null, contacts: [], expires: null, expired: null, canonicalMatches: null } });
    expect(protectionFacts(old).flatMap((g) => g.facts.map((f) => f.label))).toEqual(['DNSSEC', 'security.txt']);
  });

  it('survives data of the wrong shape and checks that stored nothing', () => {
    const odd = buildAuditView(
      auditWith([
        { name: 'email', status: 'ok', findings: [], data: { mtaStsPolicy: 'x', tlsRpt: 1, bimi: [], mx: [{ host: 'mx.example.test', tlsa: 'x', daneResult: 3 }] } },
        { name: 'dns', status: 'ok', findings: [], data: { dnssec: { status: 'secure', validation: { steps: 'x', algorithms: ['13'] } } } },
        { name: 'tls', status: 'ok', findings: [], data: { caa: null, ocspStapling: 'yes', certificateTransparency: { scts: 'x' } } },
        { name: 'http', status: 'ok', findings: [], data: { permissionsPolicy: null, mixedContent: null } },
        { name: 'exposure', status: 'skipped', findings: [], data: { securityTxt: { present: null } } },
      ]),
    );
    expect(odd.email_security).toMatchObject({ mtaSts: null, tlsRpt: null, bimi: null });
    expect(odd.email_security.mx[0]).not.toHaveProperty('dane');
    expect(odd.dnssec).toMatchObject({ status: 'secure', validation: null, algorithms: [] });
    expect(odd.tls).not.toHaveProperty('caa');
    expect(odd.tls.certificateTransparency).toEqual({ scts: null, malformed: false });
    expect(odd.web_hardening).toEqual({ permissionsPolicy: null, securityTxt: null, mixedContent: null });
    expect(() => protectionFacts(odd)).not.toThrow();
    expect(buildAuditView(auditWith([]))).not.toHaveProperty('dnssec');
    // A view from an older API, over the wire, without the email and TLS sections.
    expect(protectionFacts({ ...buildAuditView(auditWith([])), email_security: undefined, tls: undefined } as unknown as AuditResultView)).toEqual([]);
  });
});
