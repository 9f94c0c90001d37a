/**
 * Certificate Transparency and OCSP stapling (pure): the SCTs embedded in the leaf certificate
 * (RFC 6962 §3.3, read with a minimal DER walk: Node's X509Certificate exposes no extensions) and
 * whether the server stapled an OCSP response when the handshake asked for one (status_request).
 */
import type { X509Certificate } from 'node:crypto';
import type { TlsHandshake } from '../../net/tls-client.js';
import type { TlsIssue } from './issues.js';

/** DER of OID 1.3.6.1.4.1.11129.2.4.2, the embedded SignedCertificateTimestampList extension. */
const SCT_LIST_OID = Buffer.from([0x2b, 0x06, 0x01, 0x04, 0x01, 0xd6, 0x79, 0x02, 0x04, 0x02]);

export interface EmbeddedSct {
  /** The log's id (SHA-256 of its key), base64 as CT log lists publish it. */
  logId: string;
  timestamp: string;
}

export interface TransparencyReport {
  /** SCTs embedded in the leaf; [] when it has none; null when there is no certificate to read. */
  scts: EmbeddedSct[] | null;
  /** The extension is there but its content could not be read. */
  sctListMalformed: boolean;
  /** Only embedded SCTs are read: SCTs sent in the TLS extension or inside a stapled OCSP response are not. */
  sctSources: 'embedded only';
}

export interface OcspStaplingReport {
  /** Any handshake of the port got a stapled response (null: no handshake recorded it). */
  stapled: boolean | null;
  /** The leaf's OCSP responder, from Authority Information Access; null when it names none (as Let's Encrypt's have not since 2025). */
  responder: string | null;
}

interface Tlv {
  tag: number;
  start: number;
  end: number;
}

/** One DER element at `offset`: its tag and where its content starts and ends. */
function readTlv(der: Buffer, offset: number): Tlv {
  if (offset + 2 > der.length) throw new Error('truncated DER');
  const tag = der[offset]!;
  let length = der[offset + 1]!;
  let start = offset + 2;
  if (length & 0x80) {
    const bytes = length & 0x7f;
    if (bytes === 0 || bytes > 4 || start + bytes > der.length) throw new Error('unsupported DER length');
    length = 0;
    for (let i = 0; i < bytes; i++) length = length * 256 + der[start + i]!;
    start += bytes;
  }
  if (start + length > der.length) throw new Error('truncated DER');
  return { tag, start, end: start + length };
}

function children(der: Buffer, parent: Tlv): Tlv[] {
  const list: Tlv[] = [];
  for (let offset = parent.start; offset < parent.end; ) {
    const child = readTlv(der, offset);
    list.push(child);
    offset = child.end;
  }
  return list;
}

/** The value (inside its OCTET STRING) of the extension with `oid`, or null. */
export function extensionValue(certificate: X509Certificate, oid: Buffer): Buffer | null {
  const der = certificate.raw;
  const tbs = children(der, readTlv(der, 0))[0];
  if (!tbs) return null;
  const extensionsWrapper = children(der, tbs).find((element) => element.tag === 0xa3);
  if (!extensionsWrapper) return null;
  const [extensions] = children(der, extensionsWrapper);
  if (!extensions) return null;
  for (const extension of children(der, extensions)) {
    const parts = children(der, extension);
    const id = parts[0];
    if (!id || id.tag !== 0x06 || !der.subarray(id.start, id.end).equals(oid)) continue;
    const value = parts.at(-1)!;
    return value.tag === 0x04 ? der.subarray(value.start, value.end) : null;
  }
  return null;
}

/** The SCTs of an embedded SignedCertificateTimestampList (the extension value is an OCTET STRING around the TLS-encoded list). */
export function parseSctList(value: Buffer): EmbeddedSct[] {
  const inner = readTlv(value, 0);
  if (inner.tag !== 0x04) throw new Error('SCT list is not an OCTET STRING');
  const list = value.subarray(inner.start, inner.end);
  const total = list.readUInt16BE(0);
  if (total + 2 !== list.length) throw new Error('SCT list length does not match');
  const scts: EmbeddedSct[] = [];
  for (let offset = 2; offset < list.length; ) {
    const length = list.readUInt16BE(offset);
    const sct = list.subarray(offset + 2, offset + 2 + length);
    if (sct.length !== length || length < 41) throw new Error('truncated SCT');
    scts.push({ logId: sct.subarray(1, 33).toString('base64'), timestamp: new Date(Number(sct.readBigUInt64BE(33))).toISOString() });
    offset += 2 + length;
  }
  return scts;
}

/** The embedded SCTs of a leaf certificate. */
export function transparencyOf(leaf: X509Certificate | undefined): TransparencyReport {
  if (!leaf) return { scts: null, sctListMalformed: false, sctSources: 'embedded only' };
  try {
    const value = extensionValue(leaf, SCT_LIST_OID);
    return { scts: value ? parseSctList(value) : [], sctListMalformed: false, sctSources: 'embedded only' };
  } catch {
    return { scts: [], sctListMalformed: true, sctSources: 'embedded only' };
  }
}

/** The OCSP responder named in the leaf's Authority Information Access. */
export function ocspResponderOf(leaf: X509Certificate | undefined): string | null {
  const match = /^OCSP - URI:(\S+)/m.exec(leaf?.infoAccess ?? '');
  return match ? match[1]! : null;
}

/** Whether the server stapled OCSP on any of the port's successful handshakes. */
export function ocspStaplingOf(handshakes: readonly TlsHandshake[], leaf: X509Certificate | undefined): OcspStaplingReport {
  const recorded = handshakes.filter((h) => h.ocspStapleBytes !== undefined);
  return { stapled: recorded.length === 0 ? null : recorded.some((h) => h.ocspStapleBytes! > 0), responder: ocspResponderOf(leaf) };
}

/**
 * Issues: a publicly trusted leaf without embedded SCTs (Chrome and Safari require SCTs; this site
 * must deliver them another way or be refused), and no stapled OCSP response when the leaf names a
 * responder (visitors' browsers then ask the CA, or skip the check). Untrusted chains are judged elsewhere.
 */
export function transparencyIssues(transparency: TransparencyReport, stapling: OcspStaplingReport, trusted: boolean): TlsIssue[] {
  const issues: TlsIssue[] = [];
  if (trusted && transparency.scts !== null && transparency.scts.length === 0) {
    issues.push({
      id: 'tls.cert.no-sct',
      severity: 'low',
      evidence: transparency.sctListMalformed ? 'the leaf\'s SCT list extension could not be read' : 'the leaf certificate embeds no Signed Certificate Timestamps (OID 1.3.6.1.4.1.11129.2.4.2)',
    });
  }
  if (stapling.stapled === false && stapling.responder) {
    issues.push({ id: 'tls.ocsp.not-stapled', severity: 'info', evidence: `no OCSP response stapled to the handshake although the certificate names the responder ${stapling.responder}` });
  }
  return issues;
}
