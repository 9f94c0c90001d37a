/**
 * Authenticated denial of existence: whether the NSEC (RFC 4035 §5.4, RFC 7129) or NSEC3
 * (RFC 5155 §8.4) records of an NXDOMAIN answer prove that the name does not exist and that no
 * wildcard could have made it. Pure: the records given here must already have had their
 * signatures checked (dnssec-chain does that first).
 */
import { createHash } from 'node:crypto';
import type dnsPacket from 'dns-packet';
import { canonicalName, isAtOrBelow, nameWire } from './dnssec-validate.js';

/** RFC 4034 §6.1: compare label by label from the right, each as lower-case octets. */
export function canonicalCompare(a: string, b: string): number {
  const left = canonicalName(a).split('.').filter(Boolean).reverse();
  const right = canonicalName(b).split('.').filter(Boolean).reverse();
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const order = Buffer.compare(Buffer.from(left[i]!, 'utf8'), Buffer.from(right[i]!, 'utf8'));
    if (order !== 0) return order;
  }
  return left.length - right.length;
}

/** True when `name` falls strictly between `owner` and `next` (the last NSEC wraps round to the apex). */
export function nsecCovers(owner: string, next: string, name: string): boolean {
  const afterOwner = canonicalCompare(owner, name) < 0;
  const beforeNext = canonicalCompare(name, next) < 0;
  return canonicalCompare(owner, next) < 0 ? afterOwner && beforeNext : afterOwner || beforeNext;
}

/** The longest name that is `name` or an ancestor of it and also `other` or an ancestor of that. */
function commonAncestor(name: string, other: string): string {
  const a = canonicalName(name).split('.').filter(Boolean).reverse();
  const b = canonicalName(other).split('.').filter(Boolean).reverse();
  const shared: string[] = [];
  for (let i = 0; i < Math.min(a.length, b.length) && a[i] === b[i]; i++) shared.push(a[i]!);
  return shared.reverse().join('.');
}

export interface DenialProof {
  kind: 'nsec' | 'nsec3';
  proven: boolean;
  /** The closest existing ancestor of the name. */
  closestEncloser?: string;
  /** The NSEC/NSEC3 owners that prove the name and the wildcard absent. */
  nameCoveredBy?: string;
  wildcardCoveredBy?: string;
  /** NSEC3 only: the covering record has opt-out set (unsigned delegations may hide there). */
  optOut?: boolean;
  iterations?: number;
  why?: string;
}

/** NXDOMAIN with NSEC: one record covers the name, one covers `*.` of its closest encloser. */
export function proveNxdomainNsec(qname: string, nsecs: readonly dnsPacket.NsecAnswer[], zone: string): DenialProof {
  const inZone = nsecs.filter((r) => isAtOrBelow(r.name, zone));
  const covering = inZone.find((r) => canonicalName(r.name) !== canonicalName(qname) && nsecCovers(r.name, r.data.nextDomain, qname));
  if (!covering) return { kind: 'nsec', proven: false, why: `No NSEC record covers ${canonicalName(qname)}` };
  const fromOwner = commonAncestor(qname, covering.name);
  const fromNext = commonAncestor(qname, covering.data.nextDomain);
  let closestEncloser = fromOwner.length >= fromNext.length ? fromOwner : fromNext;
  if (!isAtOrBelow(closestEncloser, zone)) closestEncloser = canonicalName(zone);
  const wildcard = closestEncloser ? `*.${closestEncloser}` : '*';
  const wildcardCover = inZone.find((r) => nsecCovers(r.name, r.data.nextDomain, wildcard));
  const base = { kind: 'nsec' as const, closestEncloser, nameCoveredBy: canonicalName(covering.name) };
  if (!wildcardCover) return { ...base, proven: false, why: `No NSEC record proves that ${wildcard} does not exist` };
  return { ...base, proven: true, wildcardCoveredBy: canonicalName(wildcardCover.name) };
}

const BASE32HEX = '0123456789abcdefghijklmnopqrstuv';

/** RFC 4648 §7 base32hex, lower case, no padding (the first label of an NSEC3 owner). */
export function base32hex(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32HEX[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32HEX[(value << (5 - bits)) & 31];
  return out;
}

/** Past this many extra iterations the proof is not computed (RFC 9276 §3.2 lets validators treat such zones as insecure). */
export const NSEC3_MAX_ITERATIONS = 2500;

/** RFC 5155 §5: SHA-1 over the wire name and salt, then `iterations` more times over the digest and salt. */
export function nsec3Hash(name: string, salt: Buffer, iterations: number): string {
  let digest = createHash('sha1').update(nameWire(name)).update(salt).digest();
  for (let i = 0; i < iterations; i++) digest = createHash('sha1').update(digest).update(salt).digest();
  return base32hex(digest);
}

/** NXDOMAIN with NSEC3: closest encloser matched, next closer name covered, wildcard covered. */
export function proveNxdomainNsec3(qname: string, nsec3s: readonly dnsPacket.Nsec3Answer[], zone: string): DenialProof {
  const zoneName = canonicalName(zone);
  const records = nsec3s
    .filter((r) => isAtOrBelow(r.name, zone) && r.data.algorithm === 1)
    .map((r) => ({ record: r, hash: canonicalName(r.name).split('.')[0] ?? '', next: base32hex(r.data.nextDomain) }));
  const params = records[0]?.record.data;
  if (!params) return { kind: 'nsec3', proven: false, why: 'No NSEC3 record with SHA-1 hashing' };
  const { salt, iterations } = params;
  if (iterations > NSEC3_MAX_ITERATIONS) return { kind: 'nsec3', proven: false, iterations, why: `${iterations} NSEC3 iterations: too many to check` };
  const matching = (hash: string) => records.find((r) => r.hash === hash);
  const covering = (hash: string) => records.find((r) => (r.hash < r.next ? r.hash < hash && hash < r.next : r.hash < hash || hash < r.next));

  const labels = canonicalName(qname).split('.').filter(Boolean);
  const zoneLabels = zoneName.split('.').filter(Boolean).length;
  // Closest encloser: the longest ancestor of the name whose hash an NSEC3 owner has.
  for (let i = 1; labels.length - i >= zoneLabels; i++) {
    const encloser = labels.slice(i).join('.');
    if (!matching(nsec3Hash(encloser, salt, iterations))) continue;
    const nextCloser = labels.slice(i - 1).join('.');
    const nameCover = covering(nsec3Hash(nextCloser, salt, iterations));
    const base = { kind: 'nsec3' as const, closestEncloser: encloser, iterations };
    if (!nameCover) return { ...base, proven: false, why: `No NSEC3 record covers the hash of ${nextCloser}` };
    const wildcard = `*.${encloser}`;
    const wildcardCover = covering(nsec3Hash(wildcard, salt, iterations));
    const optOut = (nameCover.record.data.flags & 1) === 1;
    if (!wildcardCover) return { ...base, nameCoveredBy: canonicalName(nameCover.record.name), optOut, proven: false, why: `No NSEC3 record proves that ${wildcard} does not exist` };
    return { ...base, proven: true, nameCoveredBy: canonicalName(nameCover.record.name), wildcardCoveredBy: canonicalName(wildcardCover.record.name), optOut };
  }
  return { kind: 'nsec3', proven: false, iterations, why: `No NSEC3 record matches an ancestor of ${canonicalName(qname)}` };
}
