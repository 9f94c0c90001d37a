import { createHash, X509Certificate } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeBimi, evaluateBimi } from '../../../lambdas/scanner/checks/email/bimi.js';
import { analyzeDane, type DaneMx, daneUsed, verifyDane } from '../../../lambdas/scanner/checks/email/dane.js';
import { DKIM_SELECTORS } from '../../../lambdas/scanner/checks/email/dkim.js';
import {
  analyzeMtaSts,
  type MtaStsObservation,
  mtaStsEnforced,
  mxMatchesPattern,
  parseMtaStsPolicy,
  parseMtaStsRecord,
} from '../../../lambdas/scanner/checks/email/mta-sts.js';
import type { CertificateSummary } from '../../../lambdas/scanner/checks/email/mx.js';
import { analyzeTlsRpt, evaluateTlsRpt, validReportUri } from '../../../lambdas/scanner/checks/email/tls-rpt.js';
import { certificateChain } from '../../support/certificate-chain.js';

const ids = (findings: { id: string; severity: string }[]) => findings.map((f) => [f.id, f.severity]);

const goodCertificate: CertificateSummary = {
  subject: 'CN=mx1.example.com',
  issuer: "CN=R11, O=Let's Encrypt, C=US",
  validFrom: '2026-10-01T00:00:00.000Z',
  validTo: '2026-12-30T00:00:00.000Z',
  daysLeft: 33,
  expired: false,
  notYetValid: false,
  selfSigned: false,
  nameMatches: true,
  trusted: true,
};
const policyFile = (lines: string[]) => lines.join('\r\n') + '\r\n';
const observation = (overrides: Partial<MtaStsObservation> & { body?: string } = {}): MtaStsObservation => {
  const { body, ...rest } = overrides;
  return {
    domain: 'example.com',
    record: { records: ['v=STSv1; id=20261101'], id: '20261101', errors: [] },
    fetch: {
      url: 'https://mta-sts.example.com/.well-known/mta-sts.txt',
      status: 200,
      certificateTrusted: true,
      body: body ?? policyFile(['version: STSv1', 'mode: enforce', 'mx: mx1.example.com', 'mx: *.backup.example.com', 'max_age: 604800']),
    },
    mx: [
      { host: 'mx1.example.com', certificate: goodCertificate },
      { host: 'b.backup.example.com', certificate: { ...goodCertificate, subject: 'CN=b.backup.example.com' } },
    ],
    ...rest,
  };
};

describe('MTA-STS record and policy parsing (RFC 8461)', () => {
  it('reads the id of a single v=STSv1 record and refuses two, a missing id and a bad id', () => {
    expect(parseMtaStsRecord(['v=spf1 -all', 'v=STSv1; id=20261101T1200;'])).toEqual({ records: ['v=STSv1; id=20261101T1200;'], id: '20261101T1200', errors: [] });
    expect(parseMtaStsRecord(['v=STSv1; id=1', 'v=STSv1; id=2']).errors).toEqual(['2 records start with v=STSv1; senders need exactly one']);
    expect(parseMtaStsRecord(['v=STSv1;']).errors).toEqual(['the record has no id= field']);
    expect(parseMtaStsRecord(['v=STSv1; id=2026-11-01']).errors).toEqual(['id=2026-11-01 is not 1 to 32 letters and digits']);
    expect(parseMtaStsRecord(['v=STSv2; id=1'])).toEqual({ records: [], errors: [] });
  });

  it('reads version, mode, max_age and mx lines, and names every fault at once', () => {
    expect(parseMtaStsPolicy(policyFile(['version: STSv1', 'mode: testing', 'mx: MX1.example.com.', 'mx: *.example.net', 'max_age: 86400']))).toEqual({
      version: 'STSv1',
      mode: 'testing',
      maxAge: 86400,
      mx: ['mx1.example.com', '*.example.net'],
      errors: [],
    });
    expect(parseMtaStsPolicy('version: STSv2\nmode: strict\nmax_age: 31557601\n').errors).toEqual([
      'version is "STSv2", not STSv1',
      'mode "strict" is not enforce, testing or none',
      'max_age 31557601 is over the limit of 31557600 seconds',
      'no mx field: senders can deliver to no server',
    ]);
    expect(parseMtaStsPolicy('version: STSv1\nmode: none\nmax_age: -5\n').errors).toEqual(['max_age is not a whole number of seconds']);
    expect(parseMtaStsPolicy('version: STSv1\nmode: none\nmax_age: 31557600\n').errors).toEqual([]);
  });

  it('lets a wildcard stand for exactly one label', () => {
    expect(mxMatchesPattern('mx1.example.com', '*.example.com')).toBe(true);
    expect(mxMatchesPattern('a.mx1.example.com', '*.example.com')).toBe(false);
    expect(mxMatchesPattern('example.com', '*.example.com')).toBe(false);
    expect(mxMatchesPattern('MX1.Example.com.', 'mx1.example.com')).toBe(true);
    expect(mxMatchesPattern('mx2.example.com', 'mx1.example.com')).toBe(false);
  });
});

describe('MTA-STS analysis', () => {
  it('finds nothing when an enforced policy covers every MX and each presents a valid certificate', () => {
    expect(analyzeMtaSts(observation(), { hasMx: true })).toEqual([]);
  });

  it('rates an MX outside an enforced policy high, and tells which mx lines to add', () => {
    const findings = analyzeMtaSts(observation({ mx: [{ host: 'mx1.example.com', certificate: goodCertificate }, { host: 'mail.example.org', certificate: goodCertificate }] }), { hasMx: true });
    expect(ids(findings)).toEqual([['email.mta-sts.mx-not-covered', 'high']]);
    expect(findings[0]!.evidence).toBe('policy mx: mx1.example.com, *.backup.example.com; not covered: mail.example.org');
    expect(findings[0]!.recommendation).toMatch(/^Add mx: mail\.example\.org to the policy file/);
  });

  it('rates an untrusted MX certificate high under enforce and medium under testing, with testing not called ready', () => {
    const untrusted = { ...goodCertificate, trusted: false, authorizationError: 'DEPTH_ZERO_SELF_SIGNED_CERT' };
    const mx = [{ host: 'mx1.example.com', certificate: untrusted }];
    expect(ids(analyzeMtaSts(observation({ mx }), { hasMx: true }))).toEqual([['email.mta-sts.mx-certificate-rejected', 'high']]);
    const testing = policyFile(['version: STSv1', 'mode: testing', 'mx: mx1.example.com', 'max_age: 604800']);
    const findings = analyzeMtaSts(observation({ mx, body: testing }), { hasMx: true });
    expect(ids(findings)).toEqual([['email.mta-sts.mx-certificate-rejected', 'medium']]);
    expect(findings[0]!.evidence).toBe('mx1.example.com: untrusted (DEPTH_ZERO_SELF_SIGNED_CERT)');
  });

  it('says testing mode is ready for enforce when everything matches, and flags a max_age under a day', () => {
    const body = policyFile(['version: STSv1', 'mode: testing', 'mx: mx1.example.com', 'mx: *.backup.example.com', 'max_age: 3600']);
    expect(ids(analyzeMtaSts(observation({ body }), { hasMx: true }))).toEqual([
      ['email.mta-sts.testing', 'info'],
      ['email.mta-sts.max-age-short', 'low'],
    ]);
  });

  it('reports a policy senders cannot fetch: HTTP 404, a redirect, an untrusted certificate, a connection error', () => {
    const fetchOf = (fetch: MtaStsObservation['fetch']) => analyzeMtaSts(observation({ fetch }), { hasMx: true });
    const url = 'https://mta-sts.example.com/.well-known/mta-sts.txt';
    expect(fetchOf({ url, status: 404, certificateTrusted: true }).map((f) => [f.id, f.severity, f.evidence])).toEqual([['email.mta-sts.policy-unavailable', 'medium', `${url}: HTTP 404`]]);
    expect(fetchOf({ url, status: 301, certificateTrusted: true, redirect: 'https://example.com/mta-sts.txt' })[0]!.evidence).toBe(`${url}: HTTP 301 redirect to https://example.com/mta-sts.txt (senders do not follow redirects)`);
    expect(fetchOf({ url, status: 200, certificateTrusted: false, certificateError: 'CERT_HAS_EXPIRED', body: 'x' })[0]!.evidence).toBe(`${url}: certificate not trusted (CERT_HAS_EXPIRED)`);
    expect(fetchOf({ url, error: 'ENOTFOUND: mta-sts.example.com' })[0]!.evidence).toBe(`${url}: ENOTFOUND: mta-sts.example.com`);
  });

  it('reports an invalid policy file and an invalid record as medium', () => {
    expect(analyzeMtaSts(observation({ body: 'version: STSv1\nmode: enforce\nmax_age: 604800\n' }), { hasMx: true }).map((f) => [f.id, f.evidence])).toEqual([
      ['email.mta-sts.policy-invalid', 'https://mta-sts.example.com/.well-known/mta-sts.txt: no mx field: senders can deliver to no server'],
    ]);
    expect(ids(analyzeMtaSts(observation({ record: { records: ['v=STSv1'], errors: ['the record has no id= field'] } }), { hasMx: true }))).toEqual([['email.mta-sts.record-invalid', 'medium']]);
  });

  it('mentions MTA-STS as info, with the policy for the real MX and the providers, only when the domain has mail servers', () => {
    const none = observation({ record: { records: [], errors: [] }, mx: [{ host: 'example-com.mail.protection.outlook.com' }] });
    const findings = analyzeMtaSts(none, { hasMx: true });
    expect(ids(findings)).toEqual([['email.mta-sts.missing', 'info']]);
    expect(findings[0]!.recommendation).toContain('mx: example-com.mail.protection.outlook.com');
    expect(findings[0]!.recommendation).toContain('Microsoft 365: `mx: *.mail.protection.outlook.com`');
    expect(analyzeMtaSts(none, { hasMx: false })).toEqual([]);
  });

  it('counts a policy as enforced only in enforce mode, fetched as senders fetch it, without errors', () => {
    expect(mtaStsEnforced(observation())).toBe(true);
    expect(mtaStsEnforced(observation({ body: policyFile(['version: STSv1', 'mode: testing', 'mx: mx1.example.com', 'max_age: 604800']) }))).toBe(false);
    expect(mtaStsEnforced(observation({ fetch: { url: 'https://mta-sts.example.com/.well-known/mta-sts.txt', status: 404, certificateTrusted: true } }))).toBe(false);
    expect(mtaStsEnforced(observation({ record: { records: [], errors: [] } }))).toBe(false);
  });

  it('says so when mode: none withdraws the policy', () => {
    expect(ids(analyzeMtaSts(observation({ body: 'version: STSv1\nmode: none\nmax_age: 86400\n' }), { hasMx: true }))).toEqual([['email.mta-sts.mode-none', 'info']]);
  });
});

describe('TLS-RPT (RFC 8460)', () => {
  const tlsRpt = (records: string[]) => ({ domain: 'example.com', records });

  it('accepts mailto: and https: destinations, separated by commas', () => {
    expect(evaluateTlsRpt(tlsRpt(['v=TLSRPTv1; rua=mailto:tls@example.com,https://reports.example.net/tlsrpt']))).toEqual({
      record: 'v=TLSRPTv1; rua=mailto:tls@example.com,https://reports.example.net/tlsrpt',
      rua: ['mailto:tls@example.com', 'https://reports.example.net/tlsrpt'],
      errors: [],
    });
    expect(analyzeTlsRpt(tlsRpt(['v=TLSRPTv1; rua=mailto:tls@example.com']), { hasMx: true, transportPolicy: true })).toEqual([]);
  });

  it('names malformed destinations, a missing rua and duplicate records', () => {
    expect(validReportUri('mailto:not-an-address')).toBe(false);
    expect(validReportUri('mailto:tls%zz@example.com')).toBe(false);
    expect(validReportUri('mailto:tls%40reports@example.com')).toBe(false);
    expect(validReportUri('mailto:tls-reports@example.com!10m')).toBe(false);
    expect(validReportUri('http://reports.example.net/')).toBe(false);
    expect(validReportUri('https://reports.example.net/')).toBe(true);
    const findings = analyzeTlsRpt(tlsRpt(['v=TLSRPTv1; rua=tls@example.com, http://example.net/r']), { hasMx: true, transportPolicy: false });
    expect(findings.map((f) => [f.id, f.severity, f.evidence])).toEqual([
      [
        'email.tls-rpt.invalid',
        'low',
        '_smtp._tls.example.com: "v=TLSRPTv1; rua=tls@example.com, http://example.net/r": rua "tls@example.com" is not a mailto: address or an https: URL; rua "http://example.net/r" is not a mailto: address or an https: URL',
      ],
    ]);
    expect(evaluateTlsRpt(tlsRpt(['v=TLSRPTv1;'])).errors).toEqual(['no rua= field: senders have nowhere to report']);
    expect(evaluateTlsRpt(tlsRpt(['v=TLSRPTv1; rua=mailto:a@example.com', 'v=TLSRPTv1; rua=mailto:b@example.com'])).errors).toEqual(['2 records start with v=TLSRPTv1; senders use none of them']);
  });

  it('rates a missing record low once MTA-STS or DANE can stop mail, info before, nothing without MX', () => {
    expect(ids(analyzeTlsRpt(tlsRpt([]), { hasMx: true, transportPolicy: true }))).toEqual([['email.tls-rpt.missing', 'low']]);
    expect(ids(analyzeTlsRpt(tlsRpt([]), { hasMx: true, transportPolicy: false }))).toEqual([['email.tls-rpt.missing', 'info']]);
    expect(analyzeTlsRpt(tlsRpt([]), { hasMx: false, transportPolicy: false })).toEqual([]);
  });
});

describe('BIMI', () => {
  const bimi = (records: string[]) => ({ domain: 'example.com', records });

  it('accepts an https SVG logo and an https PEM certificate, and says nothing when DMARC is enforced', () => {
    const record = 'v=BIMI1; l=https://example.com/bimi/logo.svg; a=https://example.com/bimi/vmc.pem';
    expect(evaluateBimi(bimi([record]))).toEqual({ record, logo: 'https://example.com/bimi/logo.svg', authority: 'https://example.com/bimi/vmc.pem', declined: false, errors: [] });
    expect(analyzeBimi(bimi([record]), { dmarcEnforced: true })).toEqual([]);
    expect(analyzeBimi(bimi([]), { dmarcEnforced: false })).toEqual([]);
  });

  it('names a logo that is not HTTPS or not SVG and a certificate location that is not HTTPS', () => {
    const findings = analyzeBimi(bimi(['v=BIMI1; l=http://example.com/logo.png; a=ftp://example.com/vmc.pem']), { dmarcEnforced: true });
    expect(findings.map((f) => [f.id, f.severity, f.evidence])).toEqual([
      [
        'email.bimi.invalid',
        'low',
        'default._bimi.example.com: "v=BIMI1; l=http://example.com/logo.png; a=ftp://example.com/vmc.pem": l=http://example.com/logo.png is not an https: URL (the logo must be an SVG Tiny PS file over HTTPS); a=ftp://example.com/vmc.pem is not an https: URL (the certificate must be a PEM file over HTTPS)',
      ],
    ]);
    expect(evaluateBimi(bimi(['v=BIMI1; l=https://example.com/logo.png'])).errors).toEqual(['l=https://example.com/logo.png does not end in .svg (the logo must be an SVG Tiny PS file over HTTPS)']);
  });

  it('says the logo is never shown while DMARC is not enforced, and that Gmail wants a certificate', () => {
    expect(ids(analyzeBimi(bimi(['v=BIMI1; l=https://example.com/logo.svg']), { dmarcEnforced: false }))).toEqual([
      ['email.bimi.dmarc-not-enforced', 'low'],
      ['email.bimi.no-certificate', 'info'],
    ]);
  });

  it('takes an empty l= and no a= as a declination, not an error', () => {
    expect(evaluateBimi(bimi(['v=BIMI1; l=;'])).declined).toBe(true);
    expect(analyzeBimi(bimi(['v=BIMI1; l=;']), { dmarcEnforced: false })).toEqual([]);
  });
});

describe('DANE for SMTP (RFC 7672)', () => {
  let chain: string[];
  let leaf: X509Certificate;
  let ca: X509Certificate;
  const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
  const spki = (c: X509Certificate) => c.publicKey.export({ type: 'spki', format: 'der' });

  beforeAll(() => {
    const pair = certificateChain('mx1.example.com');
    leaf = new X509Certificate(pair.cert);
    ca = new X509Certificate(pair.ca);
    chain = [leaf.raw.toString('base64'), ca.raw.toString('base64')];
  });
  const mx = (tlsa: DaneMx['tlsa'], extra: Partial<DaneMx> = {}): DaneMx => ({ host: 'mx1.example.com', tlsa, chain, nameMatches: true, ...extra });

  it('matches DANE-EE on the server key (3 1 1), the full certificate (3 0 1) and SHA-512 (3 1 2)', () => {
    expect(verifyDane(mx([{ usage: 3, selector: 1, matchingType: 1, data: sha256(spki(leaf)) }]))).toMatchObject({ result: 'match' });
    expect(verifyDane(mx([{ usage: 3, selector: 0, matchingType: 1, data: sha256(leaf.raw) }]))).toMatchObject({ result: 'match' });
    const sha512 = createHash('sha512').update(spki(leaf)).digest('hex');
    expect(verifyDane(mx([{ usage: 3, selector: 1, matchingType: 2, data: sha512 }]))).toMatchObject({ result: 'match' });
  });

  it('matches DANE-TA on the CA of the presented chain, but not when the certificate does not name the MX', () => {
    const ta = [{ usage: 2, selector: 1, matchingType: 1, data: sha256(spki(ca)) }];
    expect(verifyDane(mx(ta))).toMatchObject({ result: 'match', record: `2 1 1 ${sha256(spki(ca)).slice(0, 16)}…` });
    expect(verifyDane(mx(ta, { nameMatches: false }))).toMatchObject({ result: 'mismatch' });
    // DANE-EE does not look at names (RFC 7672 §3.1.1).
    expect(verifyDane(mx([{ usage: 3, selector: 1, matchingType: 1, data: sha256(spki(leaf)) }], { nameMatches: false }))).toMatchObject({ result: 'match' });
  });

  it('rates records that match nothing high, naming them', () => {
    const stale = { usage: 3, selector: 1, matchingType: 1, data: 'ab'.repeat(32) };
    const findings = analyzeDane([mx([stale, { usage: 2, selector: 0, matchingType: 1, data: 'cd'.repeat(32) }])]);
    expect(findings.map((f) => [f.id, f.severity, f.evidence])).toEqual([
      ['email.dane.mismatch', 'high', '_25._tcp.mx1.example.com: 3 1 1 abababababababab…, 2 0 1 cdcdcdcdcdcdcdcd…: none matches the presented certificate chain'],
    ]);
  });

  it('calls PKIX usages, unknown parameters and short digests unusable (low), and finds nothing for a match', () => {
    const findings = analyzeDane([
      mx([
        { usage: 1, selector: 1, matchingType: 1, data: sha256(spki(leaf)) },
        { usage: 3, selector: 2, matchingType: 1, data: sha256(spki(leaf)) },
        { usage: 3, selector: 1, matchingType: 1, data: 'abcd' },
      ]),
      mx([{ usage: 3, selector: 1, matchingType: 1, data: sha256(spki(leaf)) }], { host: 'mx2.example.com' }),
    ]);
    expect(findings.map((f) => [f.id, f.severity, f.evidence])).toEqual([
      [
        'email.dane.unusable-records',
        'low',
        `_25._tcp.mx1.example.com: 1 1 1 ${sha256(spki(leaf)).slice(0, 16)}…: usage 1 (PKIX-EE) is not used for SMTP; 3 2 1 ${sha256(spki(leaf)).slice(0, 16)}…: selector 2 is unknown; 3 1 1 abcd: matching type 1 needs 32 bytes, the record has 2`,
      ],
    ]);
  });

  it('calls TLSA records without DNSSEC signatures medium and judges them no further: senders ignore them', () => {
    const stale = { usage: 3, selector: 1, matchingType: 1, data: 'ab'.repeat(32) };
    const findings = analyzeDane([mx([stale], { signed: false }), mx([stale, stale], { host: 'mx2.example.com', signed: false })]);
    expect(findings.map((f) => [f.id, f.severity, f.evidence])).toEqual([
      ['email.dane.unsigned', 'medium', '_25._tcp.mx1.example.com: 1 TLSA record, no RRSIG; _25._tcp.mx2.example.com: 2 TLSA records, no RRSIG'],
    ]);
    expect(ids(analyzeDane([mx([stale], { signed: true })]))).toEqual([['email.dane.mismatch', 'high']]);
  });

  it("judges the TLSA records by their DNSSEC validation: secure ones against the chain, bogus ones high, insecure ones ignored, indeterminate ones not at all", () => {
    const stale = { usage: 3, selector: 1, matchingType: 1, data: 'ab'.repeat(32) };
    // Secure: senders use the records, so the stale one is the mismatch it always was.
    expect(ids(analyzeDane([mx([stale], { signed: true, dnssec: 'secure' })]))).toEqual([['email.dane.mismatch', 'high']]);
    // Bogus: validating senders get SERVFAIL for the TLSA lookup and defer; the records are compared with nothing.
    const bogus = analyzeDane([mx([stale], { signed: true, dnssec: 'bogus', dnssecReason: 'TLSA _25._tcp.mx1.example.com: the signature by key 4242 (ECDSAP256SHA256) expired on 2020-02-01' })]);
    expect(bogus.map((f) => [f.id, f.severity, f.evidence])).toEqual([
      ['email.dane.bogus', 'high', '_25._tcp.mx1.example.com: TLSA _25._tcp.mx1.example.com: the signature by key 4242 (ECDSAP256SHA256) expired on 2020-02-01'],
    ]);
    expect(bogus[0]!.recommendation).toMatch(/Re-sign the MX host's zone/);
    // Insecure with an RRSIG (no DS at the parent): ignored by senders, and the reason given.
    const insecure = analyzeDane([mx([stale], { signed: true, dnssec: 'insecure', dnssecReason: 'com publishes no DS record for example.com: the zone is not signed as far as resolvers can tell' })]);
    expect(insecure.map((f) => [f.id, f.severity, f.evidence])).toEqual([
      ['email.dane.unsigned', 'medium', '_25._tcp.mx1.example.com: 1 TLSA record, signed, but no chain of trust leads to them: com publishes no DS record for example.com: the zone is not signed as far as resolvers can tell'],
    ]);
    expect(ids(analyzeDane([mx([stale], { signed: false, dnssec: 'insecure', dnssecReason: 'no DS' })]))).toEqual([['email.dane.unsigned', 'medium']]);
    // Indeterminate: the validation could not be carried out; no verdict, and DANE does not count as applied.
    const open = mx([stale], { signed: true, dnssec: 'indeterminate', dnssecReason: 'The DNSKEY query for example.com failed: ETIMEOUT' });
    expect(analyzeDane([open])).toEqual([]);
    expect(daneUsed(open)).toBe(false);
    // Data from before validation: an RRSIG was all there was to go by.
    expect(daneUsed(mx([stale], { signed: true }))).toBe(true);
    expect(daneUsed(mx([stale], { signed: false }))).toBe(false);
  });

  it('leaves an MX it could not reach over TLS unjudged', () => {
    expect(verifyDane(mx([{ usage: 3, selector: 1, matchingType: 1, data: 'ab'.repeat(32) }], { chain: undefined }))).toEqual({ host: 'mx1.example.com', result: 'not-checked', reason: 'no TLS session with the server' });
    expect(analyzeDane([mx([{ usage: 3, selector: 1, matchingType: 1, data: 'ab'.repeat(32) }], { chain: undefined })])).toEqual([]);
  });
});

describe('DKIM selectors', () => {
  it("tries the providers' defaults first, then the knowledge base's list, each once", () => {
    expect(DKIM_SELECTORS.slice(0, 4)).toEqual(['default', 'google', 'selector1', 'selector2']);
    expect(DKIM_SELECTORS).toEqual(expect.arrayContaining(['zendesk1', 'smtpapi', 's2048', 'fm1', 'k3']));
    expect(new Set(DKIM_SELECTORS).size).toBe(DKIM_SELECTORS.length);
    expect(DKIM_SELECTORS.length).toBe(62);
  });

  it.skipIf(!existsSync(resolve('../shared/data/dkim-selectors.txt')))('builds the same dkim-selectors.json from the shared list', async () => {
    const { buildDkimSelectors } = await import('../../../bin/build-dkim-selectors.js');
    const out = mkdtempSync(join(tmpdir(), 'dkim-selectors-'));
    try {
      expect(buildDkimSelectors(resolve('../shared/data'), out)).toEqual({ selectors: 47, bytes: 812 });
      expect(readFileSync(join(out, 'dkim-selectors.json'), 'utf8')).toBe(readFileSync('lambdas/scanner/data/dkim-selectors.json', 'utf8'));
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
