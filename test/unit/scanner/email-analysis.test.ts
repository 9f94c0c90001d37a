import { generateKeyPairSync, X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { analyzeDkim, parseDkimKey } from '../../../lambdas/scanner/checks/email/dkim.js';
import { analyzeMx, type CertificateSummary, type MxContext, type MxObservation, summarizeCertificate } from '../../../lambdas/scanner/checks/email/mx.js';
import { selfSignedCertificate } from '../../support/smtp-server.js';

const certificate = (o: Partial<CertificateSummary> = {}): CertificateSummary => ({
  subject: 'CN=mx.example.com', issuer: "C=US, O=Let's Encrypt, CN=R11", validFrom: '2026-01-01T00:00:00.000Z', validTo: '2026-04-01T00:00:00.000Z',
  daysLeft: 40, expired: false, notYetValid: false, selfSigned: false, nameMatches: true, trusted: true, ...o,
});
const mx = (o: Partial<MxObservation> = {}): MxObservation => ({
  host: 'mx.example.com', preference: 10, addresses: ['192.0.2.25'], address: '192.0.2.25', starttls: true, dane: false,
  tls: { version: 'TLSv1.3', cipher: 'TLS_AES_256_GCM_SHA384', certificate: certificate() }, ...o,
});
const judged = (observations: MxObservation[], extra: Partial<MxContext> = {}) =>
  analyzeMx({ domain: 'example.com', mx: observations, nullMx: false, mtaSts: false, ...extra }).map((f) => [f.id, f.severity]);

describe('MX analysis', () => {
  it('finds nothing wrong with STARTTLS, TLS 1.3 and a trusted certificate for the name', () => {
    expect(judged([mx()])).toEqual([]);
  });

  it('rates a failed STARTTLS handshake high and an old protocol medium', () => {
    expect(judged([mx({ tls: { failed: 'ERR_SSL_WRONG_VERSION_NUMBER' } })])).toEqual([['email.mx.starttls-failed', 'high']]);
    expect(judged([mx({ tls: { version: 'TLSv1', cipher: 'ECDHE-RSA-AES128-SHA', certificate: certificate() } })])).toEqual([['email.mx.tls-old-version', 'medium']]);
  });

  it('notes a server that negotiates TLS 1.3 but still accepts TLS 1.0 or 1.1 (low), and not one that accepts only 1.2 and 1.3', () => {
    expect(judged([mx({ tlsVersionsOffered: ['TLSv1', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'] })])).toEqual([['email.mx.tls-legacy-accepted', 'low']]);
    expect(judged([mx({ tlsVersionsOffered: ['TLSv1.2', 'TLSv1.3'] })])).toEqual([]);
  });

  it('weighs certificate faults lightly under opportunistic TLS and as medium once MTA-STS or DANE make senders check', () => {
    const faulty = mx({ tls: { version: 'TLSv1.2', cipher: 'x', certificate: certificate({ expired: true, trusted: false, nameMatches: false, subject: 'CN=other.example' }) } });
    expect(judged([faulty])).toEqual([
      ['email.mx.certificate-expired', 'low'],
      ['email.mx.certificate-name-mismatch', 'info'],
    ]);
    expect(judged([faulty], { mtaSts: true })).toEqual([
      ['email.mx.certificate-expired', 'medium'],
      ['email.mx.certificate-name-mismatch', 'medium'],
    ]);
    expect(judged([{ ...faulty, dane: true }])).toEqual([
      ['email.mx.certificate-expired', 'medium'],
      ['email.mx.certificate-name-mismatch', 'medium'],
    ]);
    // An announcement senders do not act on (MTA-STS in testing, unsigned TLSA) keeps the light weights.
    expect(analyzeMx({ domain: 'example.com', mx: [{ ...faulty, dane: true }], nullMx: false, mtaSts: true }, { enforced: false }).map((f) => [f.id, f.severity])).toEqual([
      ['email.mx.certificate-expired', 'low'],
      ['email.mx.certificate-name-mismatch', 'info'],
    ]);
  });

  it('names every affected MX in one finding per fault', () => {
    const findings = analyzeMx({ domain: 'example.com', mx: [mx({ host: 'a.example.com', starttls: false, tls: undefined }), mx({ host: 'b.example.com', starttls: false, tls: undefined, address: '192.0.2.26' })], nullMx: false, mtaSts: false });
    expect(findings.map((f) => [f.id, f.evidence])).toEqual([['email.mx.no-starttls', 'a.example.com (192.0.2.25): EHLO lists no STARTTLS; b.example.com (192.0.2.26): EHLO lists no STARTTLS']]);
  });

  it('says nothing about the mail servers of a null-MX domain', () => {
    expect(judged([], { nullMx: true })).toEqual([]);
  });

  it('reports a failed MX lookup as unknown rather than as "no MX"', () => {
    expect(judged([], { lookupError: 'ETIMEOUT' })).toEqual([['email.mx.lookup-failed', 'info']]);
  });
});

describe('certificate summary', () => {
  it('reads a self-signed certificate for another name as self-signed, mismatched and untrusted', () => {
    const cert = new X509Certificate(selfSignedCertificate('other.example.test', 10).cert);
    const now = new Date();
    const summary = summarizeCertificate(cert, 'mail.example.test', { authorized: false, authorizationError: 'DEPTH_ZERO_SELF_SIGNED_CERT' }, now);
    expect(summary).toMatchObject({ subject: 'CN=other.example.test', selfSigned: true, nameMatches: false, trusted: false, expired: false, keyType: 'ec', keyBits: 256 });
    expect(summary.daysLeft).toBeGreaterThanOrEqual(9);
    const later = summarizeCertificate(cert, 'other.example.test', { authorized: false }, new Date(now.getTime() + 11 * 86_400_000));
    expect([later.expired, later.nameMatches]).toEqual([true, true]);
  });
});

describe('DKIM', () => {
  const key = (bits: number) => generateKeyPairSync('rsa', { modulusLength: bits }).publicKey.export({ format: 'der', type: 'spki' }).toString('base64');

  it('reads the key type, size, revocation and testing flag', () => {
    expect(parseDkimKey('s1', `v=DKIM1; k=rsa; t=y; p=${key(1024)}`)).toEqual({ selector: 's1', keyType: 'rsa', bits: 1024, revoked: false, testing: true });
    expect(parseDkimKey('old', 'v=DKIM1; p=')).toEqual({ selector: 'old', keyType: 'rsa', revoked: true, testing: false });
    expect(parseDkimKey('ed', 'v=DKIM1; k=ed25519; p=11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=')).toMatchObject({ keyType: 'ed25519', bits: 256 });
    expect(parseDkimKey('x', 'v=spf1 -all')).toBeUndefined();
  });

  it('rates an RSA key under 1024 bits medium', () => {
    const weak = parseDkimKey('mail', `v=DKIM1; p=${key(512)}`)!;
    const findings = analyzeDkim({ domain: 'example.com', domainkey: 'NOERROR', selectorsTried: ['mail'], selectorsFound: [weak] }, { sendsNoMail: false });
    expect(findings.map((f) => [f.id, f.severity, f.evidence])).toEqual([['email.dkim.weak-key', 'medium', 'mail._domainkey.example.com: RSA 512 bits']]);
  });

  it('counts _domainkey answering NOERROR as DKIM present even when no common selector matches', () => {
    expect(analyzeDkim({ domain: 'example.com', domainkey: 'NOERROR', selectorsTried: ['default'], selectorsFound: [] }, { sendsNoMail: false })).toEqual([]);
  });

  it('notes no key found as info, and not at all for a domain that sends no mail', () => {
    const none = { domain: 'example.com', domainkey: 'NXDOMAIN', selectorsTried: ['default'], selectorsFound: [] };
    expect(analyzeDkim(none, { sendsNoMail: false }).map((f) => [f.id, f.severity])).toEqual([['email.dkim.not-found', 'info']]);
    expect(analyzeDkim(none, { sendsNoMail: true })).toEqual([]);
  });
});
