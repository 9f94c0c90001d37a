import type { Severity } from '../../../domain/audit.js';

/** Stable ids of the TLS check's findings: history, diffs and alerts compare scans by them. */
export const tlsIssueIds = [
  'tls.none',
  'tls.protocol.tls10',
  'tls.protocol.tls11',
  'tls.protocol.no-tls12',
  'tls.protocol.no-tls13',
  'tls.cipher.anonymous',
  'tls.cipher.weak',
  'tls.cipher.no-forward-secrecy',
  'tls.cipher.no-aead',
  'tls.cipher.weak-dh',
  'tls.cert.expired',
  'tls.cert.not-yet-valid',
  'tls.cert.expiring-soon',
  'tls.cert.self-signed',
  'tls.cert.untrusted',
  'tls.cert.hostname-mismatch',
  'tls.cert.weak-key',
  'tls.cert.weak-signature',
  'tls.cert.no-sct',
  'tls.ocsp.not-stapled',
  'tls.caa.issuer-not-allowed',
  'tls.hsts.missing',
  'tls.hsts.short-max-age',
  'tls.redirect.no-https-redirect',
] as const;

export type TlsIssueId = (typeof tlsIssueIds)[number];

/** One problem measured on one port (or on the host, for HSTS and redirects), before ports are merged into findings. */
export interface TlsIssue {
  id: TlsIssueId;
  severity: Severity;
  /** The measured value, without the port: the finding prefixes it. */
  evidence: string;
  port?: number;
  cves?: string[];
}
