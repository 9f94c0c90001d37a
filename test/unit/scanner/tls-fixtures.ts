import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { TlsHandshake } from '../../../lambdas/scanner/net/tls-client.js';

const dir = fileURLToPath(new URL('../../fixtures/tls/', import.meta.url));

/** A PEM file from test/fixtures/tls (made by generate.sh there). */
export const pem = (name: string): string => readFileSync(`${dir}${name}`, 'utf8');
export const cert = (name: string): X509Certificate => new X509Certificate(pem(`${name}.pem`));

/** The fixture leaf's validity, so tests place "now" relative to it. */
export const validity = (name: string) => {
  const c = cert(name);
  return { notBefore: new Date(c.validFrom), notAfter: new Date(c.validTo) };
};
export const DAY = 86_400_000;

/** A handshake as the TLS client reports it, for analysis tests (getProtocol() is the version; cipher.version is the suite's minimum). */
export function handshake(protocol: string, cipher: NonNullable<TlsHandshake['cipher']>, overrides: Partial<TlsHandshake> = {}): TlsHandshake {
  return {
    protocol,
    cipher,
    ephemeralKey: { type: 'ECDH', name: 'X25519', size: 253 },
    certificates: [cert('leaf-rsa2048-sha256'), cert('intermediate-ca'), cert('root-ca')],
    authorized: true,
    ...overrides,
  };
}

export const suites = {
  tls13: { name: 'TLS_AES_256_GCM_SHA384', standardName: 'TLS_AES_256_GCM_SHA384', version: 'TLSv1.3' },
  ecdheGcm: { name: 'ECDHE-RSA-AES256-GCM-SHA384', standardName: 'TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384', version: 'TLSv1.2' },
  ecdheCbc10: { name: 'ECDHE-RSA-AES256-SHA', standardName: 'TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA', version: 'TLSv1.0' },
  dheGcm: { name: 'DHE-RSA-AES256-GCM-SHA384', standardName: 'TLS_DHE_RSA_WITH_AES_256_GCM_SHA384', version: 'TLSv1.2' },
  rsaCbc: { name: 'AES128-SHA', standardName: 'TLS_RSA_WITH_AES_128_CBC_SHA', version: 'TLSv1.2' },
  rsaGcm: { name: 'AES256-GCM-SHA384', standardName: 'TLS_RSA_WITH_AES_256_GCM_SHA384', version: 'TLSv1.2' },
} as const;
