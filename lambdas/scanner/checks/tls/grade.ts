/**
 * The SSL Labs rating guide as testssl.sh implements it (shared/scoring-anchors.md): a numeric
 * score from protocol support (30%), key exchange (30%) and cipher strength (40%), then grade
 * caps. All the points live here, in tables, not in the probes.
 */
import type { TlsVersion } from '../../net/tls-client.js';
import type { CertificateSummary } from './certificate.js';
import type { CipherInfo } from './cipher-suite.js';
import { HSTS_MIN_MAX_AGE, type HstsPolicy } from './hsts.js';

export type LetterGrade = 'A+' | 'A' | 'A-' | 'B' | 'C' | 'D' | 'E' | 'F';
/** T: trust problem (untrusted, self-signed, expired, SHA-1); M: certificate name mismatch. */
export type TlsGrade = LetterGrade | 'T' | 'M';

/** Best first. T and M rank below E: browsers warn visitors away, which is worse than a weak but working setup; F stays worst. */
export const gradeOrder: readonly TlsGrade[] = ['A+', 'A', 'A-', 'B', 'C', 'D', 'E', 'M', 'T', 'F'];

export interface GradeCap {
  grade: TlsGrade;
  reason: string;
}

export interface PortGrade {
  grade: TlsGrade;
  /** What the grade would be with the certificate's trust and name problems fixed (SSL Labs shows the same). */
  gradeIgnoringTrust: LetterGrade;
  score: number;
  protocolScore: number;
  keyExchangeScore: number;
  cipherScore: number;
  /** Every cap that applied, worst first. */
  caps: GradeCap[];
}

export interface GradeInput {
  offered: readonly TlsVersion[];
  /** Every suite a handshake negotiated on the port (one per version, plus the restricted probes). */
  ciphers: readonly CipherInfo[];
  certificate: CertificateSummary | null;
  hsts: HstsPolicy | null;
}

const protocolPoints: Record<TlsVersion, number> = { TLSv1: 90, 'TLSv1.1': 95, 'TLSv1.2': 100, 'TLSv1.3': 100 };

/** Key exchange points by RSA-equivalent strength (SSL Labs rating guide, "Key exchange"). */
function keyExchangePoints(bits: number): number {
  if (bits < 512) return 20;
  if (bits < 1024) return 40;
  if (bits < 2048) return 80;
  if (bits < 4096) return 90;
  return 100;
}

/** Cipher strength points by symmetric key bits (SSL Labs rating guide, "Cipher strength"). */
function cipherPoints(bits: number): number {
  if (bits === 0) return 0;
  if (bits < 128) return 20;
  if (bits < 256) return 80;
  return 100;
}

/** Score thresholds for the letter before caps. */
function letterFor(score: number): LetterGrade {
  if (score >= 80) return 'A';
  if (score >= 65) return 'B';
  if (score >= 50) return 'C';
  if (score >= 35) return 'D';
  if (score >= 20) return 'E';
  return 'F';
}

/** Elliptic-curve sizes in RSA-equivalent bits (NIST SP 800-57), as SSL Labs compares them. */
function ecToRsa(bits: number): number {
  if (bits >= 512) return 15360;
  if (bits >= 384) return 7680;
  if (bits >= 256) return 3072;
  if (bits >= 224) return 2048;
  if (bits >= 160) return 1024;
  return 512;
}

/** RSA-equivalent strength of a certificate key or an ephemeral group; null when unknown. */
export function rsaEquivalentBits(type: string, size: number | null | undefined, name?: string): number | null {
  const kind = type.toLowerCase();
  if (name === 'X25519') return 3072;
  if (name === 'X448') return 7680;
  if (size === null || size === undefined) return null;
  if (kind === 'rsa' || kind === 'rsa-pss' || kind === 'dsa' || kind === 'dh') return size;
  if (kind === 'ec' || kind === 'ecdh' || kind.startsWith('ed') || kind.startsWith('x')) return ecToRsa(size);
  return null;
}

const worse = (a: TlsGrade, b: TlsGrade) => (gradeOrder.indexOf(a) >= gradeOrder.indexOf(b) ? a : b);

/** The worst of several grades (ports → overall). */
export function worstGrade<T extends TlsGrade>(grades: readonly T[]): T | null {
  return grades.reduce<T | null>((acc, g) => (acc === null ? g : (worse(acc, g) as T)), null);
}

/** Grades one TLS port; null when no protocol was offered. */
export function gradePort(input: GradeInput): PortGrade | null {
  if (input.offered.length === 0) return null;
  const caps: GradeCap[] = [];
  const cap = (grade: TlsGrade, reason: string) => caps.push({ grade, reason });
  const offered = new Set(input.offered);
  const ciphers = input.ciphers;
  const cert = input.certificate;

  const protocolValues = input.offered.map((v) => protocolPoints[v]);
  const protocolScore = (Math.max(...protocolValues) + Math.min(...protocolValues)) / 2;

  const strengths = [
    ...(cert ? [rsaEquivalentBits(cert.keyType, cert.keySize)] : []),
    ...ciphers.map((c) => (c.ephemeralKey ? rsaEquivalentBits(c.ephemeralKey.type, c.ephemeralKey.size, c.ephemeralKey.name) : null)),
  ].filter((b): b is number => b !== null);
  const anonymous = ciphers.some((c) => c.keyExchange === 'anon');
  const keyExchangeScore = anonymous ? 0 : strengths.length > 0 ? keyExchangePoints(Math.min(...strengths)) : 0;

  const bits = ciphers.map((c) => c.bits).filter((b): b is number => b !== null);
  const cipherScore = bits.length > 0 ? (cipherPoints(Math.max(...bits)) + cipherPoints(Math.min(...bits))) / 2 : 0;
  const score = Math.round(protocolScore * 0.3 + keyExchangeScore * 0.3 + cipherScore * 0.4);

  // F: insecure at any client.
  if (anonymous) cap('F', 'anonymous (unauthenticated) key exchange accepted');
  if (ciphers.some((c) => c.export)) cap('F', 'export cipher accepted');
  const weakest = bits.length > 0 ? Math.min(...bits) : null;
  if (weakest !== null && weakest < 112) cap('F', `cipher of ${weakest} bits accepted`);
  if (cert?.weakSignature === 'md5' || cert?.weakSignature === 'md2') cap('F', `${cert.weakSignature.toUpperCase()}-signed certificate`);
  const certStrength = cert ? rsaEquivalentBits(cert.keyType, cert.keySize) : null;
  if (certStrength !== null && certStrength < 1024) cap('F', `insecure ${cert!.keyType.toUpperCase()} key of ${cert!.keySize} bits`);
  const dh = ciphers.filter((c) => c.ephemeralKey?.type === 'DH' && c.ephemeralKey.size).map((c) => c.ephemeralKey!.size!);
  const smallestDh = dh.length > 0 ? Math.min(...dh) : null;
  if (smallestDh !== null && smallestDh < 1024) cap('F', `DH group of ${smallestDh} bits`);

  // C: no modern protocol, or obsolete ciphers with it.
  if (!offered.has('TLSv1.2') && !offered.has('TLSv1.3')) cap('C', 'TLS 1.2 not offered');
  if (ciphers.some((c) => /3DES|DES[-_]CBC3/.test(`${c.name} ${c.standardName ?? ''}`) && c.protocol !== 'TLSv1')) cap('C', '3DES with TLS 1.1 or later');
  if (ciphers.some((c) => /RC4/.test(c.name) && c.protocol !== 'TLSv1')) cap('C', 'RC4 with TLS 1.1 or later');

  // B: legacy protocols, weak cipher properties, small keys.
  if (offered.has('TLSv1') || offered.has('TLSv1.1')) cap('B', 'TLS 1.0 or 1.1 offered');
  if (!ciphers.some((c) => c.aead)) cap('B', 'no AEAD cipher (GCM, ChaCha20-Poly1305, CCM)');
  if (!ciphers.some((c) => c.forwardSecrecy)) cap('B', 'no forward secrecy');
  if (ciphers.some((c) => /RC4/.test(c.name))) cap('B', 'RC4 accepted');
  if (certStrength !== null && certStrength >= 1024 && certStrength < 2048) cap('B', `${cert!.keyType.toUpperCase()} key of ${cert!.keySize} bits`);
  if (smallestDh !== null && smallestDh >= 1024 && smallestDh < 2048) cap('B', `DH group of ${smallestDh} bits`);

  // A−: not yet the best available.
  if (!offered.has('TLSv1.3')) cap('A-', 'TLS 1.3 not offered');
  if (input.hsts?.valid && input.hsts.maxAge !== null && input.hsts.maxAge > 0 && input.hsts.maxAge < HSTS_MIN_MAX_AGE) cap('A-', 'HSTS max-age under 180 days');

  let letter = caps.reduce<TlsGrade>((g, c) => worse(g, c.grade), letterFor(score)) as LetterGrade;
  const longHsts = input.hsts?.valid === true && (input.hsts.maxAge ?? 0) >= HSTS_MIN_MAX_AGE;
  if (letter === 'A' && caps.length === 0 && longHsts) letter = 'A+';

  // T and M: the certificate fails in browsers whatever the configuration is worth.
  if (cert) {
    const before = caps.length;
    if (cert.selfSigned) cap('T', 'self-signed certificate');
    if (cert.expired) cap('T', 'certificate expired');
    if (cert.notYetValid) cap('T', 'certificate not valid yet');
    if (cert.weakSignature === 'sha1') cap('T', 'SHA-1-signed certificate');
    if (!cert.trusted && caps.length === before) cap('T', `certificate not trusted (${cert.trustError})`);
    if (!cert.hostnameMatch) cap('M', `certificate name does not match ${cert.checkedName}`);
  }
  const trust = caps.some((c) => c.grade === 'T') ? 'T' : caps.some((c) => c.grade === 'M') ? 'M' : null;
  caps.sort((a, b) => gradeOrder.indexOf(b.grade) - gradeOrder.indexOf(a.grade));
  // An F stays F: the configuration is broken for every client, trusted certificate or not.
  return { grade: letter === 'F' ? 'F' : (trust ?? letter), gradeIgnoringTrust: letter, score, protocolScore, keyExchangeScore, cipherScore, caps };
}
