/**
 * DANE for SMTP (RFC 7672, RFC 6698): the TLSA records at `_25._tcp.<mx>` checked against the
 * certificate chain the MX presents after STARTTLS, as a DANE-validating sender (Postfix, Exim,
 * Microsoft 365's outbound DANE) checks them. Usage 3 (DANE-EE) matches the server's own
 * certificate or key, whatever its issuer, name or dates; usage 2 (DANE-TA) matches a certificate
 * of the presented chain, which must lead to the server's certificate, and that one must name the
 * MX host. Usages 0 and 1 (PKIX-TA/EE) are unusable for SMTP (RFC 7672 §3.1.3), as are unknown
 * selectors and matching types, and digests of the wrong length. Senders use the records only
 * when DNSSEC validates them (RFC 7672 §2.2): the probe validates the TLSA RRset with the dns
 * check's chain, and only `secure` records are compared with the chain.
 */
import { createHash, X509Certificate } from 'node:crypto';
import type { Finding } from '../../../domain/audit.js';
import { findingsFor } from '../../check.js';

export interface TlsaRecord {
  usage: number;
  selector: number;
  matchingType: number;
  /** The association data, hex. */
  data: string;
}

/** The DNSSEC verdict on an MX's TLSA RRset, from the trust anchor to the zone that signs it. */
export type TlsaDnssec = 'secure' | 'insecure' | 'bogus' | 'indeterminate';

export interface DaneMx {
  host: string;
  tlsa: TlsaRecord[];
  /** The presented chain, leaf first, DER in base64; absent when no TLS session was reached. */
  chain?: string[];
  /** The leaf names the MX host. */
  nameMatches?: boolean;
  /** The TLSA records came with an RRSIG (reports from before validation: the only DNSSEC fact). */
  signed?: boolean;
  /** The TLSA RRset's DNSSEC validation; absent in data from before it. */
  dnssec?: TlsaDnssec;
  /** Why, in words (the step that decided the validation). */
  dnssecReason?: string;
}

/**
 * Whether DANE-validating senders use the MX's TLSA records: when DNSSEC proves them (`secure`);
 * data from before validation knew only whether an RRSIG came along.
 */
export function daneUsed(mx: DaneMx): boolean {
  return mx.dnssec !== undefined ? mx.dnssec === 'secure' : mx.signed !== false;
}

function daneUnsigned(mx: DaneMx): boolean {
  return mx.dnssec !== undefined ? mx.dnssec === 'insecure' : mx.signed === false;
}

export type DaneVerdict =
  | { host: string; result: 'match'; record: string }
  | { host: string; result: 'mismatch'; usable: number }
  | { host: string; result: 'unusable'; reasons: string[] }
  | { host: string; result: 'not-checked'; reason: string };

const DIGEST_LENGTH: Record<number, number> = { 1: 32, 2: 64 };

/** `3 1 1 ab12…` as a zone file writes it (data shortened). */
export function describeTlsa(record: TlsaRecord): string {
  return `${record.usage} ${record.selector} ${record.matchingType} ${record.data.length > 16 ? `${record.data.slice(0, 16)}…` : record.data}`;
}

/** Why a sender cannot use the record for SMTP, or undefined when it can. */
export function unusableReason(record: TlsaRecord): string | undefined {
  if (record.usage === 0 || record.usage === 1) return `usage ${record.usage} (PKIX-${record.usage === 0 ? 'TA' : 'EE'}) is not used for SMTP`;
  if (record.usage > 3) return `usage ${record.usage} is unknown`;
  if (record.selector > 1) return `selector ${record.selector} is unknown`;
  if (record.matchingType > 2) return `matching type ${record.matchingType} is unknown`;
  const expected = DIGEST_LENGTH[record.matchingType];
  if (expected !== undefined && record.data.length !== expected * 2) return `matching type ${record.matchingType} needs ${expected} bytes, the record has ${record.data.length / 2}`;
  return undefined;
}

/** The association data a record with this selector and matching type has for `certificate`. */
export function associationData(certificate: X509Certificate, selector: number, matchingType: number): string {
  const selected = selector === 0 ? certificate.raw : certificate.publicKey.export({ type: 'spki', format: 'der' });
  if (matchingType === 1) return createHash('sha256').update(selected).digest('hex');
  if (matchingType === 2) return createHash('sha512').update(selected).digest('hex');
  return selected.toString('hex');
}

function signedBy(child: X509Certificate, issuer: X509Certificate): boolean {
  try {
    return child.checkIssued(issuer) && child.verify(issuer.publicKey);
  } catch {
    return false;
  }
}

/** Verdict for one MX with TLSA records. */
export function verifyDane(mx: DaneMx): DaneVerdict {
  const usable = mx.tlsa.filter((r) => unusableReason(r) === undefined);
  if (usable.length === 0) return { host: mx.host, result: 'unusable', reasons: mx.tlsa.map((r) => `${describeTlsa(r)}: ${unusableReason(r)}`) };
  if (!mx.chain || mx.chain.length === 0) return { host: mx.host, result: 'not-checked', reason: 'no TLS session with the server' };
  const chain = mx.chain.map((der) => new X509Certificate(Buffer.from(der, 'base64')));
  for (const record of usable) {
    const wanted = record.data.toLowerCase();
    if (record.usage === 3) {
      if (associationData(chain[0]!, record.selector, record.matchingType) === wanted) return { host: mx.host, result: 'match', record: describeTlsa(record) };
      continue;
    }
    // DANE-TA: the anchor is in the chain and every certificate below it is signed by the next.
    const anchor = chain.findIndex((c) => associationData(c, record.selector, record.matchingType) === wanted);
    if (anchor < 0 || mx.nameMatches === false) continue;
    if (chain.slice(0, anchor).every((c, i) => signedBy(c, chain[i + 1]!))) return { host: mx.host, result: 'match', record: describeTlsa(record) };
  }
  return { host: mx.host, result: 'mismatch', usable: usable.length };
}

const finding = findingsFor('email');
const category = 'Email Security';

/**
 * Analyze DANE on the MX hosts that publish TLSA records. Records that DNSSEC does not vouch for
 * (no signature, or a zone without a DS at its parent) are medium: senders ignore them, so DANE
 * protects nothing. Records whose validation fails (a signature that does not verify, expired or
 * missing in a signed zone, a broken chain) are high: validating senders cannot look them up and
 * defer the mail to that MX (RFC 7672 §2.1.1). A validation that could not be carried out (a
 * DNSSEC query failed) yields no verdict either way. No usable record matching the presented
 * chain is high: DANE-validating senders then defer the mail and finally bounce it. Records a
 * sender cannot use (PKIX usages, unknown parameters) are low: DANE gives no protection there.
 */
export function analyzeDane(mxs: readonly DaneMx[]): Finding[] {
  const findings: Finding[] = [];
  const unsigned = mxs.filter((m) => m.tlsa.length > 0 && daneUnsigned(m));
  if (unsigned.length > 0) {
    findings.push(
      finding({
        id: 'email.dane.unsigned',
        title: 'TLSA records without DNSSEC: senders ignore them',
        severity: 'medium',
        category,
        evidence: unsigned
          .map((m) => `_25._tcp.${m.host}: ${m.tlsa.length} TLSA record${m.tlsa.length === 1 ? '' : 's'}, ${m.signed === false || !m.dnssecReason ? 'no RRSIG' : `signed, but no chain of trust leads to them: ${m.dnssecReason}`}`)
          .join('; '),
        description:
          "Senders trust TLSA records only when DNSSEC proves them authentic (RFC 7672): signed, in a zone whose key the parent zone vouches for with a DS record. Without that an attacker could forge them, so DANE is not applied and this server is not protected by it.",
        recommendation: "Sign the MX host's zone with DNSSEC at your DNS provider and publish the DS record at your registrar, or remove the TLSA records.",
      }),
    );
  }
  const bogus = mxs.filter((m) => m.tlsa.length > 0 && m.dnssec === 'bogus');
  if (bogus.length > 0) {
    findings.push(
      finding({
        id: 'email.dane.bogus',
        title: "A mail server's TLSA records fail DNSSEC validation: DANE senders defer mail to it",
        severity: 'high',
        category,
        evidence: bogus.map((m) => `_25._tcp.${m.host}: ${m.dnssecReason ?? 'DNSSEC validation failed'}`).join('; '),
        description:
          "The TLSA records are in a signed zone, but their DNSSEC validation fails (a signature that does not verify, has expired or is missing, or a broken chain of keys above it). Resolvers that validate answer SERVFAIL for them, and senders that use DANE (Postfix, Exim, Microsoft 365 and many European providers) then do not deliver to this server (RFC 7672 §2.1.1): mail is queued, tried at the other MX hosts, and finally bounced.",
        recommendation:
          "Re-sign the MX host's zone (with managed DNSSEC, ask your DNS provider to re-sign; with your own signer, sign again and make sure signatures are renewed automatically), or fix the key or DS record the chain breaks at, then re-check with `delv` or a DNSSEC debugger. If the MX is your mail provider's host, tell them.",
      }),
    );
  }
  // Only records DNSSEC proves are judged further: senders compare no others. An indeterminate
  // validation (a DNSSEC query failed) is not judged at all: not checked, not passed.
  const verdicts = mxs.filter((m) => m.tlsa.length > 0 && daneUsed(m)).map(verifyDane);
  const mismatched = verdicts.filter((v): v is DaneVerdict & { result: 'mismatch' } => v.result === 'mismatch');
  if (mismatched.length > 0) {
    findings.push(
      finding({
        id: 'email.dane.mismatch',
        title: "A mail server's TLSA records do not match its certificate: DANE senders refuse delivery",
        severity: 'high',
        category,
        evidence: mismatched
          .map((v) => `_25._tcp.${v.host}: ${mxs.find((m) => m.host === v.host)!.tlsa.map(describeTlsa).join(', ')}: none matches the presented certificate chain`)
          .join('; '),
        description:
          'Senders that validate DANE (Postfix, Exim, Microsoft 365 and many European providers) compare the certificate your server presents with the TLSA records. When none matches they do not deliver: mail is queued and then bounced. This usually follows a certificate renewal with a new key.',
        recommendation:
          'Publish a TLSA record for the current certificate before anything else (e.g. `3 1 1` = SHA-256 of the server key: `openssl x509 -in cert.pem -noout -pubkey | openssl pkey -pubin -outform DER | openssl sha256`), keep the old one until caches expire, and from now on publish the next key\'s record before each renewal (or reuse the key). Microsoft 365 publishes its own TLSA records when you enable inbound SMTP DANE; Google Workspace does not offer DANE: use MTA-STS there.',
      }),
    );
  }
  const unusable = verdicts.filter((v): v is DaneVerdict & { result: 'unusable' } => v.result === 'unusable');
  if (unusable.length > 0) {
    findings.push(
      finding({
        id: 'email.dane.unusable-records',
        title: 'TLSA records that mail senders cannot use',
        severity: 'low',
        category,
        evidence: unusable.map((v) => `_25._tcp.${v.host}: ${v.reasons.join('; ')}`).join('; '),
        description: 'DANE for mail uses only TLSA usages 2 (DANE-TA) and 3 (DANE-EE) with selector 0 or 1 and matching type 0, 1 or 2. With no usable record, senders fall back to unauthenticated TLS: DANE does not protect this server.',
        recommendation: 'Replace the records with `3 1 1 <SHA-256 of the server public key>` (or `2 1 1` for your issuing CA\'s key), signed with DNSSEC.',
      }),
    );
  }
  return findings;
}
