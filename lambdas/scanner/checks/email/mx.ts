/**
 * The domain's mail servers as internet.nl tests them: each MX (at most 10) reachable, offering
 * STARTTLS, negotiating TLS 1.2 or newer, and its certificate. Certificate faults weigh little on
 * their own because SMTP encryption is opportunistic (RFC 3207, RFC 7435): senders encrypt without
 * checking the certificate, unless the domain publishes MTA-STS or DANE, and then a bad
 * certificate stops delivery.
 */
import type { X509Certificate } from 'node:crypto';
import type { Finding, Severity } from '../../../domain/audit.js';
import { findingsFor } from '../../check.js';
import type { TlsaDnssec, TlsaRecord } from './dane.js';

export interface CertificateSummary {
  subject: string;
  issuer: string;
  validFrom: string;
  validTo: string;
  daysLeft: number;
  expired: boolean;
  notYetValid: boolean;
  selfSigned: boolean;
  /** The certificate names the MX host (subjectAltName, or CN when there is none). */
  nameMatches: boolean;
  /** Node's root store vouches for the chain. */
  trusted: boolean;
  authorizationError?: string;
  keyType?: string;
  keyBits?: number;
}

export interface MxTls {
  version: string | null;
  cipher: string | null;
  certificate?: CertificateSummary;
}

export interface MxObservation {
  host: string;
  preference: number;
  addresses: string[];
  resolveError?: string;
  /** The address the SMTP conversation went to. */
  address?: string;
  /** Why no conversation was attempted (no address, or only non-public ones). */
  skipped?: 'no-address' | 'not-public';
  /** Why the conversation failed (timeout, refused, rejected greeting). */
  error?: string;
  banner?: string;
  starttls?: boolean;
  tls?: MxTls | { failed: string };
  /** Every TLS version the server accepted over STARTTLS (measured on the primary MX only). */
  tlsVersionsOffered?: string[];
  /** A TLSA record at _25._tcp.<host>: DANE makes senders verify the certificate. */
  dane: boolean;
  /** The TLSA records at _25._tcp.<host>, when there are any. */
  tlsa?: TlsaRecord[];
  /** The TLSA answer carried RRSIGs over the records (asked with DO); whether they validate is `tlsaDnssec`. */
  tlsaSigned?: boolean;
  /**
   * The TLSA RRset validated with the DNSSEC chain from the trust anchor to the zone that signs it
   * (RFC 7672 §2.2: senders use only `secure` records; `bogus` ones make them defer the mail).
   */
  tlsaDnssec?: TlsaDnssec;
  /** Why, in words: the validation step that decided it. */
  tlsaDnssecReason?: string;
  /** The chain presented after STARTTLS, leaf first, DER in base64 (kept only when there are TLSA records). */
  chain?: string[];
}

export interface MxContext {
  domain: string;
  mx: MxObservation[];
  /** RFC 7505 null MX (`0 .`): the domain declares it accepts no mail. */
  nullMx: boolean;
  /** An MTA-STS policy is announced (`_mta-sts.<domain>` TXT v=STSv1): senders verify certificates. */
  mtaSts: boolean;
  lookupError?: string;
}

/** What a certificate says about the MX host, at `now`. */
export function summarizeCertificate(
  certificate: X509Certificate,
  host: string,
  trust: { authorized: boolean; authorizationError?: string },
  now: Date,
): CertificateSummary {
  const validFrom = new Date(certificate.validFrom);
  const validTo = new Date(certificate.validTo);
  const selfSigned = certificate.subject === certificate.issuer && safeVerify(certificate);
  const key = certificate.publicKey;
  return {
    subject: certificate.subject.replace(/\n/g, ', '),
    issuer: certificate.issuer.replace(/\n/g, ', '),
    validFrom: validFrom.toISOString(),
    validTo: validTo.toISOString(),
    daysLeft: Math.floor((validTo.getTime() - now.getTime()) / 86_400_000),
    expired: validTo.getTime() < now.getTime(),
    notYetValid: validFrom.getTime() > now.getTime(),
    selfSigned,
    nameMatches: certificate.checkHost(host) !== undefined,
    trusted: trust.authorized,
    ...(trust.authorizationError ? { authorizationError: trust.authorizationError } : {}),
    ...(key.asymmetricKeyType ? { keyType: key.asymmetricKeyType } : {}),
    ...(key.asymmetricKeyDetails?.modulusLength ? { keyBits: key.asymmetricKeyDetails.modulusLength } : {}),
    ...(key.asymmetricKeyDetails?.namedCurve ? { keyBits: curveBits(key.asymmetricKeyDetails.namedCurve) } : {}),
  };
}

function safeVerify(certificate: X509Certificate): boolean {
  try {
    return certificate.verify(certificate.publicKey);
  } catch {
    return false;
  }
}

function curveBits(curve: string): number | undefined {
  const bits = /(\d{3})/.exec(curve)?.[1];
  return bits ? Number(bits) : undefined;
}

/** True when the conversation reached TLS. */
export function tlsEstablished(tls: MxObservation['tls']): tls is MxTls {
  return tls !== undefined && !('failed' in tls);
}

const finding = findingsFor('email');
const category = 'Email Security';
const OLD_TLS = new Set(['TLSv1', 'TLSv1.1', 'SSLv3']);

/**
 * Analyze the MX servers; one finding per kind of fault, naming every MX that has it. No
 * STARTTLS is high: mail to the domain then crosses the internet in clear text, readable and
 * alterable on the way. A server that could not be reached is info: outbound port 25 is blocked
 * on many networks (cloud providers included), so it says nothing certain about the server.
 * `options.enforced` says whether senders really check the certificate (an MTA-STS policy in
 * enforce mode they can fetch, or signed TLSA records); without it, any announcement counts.
 */
export function analyzeMx(context: MxContext, options: { enforced?: boolean } = {}): Finding[] {
  const { domain, mx } = context;
  if (context.nullMx) return [];
  if (mx.length === 0) {
    if (context.lookupError) {
      return [
        finding({
          id: 'email.mx.lookup-failed',
          title: 'The mail servers could not be looked up',
          severity: 'info',
          category,
          evidence: `MX ${domain}: ${context.lookupError}`,
          description: 'The DNS lookup for the MX records failed, so the mail servers could not be assessed in this scan.',
          recommendation: 'Run the scan again; if it keeps failing, check that your name servers answer MX queries.',
        }),
      ];
    }
    return [
      finding({
        id: 'email.mx.none',
        title: 'The domain has no mail servers (no MX record)',
        severity: 'info',
        category,
        evidence: `${domain} has no MX record`,
        description: 'Mail to this domain falls back to its A record, which rarely runs a mail server. If the domain does not receive mail, say so explicitly.',
        recommendation: `If the domain should not receive mail, publish a null MX (\`${domain}. MX 0 .\`), \`v=spf1 -all\` and a DMARC p=reject record.`,
      }),
    ];
  }

  const findings: Finding[] = [];
  const enforced = options.enforced ?? (context.mtaSts || mx.some((m) => m.dane));
  const certificateSeverity = (unenforced: Severity): Severity => (enforced ? 'medium' : unenforced);
  const enforcedNote = enforced
    ? ' Because the domain publishes MTA-STS or DANE, senders that honour them will refuse to deliver to this server.'
    : ' Senders use STARTTLS opportunistically and do not check the certificate today; it starts to matter, and to block delivery, once you publish MTA-STS or DANE.';
  const add = (hosts: string[], f: Omit<Finding, 'check' | 'evidence'> & { evidence: string }) => {
    if (hosts.length > 0) findings.push(finding(f));
  };
  const list = <T extends MxObservation>(items: T[], describe: (m: T) => string) => items.map(describe).join('; ');

  const noAddress = mx.filter((m) => m.skipped === 'no-address');
  add(noAddress.map((m) => m.host), {
    id: 'email.mx.no-address',
    title: 'A mail server name does not resolve',
    severity: 'medium',
    category,
    evidence: list(noAddress, (m) => `MX ${m.preference} ${m.host}: ${m.resolveError ?? 'no A or AAAA record'}`),
    description: 'Senders cannot deliver to an MX without an address: mail queues or bounces, and a forgotten name may later be registered by someone else.',
    recommendation: 'Fix the MX record to name a host that resolves, or remove it.',
  });

  const notPublic = mx.filter((m) => m.skipped === 'not-public');
  add(notPublic.map((m) => m.host), {
    id: 'email.mx.private-address',
    title: 'A mail server resolves to a private address',
    severity: 'medium',
    category,
    evidence: list(notPublic, (m) => `MX ${m.preference} ${m.host}: ${m.addresses.join(', ')}`),
    description: 'Servers on the internet cannot reach a private or reserved address: mail sent to this MX fails, and the record reveals internal addressing.',
    recommendation: 'Point the MX at a host with a public address.',
  });

  const unreachable = mx.filter((m) => m.error !== undefined);
  add(unreachable.map((m) => m.host), {
    id: 'email.mx.unreachable',
    title: 'A mail server could not be reached on port 25',
    severity: 'info',
    category,
    evidence: list(unreachable, (m) => `${m.host} (${m.address}): ${m.error}`),
    description: 'The scanner could not complete an SMTP conversation. Many networks block outbound port 25, so this does not prove the server is down; its STARTTLS support could not be checked.',
    recommendation: 'Check that the server accepts connections on port 25 from the internet, or test it with internet.nl.',
  });

  const noStarttls = mx.filter((m) => m.starttls === false);
  add(noStarttls.map((m) => m.host), {
    id: 'email.mx.no-starttls',
    title: 'A mail server does not offer STARTTLS: mail arrives unencrypted',
    severity: 'high',
    category,
    evidence: list(noStarttls, (m) => `${m.host} (${m.address}): EHLO lists no STARTTLS${m.banner ? `; banner "${m.banner.split('\n')[0]}"` : ''}`),
    description: 'Mail sent to your domain travels in clear text to this server: anyone on the path can read or change it, including password resets and invoices.',
    recommendation: 'Enable STARTTLS on the mail server with a certificate for its name (Postfix: `smtpd_tls_security_level = may` with `smtpd_tls_cert_file`/`smtpd_tls_key_file`).',
  });

  const failed = mx.filter((m) => m.starttls === true && m.tls !== undefined && !tlsEstablished(m.tls));
  add(failed.map((m) => m.host), {
    id: 'email.mx.starttls-failed',
    title: 'A mail server offers STARTTLS but the TLS handshake fails',
    severity: 'high',
    category,
    evidence: list(failed, (m) => `${m.host} (${m.address}): ${(m.tls as { failed: string }).failed}`),
    description: 'Senders that cannot complete the handshake fall back to sending in clear text (or give up): mail to this server is not reliably encrypted.',
    recommendation: "Fix the server's TLS configuration (certificate and key files, protocol versions) so that the handshake completes with TLS 1.2 or 1.3.",
  });

  const established = mx.filter((m) => tlsEstablished(m.tls)) as (MxObservation & { tls: MxTls })[];
  const old = established.filter((m) => m.tls.version !== null && OLD_TLS.has(m.tls.version));
  add(old.map((m) => m.host), {
    id: 'email.mx.tls-old-version',
    title: 'A mail server negotiates an outdated TLS version',
    severity: 'medium',
    category,
    evidence: list(old, (m) => `${m.host} (${m.address}): ${m.tls.version} negotiated (${m.tls.cipher ?? 'unknown cipher'})`),
    description: 'TLS 1.0 and 1.1 are deprecated (RFC 8996) and internet.nl rates them insufficient: the best this server offers is weaker than what senders support.',
    recommendation: 'Enable TLS 1.2 and 1.3 on the mail server (Postfix: `smtpd_tls_protocols = >=TLSv1.2` with a current OpenSSL).',
  });

  const legacy = established.filter(
    (m) => !OLD_TLS.has(m.tls.version ?? '') && (m.tlsVersionsOffered ?? []).some((version) => OLD_TLS.has(version)),
  );
  add(legacy.map((m) => m.host), {
    id: 'email.mx.tls-legacy-accepted',
    title: 'A mail server still accepts TLS 1.0 or 1.1',
    severity: 'low',
    category,
    evidence: list(legacy, (m) => `${m.host} (${m.address}): accepts ${(m.tlsVersionsOffered ?? []).join(', ')}`),
    description:
      'The server prefers a current TLS version, but a sender (or an attacker in the middle who blocks the newer ones) can still get TLS 1.0 or 1.1, which are deprecated (RFC 8996); internet.nl asks for them to be phased out.',
    recommendation: 'Turn off TLS 1.0 and 1.1 on the mail server (Postfix: `smtpd_tls_protocols = >=TLSv1.2` and `smtpd_tls_mandatory_protocols = >=TLSv1.2`).',
  });

  const withCert = established.filter((m) => m.tls.certificate !== undefined) as (MxObservation & { tls: MxTls & { certificate: CertificateSummary } })[];
  const expired = withCert.filter((m) => m.tls.certificate.expired || m.tls.certificate.notYetValid);
  add(expired.map((m) => m.host), {
    id: 'email.mx.certificate-expired',
    title: "A mail server's certificate has expired",
    severity: certificateSeverity('low'),
    category,
    evidence: list(expired, (m) => `${m.host}: valid ${m.tls.certificate.validFrom.slice(0, 10)} to ${m.tls.certificate.validTo.slice(0, 10)}`),
    description: `An expired certificate shows the server's TLS is not maintained.${enforcedNote}`,
    recommendation: 'Renew the certificate (and automate renewal, e.g. with an ACME client).',
  });
  const untrusted = withCert.filter((m) => !m.tls.certificate.trusted && !m.tls.certificate.expired);
  add(untrusted.map((m) => m.host), {
    id: 'email.mx.certificate-untrusted',
    title: "A mail server's certificate is not trusted (self-signed or unknown issuer)",
    severity: certificateSeverity('info'),
    category,
    evidence: list(untrusted, (m) => `${m.host}: ${m.tls.certificate.selfSigned ? 'self-signed' : `issued by ${m.tls.certificate.issuer}`} (${m.tls.certificate.authorizationError ?? 'untrusted'})`),
    description: `Mail servers with self-signed certificates are common and still encrypt the connection.${enforcedNote}`,
    recommendation: "Use a certificate from a public authority (Let's Encrypt works for mail servers) so that you can publish MTA-STS.",
  });
  const mismatch = withCert.filter((m) => !m.tls.certificate.nameMatches);
  add(mismatch.map((m) => m.host), {
    id: 'email.mx.certificate-name-mismatch',
    title: "A mail server's certificate does not name the server",
    severity: certificateSeverity('info'),
    category,
    evidence: list(mismatch, (m) => `${m.host}: certificate for ${m.tls.certificate.subject}`),
    description: `The certificate was issued for another name than the MX host.${enforcedNote}`,
    recommendation: 'Use a certificate that lists the MX host name in its subjectAltName.',
  });
  return findings;
}
