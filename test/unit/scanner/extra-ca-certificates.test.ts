/**
 * ScanSettings.extraCaCertificates: operator configuration (like dnssecTrustAnchors) that adds
 * certificates to Node's root store wherever the scanner judges web-PKI trust: HTTPS responses
 * (the MTA-STS policy fetch among them), the TLS check's handshakes and the MX certificates after
 * STARTTLS. Proven on loopback servers with a throwaway CA.
 */
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { rootCertificates } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScanSettings } from '../../../lambdas/scanner/check.js';
import { createNet, trustedCertificates } from '../../../lambdas/scanner/net/create-net.js';
import type { TlsHandshake } from '../../../lambdas/scanner/net/tls-client.js';
import { trustingContext } from '../../../lambdas/scanner/net/trust-store.js';
import { certificateChain, type CertificateChain } from '../../support/certificate-chain.js';
import { selfSignedCertificate, startSmtpServer, type TestSmtpServer } from '../../support/smtp-server.js';

const HOST = 'mta-sts.shop.test';
const base: ScanSettings = { resolvers: [], dnsTimeoutMs: 1_000, allowPrivateTargets: true };
const resolver = { resolve4: async () => ['127.0.0.1'], resolve6: async () => [] };
const netWith = (settings: Partial<ScanSettings>) => createNet({ ...base, ...settings }, { host: HOST, addresses: ['127.0.0.1'] }, resolver);

let chain: CertificateChain;
let selfSigned: { key: string; cert: string };
let web: https.Server;
let webPort: number;
let smtp: TestSmtpServer;

beforeAll(async () => {
  chain = certificateChain(HOST);
  selfSigned = selfSignedCertificate(HOST);
  web = https.createServer({ key: chain.key, cert: chain.cert }, (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('version: STSv1\n'));
  await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
  webPort = (web.address() as AddressInfo).port;
  smtp = await startSmtpServer({ tls: { key: chain.key, cert: chain.cert } });
});

afterAll(async () => {
  await new Promise((resolve) => web.close(resolve));
  await smtp.close();
});

describe('the trust store the scanner judges certificates by', () => {
  it("is Node's default (no store of its own) without extra certificates, blank entries ignored", () => {
    expect(trustedCertificates({})).toEqual({});
    expect(trustedCertificates({ extraCaCertificates: [] })).toEqual({});
    expect(trustedCertificates({ extraCaCertificates: ['', '  \n'] })).toEqual({});
  });

  it("is Node's root store plus the extra certificates when some are given", () => {
    const { ca } = trustedCertificates({ extraCaCertificates: [chain.ca] });
    expect(ca).toHaveLength(rootCertificates.length + 1);
    expect(ca?.slice(0, rootCertificates.length)).toEqual([...rootCertificates]);
    expect(ca?.at(-1)).toBe(chain.ca);
  });
});

describe('the TLS contexts that carry another trust store', () => {
  it('are built once per certificate set and TLS settings (some 40 ms each with the root store), and shared', () => {
    // Prepare
    const { ca } = trustedCertificates({ extraCaCertificates: [chain.ca] });
    const sameContent = [...ca!];

    // Act
    const first = trustingContext(ca!, { ciphers: 'ALL:@SECLEVEL=0', minVersion: 'TLSv1', maxVersion: 'TLSv1' });

    // Assess
    expect(trustingContext(ca!, { ciphers: 'ALL:@SECLEVEL=0', minVersion: 'TLSv1', maxVersion: 'TLSv1' })).toBe(first);
    expect(trustingContext(sameContent, { ciphers: 'ALL:@SECLEVEL=0', minVersion: 'TLSv1', maxVersion: 'TLSv1' })).toBe(first);
    expect(trustingContext(ca!, { ciphers: 'ALL:@SECLEVEL=0', minVersion: 'TLSv1.2', maxVersion: 'TLSv1.2' })).not.toBe(first);
    expect(trustingContext([chain.ca], { ciphers: 'ALL:@SECLEVEL=0', minVersion: 'TLSv1', maxVersion: 'TLSv1' })).not.toBe(first);
  });
});

describe('extraCaCertificates in every client of the scan', () => {
  it('makes an HTTPS response from a certificate the extra CA signed trusted, and leaves it untrusted without', async () => {
    // Act
    const [withCa, without] = await Promise.all([
      netWith({ extraCaCertificates: [chain.ca] }).http.request(`https://${HOST}:${webPort}/.well-known/mta-sts.txt`),
      netWith({}).http.request(`https://${HOST}:${webPort}/.well-known/mta-sts.txt`),
    ]);

    // Assess
    expect([withCa.status, withCa.certificateTrusted, withCa.body]).toEqual([200, true, 'version: STSv1\n']);
    expect([without.certificateTrusted, without.certificateError]).toEqual([false, 'UNABLE_TO_VERIFY_LEAF_SIGNATURE']);
  });

  it('still rejects a certificate for another name, from the same CA', async () => {
    // Act
    const response = await netWith({ extraCaCertificates: [chain.ca] }).http.request(`https://127.0.0.1:${webPort}/`);

    // Assess
    expect(response.certificateTrusted).toBe(false);
  });

  it("authorizes the TLS check's handshake and the MX certificate after STARTTLS", async () => {
    // Prepare
    const net = netWith({ extraCaCertificates: [chain.ca] });

    // Act
    const handshake = (await net.tls.handshake('127.0.0.1', webPort, { servername: HOST, minVersion: 'TLSv1.2', maxVersion: 'TLSv1.3', timeoutMs: 2_000 })) as TlsHandshake;
    const mx = await net.smtp.starttls('127.0.0.1', smtp.port, { servername: HOST, ehloName: 'scanner.rampart.example', timeoutMs: 2_000 });
    const mxWithout = await netWith({}).smtp.starttls('127.0.0.1', smtp.port, { servername: HOST, ehloName: 'scanner.rampart.example', timeoutMs: 2_000 });

    // Assess
    expect([handshake.authorized, handshake.authorizationError]).toEqual([true, undefined]);
    expect([(mx.tls as TlsHandshake).authorized, (mx.tls as TlsHandshake).authorizationError]).toEqual([true, undefined]);
    expect([(mxWithout.tls as TlsHandshake).authorized, (mxWithout.tls as TlsHandshake).authorizationError]).toEqual([false, 'UNABLE_TO_VERIFY_LEAF_SIGNATURE']);
  });

  it('leaves a self-signed certificate untrusted: only what the extra CA signed is added', async () => {
    // Prepare
    const server = await startSmtpServer({ tls: selfSigned });

    // Act
    try {
      const mx = await netWith({ extraCaCertificates: [chain.ca] }).smtp.starttls('127.0.0.1', server.port, { servername: HOST, ehloName: 'scanner.rampart.example', timeoutMs: 2_000 });

      // Assess
      expect([(mx.tls as TlsHandshake).authorized, (mx.tls as TlsHandshake).authorizationError]).toEqual([false, 'DEPTH_ZERO_SELF_SIGNED_CERT']);
    } finally {
      await server.close();
    }
  });
});
