/**
 * Certificate analysis (pure): what a browser would think of the chain a server presented, as
 * measured values (dates, key, signature, names) plus the issues they raise.
 */
import type { X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';
import type { TlsIssue } from './issues.js';
import { signatureAlgorithmOf, type SignatureHash } from './signature-algorithm.js';

const DAY_MS = 86_400_000;

export interface ChainEntry {
  subject: string;
  issuer: string;
  notAfter: string;
  keyType: string;
  keySize: number | null;
  signatureAlgorithm: string;
  selfSigned: boolean;
}

export interface CertificateSummary {
  subject: string;
  commonName: string | null;
  issuer: string;
  /** subjectAltName entries as written: DNS names and IP addresses. */
  sans: string[];
  notBefore: string;
  notAfter: string;
  /** Whole days until expiry; negative once expired. */
  daysLeft: number;
  expired: boolean;
  notYetValid: boolean;
  /** rsa, rsa-pss, ec, ed25519, ed448, dsa … (Node's asymmetricKeyType). */
  keyType: string;
  /** Modulus length for RSA/DSA, curve size for EC and EdDSA; null when unknown. */
  keySize: number | null;
  curve: string | null;
  signatureAlgorithm: string;
  /** The weakest digest that a signature in the chain (trust anchor excluded) relies on, when MD5 or SHA-1. */
  weakSignature: 'md5' | 'sha1' | 'md2' | null;
  selfSigned: boolean;
  /** The trust store vouches for the chain (expiry included, host name not). */
  trusted: boolean;
  /** OpenSSL's verification code when not trusted (UNABLE_TO_GET_ISSUER_CERT_LOCALLY …). */
  trustError: string | null;
  hostnameMatch: boolean;
  /** The name compared with the certificate (SNI name, or the address for an IP target). */
  checkedName: string;
  fingerprint256: string;
  serialNumber: string;
  chain: ChainEntry[];
}

export interface CertificateInput {
  /** Leaf first. */
  certificates: readonly X509Certificate[];
  authorized: boolean;
  authorizationError?: string;
  /** The name the visitor typed (host name or IP literal). */
  name: string;
  now: Date;
}

const curveBits: Record<string, number> = {
  prime192v1: 192, secp192k1: 192, secp224r1: 224, secp224k1: 224, prime256v1: 256, secp256k1: 256,
  secp384r1: 384, secp521r1: 521, brainpoolP256r1: 256, brainpoolP384r1: 384, brainpoolP512r1: 512,
};

/** Key type and size the way certificate reports state them (RSA 2048, EC 256, Ed25519 256). */
export function keyOf(certificate: X509Certificate): { keyType: string; keySize: number | null; curve: string | null } {
  const key = certificate.publicKey;
  const keyType = key.asymmetricKeyType ?? 'unknown';
  const details = key.asymmetricKeyDetails ?? {};
  if (details.modulusLength) return { keyType, keySize: details.modulusLength, curve: null };
  if (details.namedCurve) return { keyType, keySize: curveBits[details.namedCurve] ?? null, curve: details.namedCurve };
  if (keyType === 'ed25519' || keyType === 'x25519') return { keyType, keySize: 256, curve: null };
  if (keyType === 'ed448' || keyType === 'x448') return { keyType, keySize: 456, curve: null };
  return { keyType, keySize: null, curve: null };
}

/** Issuer equals subject and the certificate's own key verifies its signature. */
export function isSelfSigned(certificate: X509Certificate): boolean {
  if (certificate.issuer !== certificate.subject) return false;
  try {
    return certificate.verify(certificate.publicKey);
  } catch {
    return false;
  }
}

function signatureOf(certificate: X509Certificate): { name: string; hash?: SignatureHash } {
  try {
    return signatureAlgorithmOf(certificate.raw);
  } catch {
    return { name: 'unknown' };
  }
}

/** "CN=a\nO=b" → "CN=a, O=b". */
const oneLine = (dn: string) => dn.split('\n').join(', ');

function commonNameOf(dn: string): string | null {
  const line = dn.split('\n').find((part) => part.startsWith('CN='));
  return line ? line.slice(3) : null;
}

function sansOf(certificate: X509Certificate): string[] {
  if (!certificate.subjectAltName) return [];
  // Node quotes entries that contain a comma; real server names never do, so a plain split suffices.
  return certificate.subjectAltName.split(', ').map((entry) => entry.replace(/^IP Address:/, 'IP:').replace(/"/g, ''));
}

/** Browser rules: subjectAltName only (no CN fallback), no partial wildcards like w*.example.com. */
function matchesName(certificate: X509Certificate, name: string): boolean {
  const bare = name.replace(/^\[|\]$/g, '');
  if (isIP(bare)) return certificate.checkIP(bare) !== undefined;
  return certificate.checkHost(bare, { subject: 'never', partialWildcards: false }) !== undefined;
}

const trustReasons: Record<string, string> = {
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'its issuer is not a trusted certificate authority, or the server does not send the intermediate certificate',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'its issuer is not a trusted certificate authority, or the server does not send the intermediate certificate',
  UNABLE_TO_GET_ISSUER_CERT: 'an issuer in the chain is missing',
  SELF_SIGNED_CERT_IN_CHAIN: 'the chain ends in a root that browsers do not trust',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'it is self-signed',
  CERT_HAS_EXPIRED: 'a certificate in the chain has expired',
  CERT_NOT_YET_VALID: 'a certificate in the chain is not valid yet',
  CERT_SIGNATURE_FAILURE: 'a signature in the chain does not verify',
  CERT_REVOKED: 'a certificate in the chain is revoked',
  INVALID_CA: 'an issuer in the chain is not allowed to issue certificates',
  CERT_UNTRUSTED: 'the root certificate is not trusted',
};

/** Plain-words reason for an OpenSSL verification code. */
export function trustReason(code: string): string {
  return trustReasons[code] ?? `verification failed (${code})`;
}

const weakHashes = new Set<SignatureHash>(['md2', 'md5', 'sha1']);

/** Summarises the presented chain and lists the certificate issues a browser or SSL Labs would raise. */
export function analyzeCertificate(input: CertificateInput): { summary: CertificateSummary; issues: TlsIssue[] } | null {
  const [leaf] = input.certificates;
  if (!leaf) return null;
  const notBefore = new Date(leaf.validFrom);
  const notAfter = new Date(leaf.validTo);
  const now = input.now.getTime();
  const daysLeft = Math.floor((notAfter.getTime() - now) / DAY_MS);
  const expired = now > notAfter.getTime();
  const notYetValid = now < notBefore.getTime();
  const { keyType, keySize, curve } = keyOf(leaf);
  const selfSigned = isSelfSigned(leaf);
  const leafSignature = signatureOf(leaf);
  const hostnameMatch = matchesName(leaf, input.name);

  const signatures = input.certificates.map((certificate, index) => (index === 0 ? leafSignature : signatureOf(certificate)));
  const chain = input.certificates.map((certificate, index) => {
    const key = index === 0 ? { keyType, keySize } : keyOf(certificate);
    return {
      subject: oneLine(certificate.subject),
      issuer: oneLine(certificate.issuer),
      notAfter: new Date(certificate.validTo).toISOString(),
      keyType: key.keyType,
      keySize: key.keySize,
      signatureAlgorithm: signatures[index]!.name,
      selfSigned: index === 0 ? selfSigned : isSelfSigned(certificate),
    };
  });
  // A trust anchor's own signature is never checked by clients, so SHA-1 there is harmless;
  // a self-signed leaf is its own anchor but is what visitors see, so it still counts.
  const weakSigned = chain
    .map((entry, index) => ({ entry, index, hash: signatures[index]!.hash }))
    .filter(({ entry, index, hash }) => hash !== undefined && weakHashes.has(hash) && (index === 0 || !entry.selfSigned));
  const hashes = new Set(weakSigned.map((w) => w.hash));
  const weakSignature = hashes.has('md2') ? 'md2' : hashes.has('md5') ? 'md5' : hashes.has('sha1') ? 'sha1' : null;

  const trustError = input.authorized ? null : (input.authorizationError ?? 'UNKNOWN');
  const summary: CertificateSummary = {
    subject: oneLine(leaf.subject),
    commonName: commonNameOf(leaf.subject),
    issuer: oneLine(leaf.issuer),
    sans: sansOf(leaf),
    notBefore: notBefore.toISOString(),
    notAfter: notAfter.toISOString(),
    daysLeft,
    expired,
    notYetValid,
    keyType,
    keySize,
    curve,
    signatureAlgorithm: leafSignature.name,
    weakSignature,
    selfSigned,
    trusted: input.authorized,
    trustError,
    hostnameMatch,
    checkedName: input.name,
    fingerprint256: leaf.fingerprint256,
    serialNumber: leaf.serialNumber,
    chain: chain.slice(1),
  };

  const issues: TlsIssue[] = [];
  const date = (d: Date) => d.toISOString().slice(0, 10);
  if (expired) {
    issues.push({ id: 'tls.cert.expired', severity: 'high', evidence: `expired on ${date(notAfter)} (${-daysLeft} days ago)` });
  } else if (notYetValid) {
    issues.push({ id: 'tls.cert.not-yet-valid', severity: 'high', evidence: `valid only from ${date(notBefore)}` });
  } else if (daysLeft < 30) {
    issues.push({
      id: 'tls.cert.expiring-soon',
      severity: daysLeft < 14 ? 'medium' : 'low',
      evidence: `expires on ${date(notAfter)} (${daysLeft} days left)`,
    });
  }
  if (selfSigned) {
    issues.push({ id: 'tls.cert.self-signed', severity: 'high', evidence: `self-signed: ${summary.subject}` });
  } else if (trustError && !explainedElsewhere(trustError, expired, notYetValid)) {
    issues.push({ id: 'tls.cert.untrusted', severity: 'high', evidence: `not trusted: ${trustReason(trustError)} (${trustError}); issuer ${summary.issuer}` });
  }
  if (!hostnameMatch) {
    const names = summary.sans.length > 0 ? summary.sans.join(', ') : `no subjectAltName, CN=${summary.commonName ?? '(none)'}`;
    issues.push({ id: 'tls.cert.hostname-mismatch', severity: 'high', evidence: `issued for ${names}, not ${input.name}` });
  }
  const weakKey = weakKeyOf(keyType, keySize);
  if (weakKey) issues.push({ id: 'tls.cert.weak-key', severity: 'high', evidence: weakKey });
  if (weakSignature) {
    const which = weakSigned.map(({ entry, index }) => `${index === 0 ? 'the certificate' : entry.subject} is signed with ${entry.signatureAlgorithm}`);
    issues.push({ id: 'tls.cert.weak-signature', severity: 'high', evidence: which.join('; ') });
  }
  return { summary, issues };
}

/** An expired or self-signed leaf already has its own finding; do not report the same fault twice. */
function explainedElsewhere(code: string, expired: boolean, notYetValid: boolean): boolean {
  return (code === 'CERT_HAS_EXPIRED' && expired) || (code === 'CERT_NOT_YET_VALID' && notYetValid);
}

/** RSA/DSA under 2048 bits and EC under 256 bits are below what CAs and browsers accept. */
function weakKeyOf(keyType: string, keySize: number | null): string | null {
  if (keySize === null) return null;
  if ((keyType === 'rsa' || keyType === 'rsa-pss' || keyType === 'dsa') && keySize < 2048) return `${keyType.toUpperCase()} key of ${keySize} bits (2048 is the minimum)`;
  if (keyType === 'ec' && keySize < 256) return `EC key of ${keySize} bits (256 is the minimum)`;
  return null;
}
