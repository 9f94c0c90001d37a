/**
 * The signature algorithm of an X.509 certificate, read from its DER: Node 20's X509Certificate
 * has no getter for it. A minimal ASN.1 walk (Certificate → second element → OID, plus the hash
 * inside RSASSA-PSS parameters) is enough and has no dependency.
 */

export type SignatureHash = 'md2' | 'md5' | 'sha1' | 'sha224' | 'sha256' | 'sha384' | 'sha512' | 'intrinsic';

export interface SignatureAlgorithm {
  oid: string;
  /** OpenSSL-style name (sha256WithRSAEncryption, ecdsa-with-SHA384, rsassaPss …), or the OID when unknown. */
  name: string;
  /** The digest the signature relies on; 'intrinsic' for EdDSA; undefined when unknown. */
  hash?: SignatureHash;
}

const known: Record<string, { name: string; hash?: SignatureHash }> = {
  '1.2.840.113549.1.1.2': { name: 'md2WithRSAEncryption', hash: 'md2' },
  '1.2.840.113549.1.1.4': { name: 'md5WithRSAEncryption', hash: 'md5' },
  '1.2.840.113549.1.1.5': { name: 'sha1WithRSAEncryption', hash: 'sha1' },
  '1.3.14.3.2.29': { name: 'sha1WithRSA', hash: 'sha1' },
  '1.2.840.113549.1.1.14': { name: 'sha224WithRSAEncryption', hash: 'sha224' },
  '1.2.840.113549.1.1.11': { name: 'sha256WithRSAEncryption', hash: 'sha256' },
  '1.2.840.113549.1.1.12': { name: 'sha384WithRSAEncryption', hash: 'sha384' },
  '1.2.840.113549.1.1.13': { name: 'sha512WithRSAEncryption', hash: 'sha512' },
  '1.2.840.113549.1.1.10': { name: 'rsassaPss' },
  '1.2.840.10045.4.1': { name: 'ecdsa-with-SHA1', hash: 'sha1' },
  '1.2.840.10045.4.3.1': { name: 'ecdsa-with-SHA224', hash: 'sha224' },
  '1.2.840.10045.4.3.2': { name: 'ecdsa-with-SHA256', hash: 'sha256' },
  '1.2.840.10045.4.3.3': { name: 'ecdsa-with-SHA384', hash: 'sha384' },
  '1.2.840.10045.4.3.4': { name: 'ecdsa-with-SHA512', hash: 'sha512' },
  '1.2.840.10040.4.3': { name: 'dsa-with-SHA1', hash: 'sha1' },
  '2.16.840.1.101.3.4.3.1': { name: 'dsa-with-SHA224', hash: 'sha224' },
  '2.16.840.1.101.3.4.3.2': { name: 'dsa-with-SHA256', hash: 'sha256' },
  '1.3.101.112': { name: 'ED25519', hash: 'intrinsic' },
  '1.3.101.113': { name: 'ED448', hash: 'intrinsic' },
};

const digests: Record<string, SignatureHash> = {
  '1.3.14.3.2.26': 'sha1',
  '2.16.840.1.101.3.4.2.4': 'sha224',
  '2.16.840.1.101.3.4.2.1': 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
  '1.2.840.113549.2.5': 'md5',
};

interface Tlv {
  tag: number;
  /** Offset of the value. */
  start: number;
  /** Offset just past the value. */
  end: number;
}

function readTlv(der: Uint8Array, offset: number, limit: number): Tlv {
  if (offset + 2 > limit) throw new Error('Truncated DER');
  const tag = der[offset]!;
  let length = der[offset + 1]!;
  let start = offset + 2;
  if (length & 0x80) {
    const bytes = length & 0x7f;
    if (bytes === 0 || bytes > 4 || start + bytes > limit) throw new Error('Unsupported DER length');
    length = 0;
    for (let i = 0; i < bytes; i++) length = length * 256 + der[start + i]!;
    start += bytes;
  }
  const end = start + length;
  if (end > limit) throw new Error('DER element runs past its container');
  return { tag, start, end };
}

function children(der: Uint8Array, parent: Tlv): Tlv[] {
  const out: Tlv[] = [];
  for (let offset = parent.start; offset < parent.end; ) {
    const child = readTlv(der, offset, parent.end);
    out.push(child);
    offset = child.end;
  }
  return out;
}

function decodeOid(der: Uint8Array, tlv: Tlv): string {
  if (tlv.tag !== 0x06 || tlv.end <= tlv.start) throw new Error('Expected an OBJECT IDENTIFIER');
  const arcs: number[] = [];
  let value = 0;
  for (let i = tlv.start; i < tlv.end; i++) {
    value = value * 128 + (der[i]! & 0x7f);
    if (!(der[i]! & 0x80)) {
      arcs.push(value);
      value = 0;
    }
  }
  const first = arcs.shift()!;
  const head = first < 80 ? [Math.floor(first / 40), first % 40] : [2, first - 80];
  return [...head, ...arcs].join('.');
}

/** RSASSA-PSS-params: [0] hashAlgorithm, absent = SHA-1 (RFC 4055). */
function pssHash(der: Uint8Array, params: Tlv | undefined): SignatureHash | undefined {
  if (!params || params.tag !== 0x30) return 'sha1';
  const hashField = children(der, params).find((c) => c.tag === 0xa0);
  if (!hashField) return 'sha1';
  const [algorithm] = children(der, hashField);
  const [oid] = algorithm ? children(der, algorithm) : [];
  return oid ? digests[decodeOid(der, oid)] : undefined;
}

/**
 * Reads Certificate.signatureAlgorithm (RFC 5280 §4.1.1.2) from DER. Throws on DER that is not
 * an X.509 certificate.
 */
export function signatureAlgorithmOf(der: Uint8Array): SignatureAlgorithm {
  const certificate = readTlv(der, 0, der.length);
  if (certificate.tag !== 0x30) throw new Error('Not a DER certificate');
  const [, algorithm] = children(der, certificate);
  if (!algorithm || algorithm.tag !== 0x30) throw new Error('Certificate has no signatureAlgorithm');
  const [oidTlv, params] = children(der, algorithm);
  if (!oidTlv) throw new Error('signatureAlgorithm has no OID');
  const oid = decodeOid(der, oidTlv);
  const entry = known[oid];
  if (!entry) return { oid, name: oid };
  if (entry.name === 'rsassaPss') {
    const hash = pssHash(der, params);
    return { oid, name: hash ? `rsassaPss-${hash}` : entry.name, ...(hash ? { hash } : {}) };
  }
  return { oid, name: entry.name, ...(entry.hash ? { hash: entry.hash } : {}) };
}
