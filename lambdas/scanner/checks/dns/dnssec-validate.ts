/**
 * DNSSEC signature verification (RFC 4034, RFC 4035 §5), pure apart from node:crypto: key tags,
 * DS digests, the canonical form of an RRset and the data an RRSIG signs, and one RRset checked
 * against a zone's keys at a given time. No DNS library for Node validates DNSSEC with denial of
 * existence (@relaycorp/dnssec, the one kept up, leaves NSEC/NSEC3 out and brings a native
 * bigint-buffer), so the few hundred lines it takes live here, tested on bind9-signed zones.
 *
 * Records are dns-packet's decoded answers; their wire form is re-encoded with dns-packet (it
 * never compresses names, so an encoded answer is the canonical RR of RFC 4034 §6.2 once its names
 * are in lower case). A label that is not valid UTF-8 would not survive that round trip: such
 * names do not occur in the A, AAAA, MX, DNSKEY, DS and NSEC sets this scanner checks.
 */
import { createHash, createPublicKey, type KeyObject, verify } from 'node:crypto';
import dnsPacket from 'dns-packet';

type Answer = dnsPacket.Answer;
export type RrsigRecord = dnsPacket.RrsigAnswer;
export type DnskeyRecord = dnsPacket.DnskeyAnswer;
export type DsRecord = dnsPacket.DSAnswer;

/** dns-packet's encoders for a name and for an answer, which its type declarations leave out. */
const wire = dnsPacket as unknown as {
  name: { encode(name: string): Buffer };
  answer: { encode(answer: Answer): Buffer };
  record(type: string): { encode(data: unknown): Buffer };
};

export interface AlgorithmInfo {
  name: string;
  /**
   * `current`: sign with it. `deprecated`: still validated, but RFC 8624 says not to sign with it
   * (RSA/SHA-1), and strict crypto policies (RHEL 9) already refuse it. `not-validated`: RFC 8624
   * forbids validating it (RSA/MD5, DSA) or resolvers lack it (GOST): the zone counts as unsigned.
   */
  status: 'current' | 'deprecated' | 'not-validated';
}

/** IANA's DNSSEC algorithm numbers with RFC 8624's verdicts. */
export const DNSSEC_ALGORITHMS: Readonly<Record<number, AlgorithmInfo>> = {
  1: { name: 'RSAMD5', status: 'not-validated' },
  3: { name: 'DSA', status: 'not-validated' },
  5: { name: 'RSASHA1', status: 'deprecated' },
  6: { name: 'DSA-NSEC3-SHA1', status: 'not-validated' },
  7: { name: 'RSASHA1-NSEC3-SHA1', status: 'deprecated' },
  8: { name: 'RSASHA256', status: 'current' },
  10: { name: 'RSASHA512', status: 'current' },
  12: { name: 'ECC-GOST', status: 'not-validated' },
  13: { name: 'ECDSAP256SHA256', status: 'current' },
  14: { name: 'ECDSAP384SHA384', status: 'current' },
  15: { name: 'ED25519', status: 'current' },
  16: { name: 'ED448', status: 'current' },
};

export function algorithmName(algorithm: number): string {
  return DNSSEC_ALGORITHMS[algorithm]?.name ?? `algorithm ${algorithm}`;
}

/** Hash of each signature algorithm this module verifies (null: EdDSA hashes internally). */
const SIGNATURE_HASH: Readonly<Record<number, string | null>> = { 5: 'sha1', 7: 'sha1', 8: 'sha256', 10: 'sha512', 13: 'sha256', 14: 'sha384', 15: null, 16: null };

/** DS digest types (RFC 4034 SHA-1, RFC 4509 SHA-256, RFC 6605 SHA-384); GOST (3) is not computed. */
const DS_DIGEST: Readonly<Record<number, string>> = { 1: 'sha1', 2: 'sha256', 4: 'sha384' };
export const DS_DIGEST_NAMES: Readonly<Record<number, string>> = { 1: 'SHA-1', 2: 'SHA-256', 3: 'GOST', 4: 'SHA-384' };

export function supportsAlgorithm(algorithm: number): boolean {
  return algorithm in SIGNATURE_HASH;
}

export function supportsDigest(digestType: number): boolean {
  return digestType in DS_DIGEST;
}

/** A name as DNSSEC compares it: lower case, no final dot, the root as ''. */
export function canonicalName(name: string): string {
  return name.toLowerCase().replace(/\.$/, '').replace(/^\.$/, '');
}

/** The name in wire form, lower case (RFC 4034 §6.2). */
export function nameWire(name: string): Buffer {
  return wire.name.encode(canonicalName(name));
}

/** Labels of a name, the root and a leading wildcard label not counted (RFC 4034 §3.1.3). */
export function labelCount(name: string): number {
  const labels = canonicalName(name).split('.').filter(Boolean);
  return labels[0] === '*' ? labels.length - 1 : labels.length;
}

export function isAtOrBelow(name: string, zone: string): boolean {
  const n = canonicalName(name);
  const z = canonicalName(zone);
  return z === '' || n === z || n.endsWith(`.${z}`);
}

/** The same record data with its embedded names in lower case (RFC 4034 §6.2 item 3; NSEC's next name stays as is, RFC 6840 §5.1). */
function lowerNames(type: string, data: unknown): unknown {
  const lower = (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : value);
  const record = data as Record<string, unknown>;
  switch (type) {
    case 'NS':
    case 'CNAME':
    case 'PTR':
    case 'DNAME':
      return lower(data);
    case 'SOA':
      return { ...record, mname: lower(record.mname), rname: lower(record.rname) };
    case 'MX':
      return { ...record, exchange: lower(record.exchange) };
    case 'SRV':
      return { ...record, target: lower(record.target) };
    case 'RP':
      return { ...record, mbox: lower(record.mbox), txt: lower(record.txt) };
    case 'NAPTR':
      return { ...record, replacement: lower(record.replacement) };
    case 'RRSIG':
      return { ...record, signersName: lower(record.signersName) };
    default:
      return data;
  }
}

/** RDATA in canonical form, without its length. */
export function canonicalRdata(record: Answer): Buffer {
  const data = 'data' in record ? record.data : undefined;
  return wire.record(record.type).encode(lowerNames(record.type, data)).subarray(2);
}

/** The RDATA of a DNSKEY record (what its key tag and DS digests are computed over). */
export function dnskeyRdata(key: DnskeyRecord['data']): Buffer {
  return wire.record('DNSKEY').encode(key).subarray(2);
}

/** RFC 4034 Appendix B (algorithm 1 keeps the older rule of B.1). */
export function keyTag(key: DnskeyRecord['data']): number {
  const rdata = dnskeyRdata(key);
  if (key.algorithm === 1) return rdata.length >= 4 ? rdata.readUInt16BE(rdata.length - 3) : 0;
  let sum = 0;
  for (let i = 0; i < rdata.length; i++) sum += i & 1 ? rdata[i]! : rdata[i]! << 8;
  sum += (sum >> 16) & 0xffff;
  return sum & 0xffff;
}

/** The DS digest of a DNSKEY at `owner` (RFC 4034 §5.1.4), or undefined for an unknown digest type. */
export function dsDigest(owner: string, key: DnskeyRecord['data'], digestType: number): Buffer | undefined {
  const hash = DS_DIGEST[digestType];
  if (!hash) return undefined;
  return createHash(hash).update(nameWire(owner)).update(dnskeyRdata(key)).digest();
}

/** True when the DS names this key: same tag and algorithm, and the digest matches. */
export function dsMatchesKey(ds: DsRecord['data'], owner: string, key: DnskeyRecord['data']): boolean {
  if (ds.keyTag !== keyTag(key) || ds.algorithm !== key.algorithm) return false;
  const digest = dsDigest(owner, key, ds.digestType);
  return digest !== undefined && digest.equals(ds.digest);
}

const base64url = (bytes: Buffer) => bytes.toString('base64url');
const stripLeadingZeros = (bytes: Buffer) => {
  let i = 0;
  while (i < bytes.length - 1 && bytes[i] === 0) i++;
  return bytes.subarray(i);
};

/** Imported keys by their DNSKEY bytes: a zone's few keys verify many signatures. */
const importedKeys = new WeakMap<Buffer, { algorithm: number; key: KeyObject | undefined }>();

/** The DNSKEY's public key for node:crypto (RFC 3110 RSA, RFC 6605 ECDSA, RFC 8080 EdDSA), or undefined. */
export function publicKey(key: DnskeyRecord['data']): KeyObject | undefined {
  const cached = importedKeys.get(key.key);
  if (cached?.algorithm === key.algorithm) return cached.key;
  const imported = importKey(key);
  importedKeys.set(key.key, { algorithm: key.algorithm, key: imported });
  return imported;
}

function importKey(key: DnskeyRecord['data']): KeyObject | undefined {
  const bytes = key.key;
  try {
    switch (key.algorithm) {
      case 5:
      case 7:
      case 8:
      case 10: {
        if (bytes.length < 3) return undefined;
        const long = bytes[0] === 0;
        const exponentLength = long ? bytes.readUInt16BE(1) : bytes[0]!;
        const start = long ? 3 : 1;
        const exponent = bytes.subarray(start, start + exponentLength);
        const modulus = bytes.subarray(start + exponentLength);
        if (exponent.length === 0 || modulus.length === 0) return undefined;
        return createPublicKey({ key: { kty: 'RSA', n: base64url(stripLeadingZeros(modulus)), e: base64url(stripLeadingZeros(exponent)) }, format: 'jwk' });
      }
      case 13:
      case 14: {
        const size = key.algorithm === 13 ? 32 : 48;
        if (bytes.length !== 2 * size) return undefined;
        const crv = key.algorithm === 13 ? 'P-256' : 'P-384';
        return createPublicKey({ key: { kty: 'EC', crv, x: base64url(bytes.subarray(0, size)), y: base64url(bytes.subarray(size)) }, format: 'jwk' });
      }
      case 15:
      case 16: {
        if (bytes.length !== (key.algorithm === 15 ? 32 : 57)) return undefined;
        return createPublicKey({ key: { kty: 'OKP', crv: key.algorithm === 15 ? 'Ed25519' : 'Ed448', x: base64url(bytes) }, format: 'jwk' });
      }
      default:
        return undefined;
    }
  } catch {
    return undefined;
  }
}

/**
 * The data an RRSIG signs (RFC 4034 §3.1.8.1): its own RDATA without the signature, then every
 * RR of the set in canonical form and order, with the original TTL and, for a wildcard answer,
 * the wildcard owner the signature was made over (RFC 4035 §5.3.2).
 */
export function signedData(rrsig: RrsigRecord['data'], rrset: readonly Answer[]): Buffer {
  const head = wire.record('RRSIG').encode({ ...rrsig, signersName: canonicalName(rrsig.signersName), signature: Buffer.alloc(0) }).subarray(2);
  const owner = signedOwner(rrset[0]?.name ?? '', rrsig.labels);
  const ownerLength = nameWire(owner).length;
  const records = rrset.map((record) =>
    wire.answer.encode({ ...record, name: owner, ttl: rrsig.originalTTL, class: (record as { class?: dnsPacket.RecordClass }).class ?? 'IN', data: lowerNames(record.type, 'data' in record ? record.data : undefined) } as Answer),
  );
  // Canonical order sorts by RDATA alone: the owner, type, class, TTL and length come first.
  const rdataOf = (rr: Buffer) => rr.subarray(ownerLength + 10);
  records.sort((a, b) => Buffer.compare(rdataOf(a), rdataOf(b)));
  const unique = records.filter((rr, i) => i === 0 || !rr.equals(records[i - 1]!));
  return Buffer.concat([head, ...unique]);
}

/** The owner an RRSIG was made over: the name itself, or `*.` and its last `labels` labels. */
export function signedOwner(name: string, labels: number): string {
  const parts = canonicalName(name).split('.').filter(Boolean);
  const own = parts[0] === '*' ? parts.length - 1 : parts.length;
  if (labels >= own) return canonicalName(name);
  return ['*', ...parts.slice(parts.length - labels)].join('.');
}

/** Whether the signature over `data` verifies with the key. */
export function verifySignature(algorithm: number, key: KeyObject, data: Buffer, signature: Buffer): boolean {
  const hash = SIGNATURE_HASH[algorithm];
  if (hash === undefined) return false;
  try {
    if (algorithm === 13 || algorithm === 14) return verify(hash, data, { key, dsaEncoding: 'ieee-p1363' }, signature);
    return verify(hash, data, key, signature);
  } catch {
    return false;
  }
}

/** RRSIG times are 32-bit serial numbers (RFC 4034 §3.1.5, RFC 1982): `a` before `b`. */
function serialBefore(a: number, b: number): boolean {
  const diff = (b - a) >>> 0;
  return diff !== 0 && diff < 0x80000000;
}

/** An RRSIG time (seconds, serial arithmetic around `nowSeconds`) as an ISO date. */
export function signatureDate(time: number, nowSeconds: number): string {
  const now32 = nowSeconds >>> 0;
  const offset = serialBefore(now32, time >>> 0) ? (time - now32) >>> 0 : -((now32 - time) >>> 0);
  return new Date((nowSeconds + offset) * 1000).toISOString();
}

export type SignatureResult = 'valid' | 'bad-signature' | 'expired' | 'not-yet-valid' | 'no-key' | 'unsupported-algorithm';

export interface SignatureCheck {
  keyTag: number;
  algorithm: number;
  result: SignatureResult;
  inception: string;
  expiration: string;
}

/** What an RRset's signatures say: `valid` when one good, current signature by a zone key exists. */
export type RrsetResult = 'valid' | 'bogus' | 'expired' | 'not-yet-valid' | 'missing' | 'unsupported-algorithm';

export interface RrsetValidation {
  result: RrsetResult;
  signatures: SignatureCheck[];
}

/** The RRSIGs in `records` that cover `type` at `name`. */
export function signaturesFor(records: readonly Answer[], name: string, type: string): RrsigRecord[] {
  const owner = canonicalName(name);
  return records.filter((r): r is RrsigRecord => r.type === 'RRSIG' && canonicalName(r.name) === owner && r.data.typeCovered === type);
}

/**
 * Checks an RRset against the zone's keys at `nowSeconds` (RFC 4035 §5.3). Only RRSIGs by `zone`
 * count, each with a zone key of its tag and algorithm. The cryptography is checked before the
 * dates, so `expired` means "a good signature, out of its validity window" and `bogus` a forgery
 * or a corruption.
 */
export function validateRrset(rrset: readonly Answer[], rrsigs: readonly RrsigRecord[], keys: readonly DnskeyRecord[], zone: string, nowSeconds: number): RrsetValidation {
  const owner = rrset[0]?.name ?? '';
  const signatures: SignatureCheck[] = [];
  const now32 = nowSeconds >>> 0;
  for (const { data: sig } of rrsigs) {
    const base = { keyTag: sig.keyTag, algorithm: sig.algorithm, inception: signatureDate(sig.inception, nowSeconds), expiration: signatureDate(sig.expiration, nowSeconds) };
    if (canonicalName(sig.signersName) !== canonicalName(zone) || !isAtOrBelow(owner, zone) || sig.labels > labelCount(owner)) {
      signatures.push({ ...base, result: 'no-key' });
      continue;
    }
    if (!supportsAlgorithm(sig.algorithm)) {
      signatures.push({ ...base, result: 'unsupported-algorithm' });
      continue;
    }
    // Tags collide now and then: every zone key with this tag and algorithm is tried.
    const candidates = keys.filter((k) => (k.data.flags & 0x0100) !== 0 && k.data.algorithm === sig.algorithm && keyTag(k.data) === sig.keyTag);
    if (candidates.length === 0) {
      signatures.push({ ...base, result: 'no-key' });
      continue;
    }
    let data: Buffer;
    try {
      data = signedData(sig, rrset);
    } catch {
      // A record dns-packet cannot encode again cannot have been signed as it stands.
      signatures.push({ ...base, result: 'bad-signature' });
      continue;
    }
    const good = candidates.some((k) => {
      const key = publicKey(k.data);
      return key !== undefined && verifySignature(sig.algorithm, key, data, sig.signature);
    });
    let result: SignatureResult = good ? 'valid' : 'bad-signature';
    if (good && serialBefore(sig.expiration >>> 0, now32)) result = 'expired';
    else if (good && serialBefore(now32, sig.inception >>> 0)) result = 'not-yet-valid';
    signatures.push({ ...base, result });
  }
  return { result: summarize(signatures), signatures };
}

function summarize(signatures: readonly SignatureCheck[]): RrsetResult {
  const has = (result: SignatureResult) => signatures.some((s) => s.result === result);
  if (has('valid')) return 'valid';
  if (signatures.length === 0) return 'missing';
  if (has('expired')) return 'expired';
  if (has('not-yet-valid')) return 'not-yet-valid';
  if (has('bad-signature')) return 'bogus';
  // Only unknown algorithms: a validator treats the set as unsigned (RFC 4035 §5.2).
  if (signatures.every((s) => s.result === 'unsupported-algorithm')) return 'unsupported-algorithm';
  return 'bogus';
}
