import { describe, expect, it } from 'vitest';
import { analyzeCertificate, isSelfSigned, keyOf } from '../../../lambdas/scanner/checks/tls/certificate.js';
import { describeCipher } from '../../../lambdas/scanner/checks/tls/cipher-suite.js';
import { tlsFindings } from '../../../lambdas/scanner/checks/tls/findings.js';
import { gradePort, worstGrade, type GradeInput } from '../../../lambdas/scanner/checks/tls/grade.js';
import { hstsIssues, parseHsts } from '../../../lambdas/scanner/checks/tls/hsts.js';
import { analyzePort, needsRestrictedProbes, type PortProbe } from '../../../lambdas/scanner/checks/tls/port.js';
import { redirectIssues, summarizeRedirect } from '../../../lambdas/scanner/checks/tls/redirect.js';
import { signatureAlgorithmOf } from '../../../lambdas/scanner/checks/tls/signature-algorithm.js';
import { analyzeTls } from '../../../lambdas/scanner/checks/tls.check.js';
import type { TlsFailure } from '../../../lambdas/scanner/net/tls-client.js';
import { cert, DAY, handshake, suites, validity } from './tls-fixtures.js';

const ids = (issues: { id: string; severity: string }[]) => issues.map((i) => [i.id, i.severity]);

describe('signature algorithm from the certificate DER', () => {
  it.each([
    ['leaf-rsa2048-sha256', '1.2.840.113549.1.1.11', 'sha256WithRSAEncryption', 'sha256'],
    ['leaf-sha1', '1.2.840.113549.1.1.5', 'sha1WithRSAEncryption', 'sha1'],
    ['self-rsa1024-sha1', '1.2.840.113549.1.1.5', 'sha1WithRSAEncryption', 'sha1'],
    ['self-md5', '1.2.840.113549.1.1.4', 'md5WithRSAEncryption', 'md5'],
    ['self-ec384', '1.2.840.10045.4.3.3', 'ecdsa-with-SHA384', 'sha384'],
    ['self-pss-sha256', '1.2.840.113549.1.1.10', 'rsassaPss-sha256', 'sha256'],
    ['self-ed25519', '1.3.101.112', 'ED25519', 'intrinsic'],
  ])('reads %s as %s (%s)', (fixture, oid, name, hash) => {
    expect(signatureAlgorithmOf(cert(fixture).raw)).toEqual({ oid, name, hash });
  });

  it('refuses bytes that are not a certificate', () => {
    expect(() => signatureAlgorithmOf(Buffer.from('30 03 02 01 01'.replace(/ /g, ''), 'hex'))).toThrow('Certificate has no signatureAlgorithm');
    expect(() => signatureAlgorithmOf(Buffer.from('3082ffff', 'hex'))).toThrow('DER element runs past its container');
  });
});

describe('certificate analysis', () => {
  const good = validity('leaf-rsa2048-sha256');
  const chain = [cert('leaf-rsa2048-sha256'), cert('intermediate-ca'), cert('root-ca')];
  const at = (ms: number) => new Date(ms);

  it('summarises a trusted RSA-2048 SHA-256 chain and raises nothing', () => {
    const now = at(good.notAfter.getTime() - 100 * DAY - 1000);
    const result = analyzeCertificate({ certificates: chain, authorized: true, name: 'www.shop.example.test', now })!;
    expect(result.issues).toEqual([]);
    expect(result.summary).toMatchObject({
      subject: 'CN=shop.example.test, O=Rampart Test',
      commonName: 'shop.example.test',
      issuer: 'CN=Rampart Test Intermediate CA, O=Rampart Test',
      sans: ['DNS:shop.example.test', 'DNS:www.shop.example.test'],
      daysLeft: 100,
      expired: false,
      keyType: 'rsa',
      keySize: 2048,
      signatureAlgorithm: 'sha256WithRSAEncryption',
      weakSignature: null,
      selfSigned: false,
      trusted: true,
      trustError: null,
      hostnameMatch: true,
    });
    expect(result.summary.chain.map((c) => [c.subject, c.selfSigned])).toEqual([
      ['CN=Rampart Test Intermediate CA, O=Rampart Test', false],
      ['CN=Rampart Test Root CA, O=Rampart Test', true],
    ]);
    expect(result.summary.notAfter).toBe(good.notAfter.toISOString());
  });

  it('reports an expired certificate once, not also as untrusted', () => {
    const now = at(good.notAfter.getTime() + 3 * DAY);
    const { issues } = analyzeCertificate({ certificates: chain, authorized: false, authorizationError: 'CERT_HAS_EXPIRED', name: 'shop.example.test', now })!;
    expect(ids(issues)).toEqual([['tls.cert.expired', 'high']]);
    expect(issues[0]!.evidence).toBe(`expired on ${good.notAfter.toISOString().slice(0, 10)} (3 days ago)`);
  });

  it.each([
    [10, 'medium'],
    [20, 'low'],
  ])('flags a certificate with %i days left as %s', (days, severity) => {
    const now = at(good.notAfter.getTime() - days * DAY - 1000);
    const { issues } = analyzeCertificate({ certificates: chain, authorized: true, name: 'shop.example.test', now })!;
    expect(ids(issues)).toEqual([['tls.cert.expiring-soon', severity]]);
  });

  it('flags a certificate that is not valid yet', () => {
    const now = at(good.notBefore.getTime() - DAY);
    const { issues } = analyzeCertificate({ certificates: chain, authorized: false, authorizationError: 'CERT_NOT_YET_VALID', name: 'shop.example.test', now })!;
    expect(ids(issues)).toEqual([['tls.cert.not-yet-valid', 'high']]);
  });

  it('finds every fault of the range-style certificate: self-signed, wrong name, RSA-1024, SHA-1', () => {
    const weak = cert('self-rsa1024-sha1');
    const { summary, issues } = analyzeCertificate({
      certificates: [weak],
      authorized: false,
      authorizationError: 'DEPTH_ZERO_SELF_SIGNED_CERT',
      name: 'shop.example.test',
      now: at(validity('self-rsa1024-sha1').notBefore.getTime() + DAY),
    })!;
    expect(ids(issues)).toEqual([
      ['tls.cert.self-signed', 'high'],
      ['tls.cert.hostname-mismatch', 'high'],
      ['tls.cert.weak-key', 'high'],
      ['tls.cert.weak-signature', 'high'],
    ]);
    expect(issues.map((i) => i.evidence)).toEqual([
      'self-signed: CN=wrong.example.test, O=Rampart Test',
      'issued for no subjectAltName, CN=wrong.example.test, not shop.example.test',
      'RSA key of 1024 bits (2048 is the minimum)',
      'the certificate is signed with sha1WithRSAEncryption',
    ]);
    expect(summary).toMatchObject({ selfSigned: true, keySize: 1024, weakSignature: 'sha1', hostnameMatch: false, trustError: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
  });

  it('explains an untrusted chain in plain words', () => {
    const { issues } = analyzeCertificate({
      certificates: chain.slice(0, 2),
      authorized: false,
      authorizationError: 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
      name: 'shop.example.test',
      now: at(good.notBefore.getTime() + DAY),
    })!;
    expect(ids(issues)).toEqual([['tls.cert.untrusted', 'high']]);
    expect(issues[0]!.evidence).toContain('its issuer is not a trusted certificate authority, or the server does not send the intermediate certificate (UNABLE_TO_GET_ISSUER_CERT_LOCALLY)');
  });

  it('flags a SHA-1 signature from a trusted CA, but not SHA-1 on a trust anchor', () => {
    const now = at(good.notBefore.getTime() + DAY);
    const sha1Leaf = analyzeCertificate({ certificates: [cert('leaf-sha1'), cert('intermediate-ca')], authorized: true, name: 'shop.example.test', now })!;
    expect(ids(sha1Leaf.issues)).toEqual([['tls.cert.weak-signature', 'high']]);
    const sha1Anchor = analyzeCertificate({ certificates: [cert('leaf-rsa2048-sha256'), cert('self-rsa1024-sha1')], authorized: true, name: 'shop.example.test', now })!;
    expect(sha1Anchor.summary.weakSignature).toBeNull();
  });

  it('flags an MD5 signature and an EC key under 256 bits', () => {
    const now = at(validity('self-md5').notBefore.getTime() + DAY);
    const md5 = analyzeCertificate({ certificates: [cert('self-md5')], authorized: false, authorizationError: 'DEPTH_ZERO_SELF_SIGNED_CERT', name: 'md5.example.test', now })!;
    expect(md5.summary.weakSignature).toBe('md5');
    expect(md5.issues.find((i) => i.id === 'tls.cert.weak-signature')!.evidence).toBe('the certificate is signed with md5WithRSAEncryption');
    const ec = analyzeCertificate({ certificates: [cert('self-ec224')], authorized: true, name: 'shop.example.test', now })!;
    expect(ids(ec.issues)).toEqual([['tls.cert.self-signed', 'high'], ['tls.cert.weak-key', 'high']]);
    expect(ec.summary).toMatchObject({ keyType: 'ec', keySize: 224, curve: 'secp224r1' });
  });

  it('matches names like a browser: wildcards one level deep, IP addresses, no partial wildcards', () => {
    const now = at(good.notBefore.getTime() + DAY);
    const match = (fixture: string, name: string) => analyzeCertificate({ certificates: [cert(fixture)], authorized: true, name, now })!.summary.hostnameMatch;
    expect(match('leaf-wildcard', 'www.example.test')).toBe(true);
    expect(match('leaf-wildcard', 'a.b.example.test')).toBe(false);
    expect(match('self-ip', '127.0.0.1')).toBe(true);
    expect(match('self-ip', '127.0.0.2')).toBe(false);
    expect(match('leaf-rsa2048-sha256', 'shop.example.test.evil.test')).toBe(false);
  });

  it('reads key types and self-signature', () => {
    expect(keyOf(cert('leaf-ec256'))).toEqual({ keyType: 'ec', keySize: 256, curve: 'prime256v1' });
    expect(keyOf(cert('self-ed25519'))).toEqual({ keyType: 'ed25519', keySize: 256, curve: null });
    expect([isSelfSigned(cert('root-ca')), isSelfSigned(cert('intermediate-ca')), isSelfSigned(cert('self-pss-sha256'))]).toEqual([true, false, true]);
  });
});

describe('cipher suites', () => {
  it.each([
    ['TLSv1.3', suites.tls13, { keyExchange: 'ECDHE', forwardSecrecy: true, aead: true, cbc: false, bits: 256 }],
    ['TLSv1.2', suites.ecdheGcm, { keyExchange: 'ECDHE', forwardSecrecy: true, aead: true, cbc: false, bits: 256 }],
    ['TLSv1', suites.ecdheCbc10, { keyExchange: 'ECDHE', forwardSecrecy: true, aead: false, cbc: true, bits: 256 }],
    ['TLSv1.2', suites.rsaCbc, { keyExchange: 'RSA', forwardSecrecy: false, aead: false, cbc: true, bits: 128 }],
    ['TLSv1.2', { name: 'DES-CBC3-SHA', standardName: 'TLS_RSA_WITH_3DES_EDE_CBC_SHA', version: 'TLSv1.0' }, { keyExchange: 'RSA', bits: 112, cbc: true }],
    ['TLSv1', { name: 'EXP-RC4-MD5', version: 'TLSv1.0' }, { keyExchange: 'RSA', bits: 40, export: true, cbc: false }],
    ['TLSv1', { name: 'EXP-EDH-RSA-DES-CBC-SHA', version: 'TLSv1.0' }, { keyExchange: 'DHE', bits: 40, export: true, cbc: true }],
    ['TLSv1.2', { name: 'ADH-AES256-GCM-SHA384', standardName: 'TLS_DH_anon_WITH_AES_256_GCM_SHA384', version: 'TLSv1.2' }, { keyExchange: 'anon', forwardSecrecy: false }],
    ['TLSv1.2', { name: 'ECDHE-RSA-CHACHA20-POLY1305', standardName: 'TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256', version: 'TLSv1.2' }, { aead: true, bits: 256 }],
  ] as const)('%s %s', (protocol, cipher, expected) => {
    expect(describeCipher({ protocol, cipher, ephemeralKey: null })).toMatchObject(expected);
  });
});

describe('HSTS', () => {
  it('parses the first header, case-insensitively, with quoted values', () => {
    expect(parseHsts(['MAX-AGE="31536000"; includeSubdomains; Preload', 'max-age=0'])).toEqual({
      header: 'MAX-AGE="31536000"; includeSubdomains; Preload',
      valid: true,
      maxAge: 31536000,
      includeSubDomains: true,
      preload: true,
    });
  });

  it.each([
    [undefined, 'tls.hsts.missing', 'medium', 'https://shop.example.test/ sends no Strict-Transport-Security header'],
    [['max-age=abc'], 'tls.hsts.missing', 'medium', 'https://shop.example.test/ sends an invalid Strict-Transport-Security header (max-age "abc" is not a number of seconds): max-age=abc'],
    [['max-age=1; max-age=2'], 'tls.hsts.missing', 'medium', 'https://shop.example.test/ sends an invalid Strict-Transport-Security header (directive "max-age" appears twice): max-age=1; max-age=2'],
    [['includeSubDomains'], 'tls.hsts.missing', 'medium', 'https://shop.example.test/ sends an invalid Strict-Transport-Security header (max-age is missing): includeSubDomains'],
    [['max-age=0'], 'tls.hsts.missing', 'medium', 'https://shop.example.test/ sends max-age=0, which switches HSTS off'],
    [['max-age=86400'], 'tls.hsts.short-max-age', 'low', 'https://shop.example.test/: max-age=86400 (1 days; at least 15768000 = 182 days is recommended)'],
  ])('judges %j', (values, id, severity, evidence) => {
    expect(hstsIssues(parseHsts(values), 'https://shop.example.test/')).toEqual([{ id, severity, evidence }]);
  });

  it('accepts six months or more', () => {
    expect(hstsIssues(parseHsts(['max-age=15768000']), 'https://x.test/')).toEqual([]);
  });
});

describe('HTTP to HTTPS redirect', () => {
  const response = (url: string, redirects: { url: string; status: number; location: string }[]) => ({ url, status: 200, headers: {}, body: '', redirects });

  it('is satisfied when plain HTTP ends on https', () => {
    const report = summarizeRedirect('http://shop.example.test/', response('https://shop.example.test/', [{ url: 'http://shop.example.test/', status: 301, location: 'https://shop.example.test/' }]));
    expect(report.endsOnHttps).toBe(true);
    expect(redirectIssues(report)).toEqual([]);
  });

  it('reports plain HTTP that stays on http, with the hops', () => {
    const report = summarizeRedirect('http://shop.example.test/', response('http://shop.example.test/home', [{ url: 'http://shop.example.test/', status: 302, location: '/home' }]));
    expect(redirectIssues(report)).toEqual([
      { id: 'tls.redirect.no-https-redirect', severity: 'medium', evidence: 'http://shop.example.test/ 302 → /home, then answers 200 over plain HTTP at http://shop.example.test/home' },
    ]);
  });
});

const modernCert = { keyType: 'rsa', keySize: 2048, trusted: true, selfSigned: false, expired: false, notYetValid: false, weakSignature: null, hostnameMatch: true, trustError: null, checkedName: 'shop.example.test' };
const gradeInput = (overrides: Partial<GradeInput> & { cert?: Partial<typeof modernCert> } = {}): GradeInput => {
  const { cert: certOverrides, ...rest } = overrides;
  return {
    offered: ['TLSv1.2', 'TLSv1.3'],
    ciphers: [describeCipher({ protocol: 'TLSv1.2', cipher: suites.ecdheGcm, ephemeralKey: { type: 'ECDH', name: 'X25519', size: 253 } })!,
      describeCipher({ protocol: 'TLSv1.3', cipher: suites.tls13, ephemeralKey: { type: 'ECDH', name: 'X25519', size: 253 } })!],
    certificate: { ...modernCert, ...certOverrides } as GradeInput['certificate'],
    hsts: parseHsts(['max-age=31536000']),
    ...rest,
  };
};

describe('grade (SSL Labs rating guide with testssl caps)', () => {
  it('gives A+ to TLS 1.2/1.3, ECDHE-GCM, RSA-2048 and a year of HSTS; scores 100/90/100', () => {
    expect(gradePort(gradeInput())).toEqual({ grade: 'A+', gradeIgnoringTrust: 'A+', score: 97, protocolScore: 100, keyExchangeScore: 90, cipherScore: 100, caps: [] });
  });

  it('gives A without HSTS, A− with short HSTS or without TLS 1.3', () => {
    expect(gradePort(gradeInput({ hsts: parseHsts(undefined) }))!.grade).toBe('A');
    expect(gradePort(gradeInput({ hsts: parseHsts(['max-age=86400']) }))!.caps).toEqual([{ grade: 'A-', reason: 'HSTS max-age under 180 days' }]);
    const no13 = gradePort(gradeInput({ offered: ['TLSv1.2'] }))!;
    expect([no13.grade, no13.caps]).toEqual(['A-', [{ grade: 'A-', reason: 'TLS 1.3 not offered' }]]);
  });

  it('caps at B for TLS 1.0, no forward secrecy, no AEAD, RSA-1024 or a 1024-bit DH group', () => {
    const rsaOnly = [describeCipher({ protocol: 'TLSv1.2', cipher: suites.rsaCbc, ephemeralKey: null })!];
    const graded = gradePort(gradeInput({ offered: ['TLSv1', 'TLSv1.2'], ciphers: rsaOnly, cert: { keySize: 1024 } }))!;
    expect(graded.grade).toBe('B');
    expect(graded.caps.map((c) => c.reason)).toEqual([
      'TLS 1.0 or 1.1 offered',
      'no AEAD cipher (GCM, ChaCha20-Poly1305, CCM)',
      'no forward secrecy',
      'RSA key of 1024 bits',
      'TLS 1.3 not offered',
    ]);
    const dh = gradePort(gradeInput({ ciphers: [...gradeInput().ciphers, describeCipher({ protocol: 'TLSv1.2', cipher: suites.dheGcm, ephemeralKey: { type: 'DH', size: 1024 } })!] }))!;
    expect([dh.grade, dh.keyExchangeScore, dh.caps]).toEqual(['B', 80, [{ grade: 'B', reason: 'DH group of 1024 bits' }]]);
  });

  it('caps at C without TLS 1.2, at F for an MD5 signature or a 512-bit key', () => {
    const tls10 = [describeCipher({ protocol: 'TLSv1', cipher: suites.ecdheCbc10, ephemeralKey: { type: 'ECDH', name: 'X25519', size: 253 } })!];
    expect(gradePort(gradeInput({ offered: ['TLSv1'], ciphers: tls10 }))!.grade).toBe('C');
    expect(gradePort(gradeInput({ cert: { weakSignature: 'md5' as never, trusted: false, trustError: 'X' as never } }))!.grade).toBe('F');
    expect(gradePort(gradeInput({ cert: { keySize: 512 } }))!.caps[0]).toEqual({ grade: 'F', reason: 'insecure RSA key of 512 bits' });
  });

  it('shows T for trust problems and M for a name mismatch, with the grade they hide', () => {
    const selfSigned = gradePort(gradeInput({ cert: { trusted: false, selfSigned: true, trustError: 'DEPTH_ZERO_SELF_SIGNED_CERT' as never, hostnameMatch: false } }))!;
    expect([selfSigned.grade, selfSigned.gradeIgnoringTrust]).toEqual(['T', 'A+']);
    expect(selfSigned.caps.map((c) => c.grade)).toEqual(['T', 'M']);
    const mismatch = gradePort(gradeInput({ cert: { hostnameMatch: false } }))!;
    expect([mismatch.grade, mismatch.gradeIgnoringTrust]).toEqual(['M', 'A+']);
    expect(gradePort(gradeInput({ cert: { weakSignature: 'sha1' as never } }))!.grade).toBe('T');
  });

  it('ranks ports worst-first into one grade', () => {
    expect(worstGrade(['A+', 'B', 'A-'])).toBe('B');
    expect(worstGrade(['C', 'T'])).toBe('T');
    expect(worstGrade(['T', 'F'])).toBe('F');
    expect(worstGrade([])).toBeNull();
  });

  it('grades nothing when no protocol was offered', () => {
    expect(gradePort(gradeInput({ offered: [] }))).toBeNull();
  });
});

const refused: TlsFailure = { failed: 'ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:443', code: 'ECONNREFUSED', connected: false };
const alert: TlsFailure = { failed: 'ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION: tlsv1 alert protocol version', code: 'ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION', connected: true };

/** The scan range's Apache, as the probe would capture it (expired SHA-1 RSA-1024 self-signed cert, wrong name, DHE 1024). */
function legacyProbe(port: number): PortProbe {
  const certificates = [cert('self-rsa1024-sha1')];
  const common = { certificates, authorized: false, authorizationError: 'DEPTH_ZERO_SELF_SIGNED_CERT' };
  return {
    port,
    versions: {
      TLSv1: handshake('TLSv1', suites.ecdheCbc10, common),
      'TLSv1.1': handshake('TLSv1.1', suites.ecdheCbc10, common),
      'TLSv1.2': handshake('TLSv1.2', suites.ecdheGcm, common),
      'TLSv1.3': handshake('TLSv1.3', suites.tls13, common),
    },
    restricted: { dhe: handshake('TLSv1.2', suites.dheGcm, { ...common, ephemeralKey: { type: 'DH', size: 1024 } }) },
  };
}

describe('one port', () => {
  const expiredNow = new Date(validity('self-rsa1024-sha1').notAfter.getTime() + 10 * DAY);

  it('asks only the follow-up handshakes the version handshakes leave open', () => {
    expect(needsRestrictedProbes({ 'TLSv1.3': handshake('TLSv1.3', suites.tls13) })).toEqual([]);
    expect(needsRestrictedProbes({ 'TLSv1.2': handshake('TLSv1.2', suites.ecdheGcm), 'TLSv1.3': refused })).toEqual(['dhe', 'cbc']);
    expect(needsRestrictedProbes({ 'TLSv1.2': handshake('TLSv1.2', suites.rsaCbc, { ephemeralKey: null }) })).toEqual(['forwardSecrecy', 'aead', 'dhe']);
  });

  it('reports protocols, suites, DH size, certificate and grade of the range-style Apache', () => {
    const { report, issues } = analyzePort(legacyProbe(4443), { name: 'shop.example.test', now: expiredNow, hsts: parseHsts(undefined) });
    expect(report.offered).toEqual(['TLSv1', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3']);
    expect(report.protocols.map((p) => p.cipher)).toEqual(['ECDHE-RSA-AES256-SHA', 'ECDHE-RSA-AES256-SHA', 'ECDHE-RSA-AES256-GCM-SHA384', 'TLS_AES_256_GCM_SHA384']);
    expect([report.forwardSecrecy, report.aead, report.cbcOffered, report.cbcOnly, report.dhBits]).toEqual([true, true, true, false, 1024]);
    expect(report.certificate).toMatchObject({ subject: 'CN=wrong.example.test, O=Rampart Test', expired: true, keySize: 1024, signatureAlgorithm: 'sha1WithRSAEncryption' });
    expect([report.grade!.grade, report.grade!.gradeIgnoringTrust]).toEqual(['T', 'B']);
    expect(ids(issues)).toEqual([
      ['tls.protocol.tls10', 'medium'],
      ['tls.protocol.tls11', 'low'],
      ['tls.cipher.weak-dh', 'medium'],
      ['tls.cert.expired', 'high'],
      ['tls.cert.self-signed', 'high'],
      ['tls.cert.hostname-mismatch', 'high'],
      ['tls.cert.weak-key', 'high'],
      ['tls.cert.weak-signature', 'high'],
    ]);
    expect(issues.every((i) => i.port === 4443)).toBe(true);
  });

  it('reports TLS 1.2 only with static RSA and CBC as no TLS 1.3, no forward secrecy, no AEAD', () => {
    const h = handshake('TLSv1.2', suites.rsaCbc, { ephemeralKey: null });
    const probe: PortProbe = {
      port: 443,
      versions: { TLSv1: alert, 'TLSv1.1': alert, 'TLSv1.2': h, 'TLSv1.3': alert },
      restricted: { forwardSecrecy: alert, aead: alert, dhe: alert },
    };
    const { report, issues } = analyzePort(probe, { name: 'shop.example.test', now: new Date(validity('leaf-rsa2048-sha256').notBefore.getTime() + DAY), hsts: null });
    expect(ids(issues)).toEqual([
      ['tls.protocol.no-tls13', 'info'],
      ['tls.cipher.no-forward-secrecy', 'medium'],
      ['tls.cipher.no-aead', 'low'],
    ]);
    expect(issues[1]!.evidence).toBe('no ECDHE or DHE suite accepted; negotiated AES128-SHA (TLS 1.2)');
    expect([report.cbcOnly, report.protocols[0]!.error]).toEqual([true, alert.failed]);
    expect(report.grade!.grade).toBe('B');
  });
});

describe('one port: root causes, not their consequences', () => {
  const now = new Date(validity('leaf-rsa2048-sha256').notBefore.getTime() + DAY);
  const port = (versions: PortProbe['versions'], restricted: PortProbe['restricted'] = {}): PortProbe => ({ port: 443, versions, restricted });

  it('reports a TLS 1.0-only server as missing TLS 1.2, not also as missing TLS 1.3 and AEAD', () => {
    const h = handshake('TLSv1', suites.ecdheCbc10);
    const { issues } = analyzePort(port({ TLSv1: h, 'TLSv1.1': alert, 'TLSv1.2': alert, 'TLSv1.3': alert }), { name: 'shop.example.test', now, hsts: null });
    expect(ids(issues)).toEqual([['tls.protocol.tls10', 'medium'], ['tls.protocol.no-tls12', 'high']]);
  });

  it('reports anonymous suites instead of "no forward secrecy", and breakable suites', () => {
    const anon = handshake('TLSv1.2', { name: 'ADH-AES256-GCM-SHA384', standardName: 'TLS_DH_anon_WITH_AES_256_GCM_SHA384', version: 'TLSv1.2' }, { certificates: [], ephemeralKey: { type: 'DH', size: 2048 } });
    const des = handshake('TLSv1.2', { name: 'DES-CBC-SHA', standardName: 'TLS_RSA_WITH_DES_CBC_SHA', version: 'TLSv1.0' }, { ephemeralKey: null });
    const { report, issues } = analyzePort(port({ 'TLSv1.2': anon, 'TLSv1.3': alert }, { cbc: des }), { name: 'shop.example.test', now, hsts: null });
    expect(ids(issues)).toEqual([['tls.protocol.no-tls13', 'info'], ['tls.cipher.anonymous', 'high'], ['tls.cipher.weak', 'high']]);
    expect(issues.map((i) => i.evidence)).toEqual([
      'highest version offered is TLS 1.2',
      'unauthenticated suites accepted: ADH-AES256-GCM-SHA384 (TLS 1.2)',
      'suites under 112 bits accepted: DES-CBC-SHA (TLS 1.2)',
    ]);
    expect([report.certificate, report.grade!.grade]).toEqual([null, 'F']);
  });
});

describe('TLS findings across ports', () => {
  const now = new Date(validity('self-rsa1024-sha1').notAfter.getTime() + 10 * DAY);
  const ok = (url: string, headers: Record<string, string[]> = {}) => ({ ok: true as const, value: { url, status: 200, headers, body: '', redirects: [] } });

  it('merges the same problem on two ports into one finding that names both', () => {
    const { findings, data } = analyzeTls({
      name: 'shop.example.test',
      now,
      primary: legacyProbe(443),
      extra: [legacyProbe(8443)],
      https: { url: 'https://shop.example.test/', response: ok('https://shop.example.test/') },
      plain: { url: 'http://shop.example.test/', response: ok('http://shop.example.test/') },
    });
    expect(findings.map((f) => [f.id, f.severity])).toEqual([
      ['tls.protocol.tls10', 'medium'],
      ['tls.protocol.tls11', 'low'],
      ['tls.cipher.weak-dh', 'medium'],
      ['tls.cert.expired', 'high'],
      ['tls.cert.self-signed', 'high'],
      ['tls.cert.hostname-mismatch', 'high'],
      ['tls.cert.weak-key', 'high'],
      ['tls.cert.weak-signature', 'high'],
      ['tls.hsts.missing', 'medium'],
      ['tls.redirect.no-https-redirect', 'medium'],
    ]);
    const tls10 = findings[0]!;
    expect(tls10).toMatchObject({
      check: 'tls',
      category: 'SSL/TLS',
      evidence: 'port 443: TLS 1.0 accepted (ECDHE-RSA-AES256-SHA); port 8443: TLS 1.0 accepted (ECDHE-RSA-AES256-SHA)',
      cves: ['CVE-2011-3389'],
    });
    expect(findings.find((f) => f.id === 'tls.cipher.weak-dh')!.cves).toEqual(['CVE-2015-4000']);
    expect(findings.every((f) => f.title && f.description && f.recommendation)).toBe(true);
    expect([data.grade, data.gradeIgnoringTrust, data.ports.map((p) => [p.port, p.source])]).toEqual(['T', 'B', [[443, 'target'], [8443, 'port-scan']]]);
  });

  it('reports no TLS at all when port 443 refuses while HTTP answers', () => {
    const probe: PortProbe = { port: 443, versions: { TLSv1: refused, 'TLSv1.1': refused, 'TLSv1.2': refused, 'TLSv1.3': refused }, restricted: {} };
    const { findings, data } = analyzeTls({
      name: 'shop.example.test',
      now,
      primary: probe,
      extra: [],
      https: { url: 'https://shop.example.test/', response: { ok: false, error: 'ECONNREFUSED: connect ECONNREFUSED' } },
      plain: { url: 'http://shop.example.test/', response: ok('http://shop.example.test/') },
    });
    expect(findings.map((f) => [f.id, f.severity, f.evidence])).toEqual([
      ['tls.none', 'high', `port 443: no TLS (${refused.failed}) while http://shop.example.test/ answers 200`],
    ]);
    expect([data.grade, data.hsts]).toEqual([null, { url: 'https://shop.example.test/', error: 'ECONNREFUSED: connect ECONNREFUSED' }]);
  });

  it("records the HSTS preload list's entry covering the host, and null off the list", () => {
    const input = {
      name: 'shop.example.test',
      now,
      primary: legacyProbe(443),
      extra: [],
      https: { url: 'https://shop.example.test/', response: ok('https://shop.example.test/') },
      plain: { url: 'http://shop.example.test/', response: ok('http://shop.example.test/') },
    };

    expect(analyzeTls({ ...input, hstsPreload: { name: 'example.test', includeSubDomains: true } }).data.hstsPreload).toEqual({ name: 'example.test', includeSubDomains: true });
    expect(analyzeTls(input).data.hstsPreload).toBeNull();
  });

  it('fails rather than passes a site that answers neither HTTPS nor HTTP', () => {
    const probe: PortProbe = { port: 443, versions: { TLSv1: refused, 'TLSv1.1': refused, 'TLSv1.2': refused, 'TLSv1.3': refused }, restricted: {} };
    const failed = { ok: false as const, error: 'ECONNREFUSED' };
    expect(() =>
      analyzeTls({ name: 'x.test', now, primary: probe, extra: [], https: { url: 'https://x.test/', response: failed }, plain: { url: 'http://x.test/', response: failed } }),
    ).toThrow(`Neither HTTPS (port 443: ${refused.failed}) nor HTTP (ECONNREFUSED) answered`);
  });

  it('keeps findings sorted by catalogue and the worst severity across ports', () => {
    const findings = tlsFindings([
      { id: 'tls.cert.expiring-soon', severity: 'low', evidence: 'expires in 20 days', port: 443 },
      { id: 'tls.protocol.tls10', severity: 'medium', evidence: 'TLS 1.0 accepted', port: 443 },
      { id: 'tls.cert.expiring-soon', severity: 'medium', evidence: 'expires in 5 days', port: 8443 },
    ]);
    expect(findings.map((f) => [f.id, f.severity, f.evidence])).toEqual([
      ['tls.protocol.tls10', 'medium', 'port 443: TLS 1.0 accepted'],
      ['tls.cert.expiring-soon', 'medium', 'port 443: expires in 20 days; port 8443: expires in 5 days'],
    ]);
  });
});
