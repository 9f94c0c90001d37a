/**
 * DNSSEC trust anchors: DS records the chain of trust starts from. Configuration
 * (ScanSettings.dnssecTrustAnchors), so a test range can anchor its own parent zone; the default is
 * the root zone's key-signing keys as IANA publishes them (KSK-2017 and KSK-2024, the same two
 * Debian's dns-root-data ships in /usr/share/dns/root.ds).
 */
import { canonicalName } from './dnssec-validate.js';

export interface TrustAnchor {
  /** The zone the anchor vouches for ('' is the root). */
  owner: string;
  keyTag: number;
  algorithm: number;
  digestType: number;
  digest: Buffer;
}

export const ROOT_TRUST_ANCHORS: readonly string[] = [
  '. IN DS 20326 8 2 E06D44B80B8F1D39A95C0B0D7C65D08458E880409BBC683457104237C7F8EC8D',
  '. IN DS 38696 8 2 683D2D0ACB8C9B712A1948B27F741219298D0A450D612C483AF444A4C0FB2B16',
];

/**
 * Reads a DS record in zone-file form: `owner [ttl] [IN] DS keytag algorithm digesttype hex`
 * (the hex may be split by spaces, as dnssec-dsfromkey and root.ds write it).
 */
export function parseTrustAnchor(text: string): TrustAnchor {
  const tokens = text.trim().split(/\s+/);
  const owner = tokens.shift();
  if (!owner) throw new Error('Empty DNSSEC trust anchor');
  while (tokens.length > 0 && tokens[0]!.toUpperCase() !== 'DS') tokens.shift();
  const [type, tag, algorithm, digestType, ...hex] = tokens;
  const digest = hex.join('');
  if (type?.toUpperCase() !== 'DS' || !/^\d+$/.test(tag ?? '') || !/^\d+$/.test(algorithm ?? '') || !/^\d+$/.test(digestType ?? '') || !/^([0-9a-f]{2})+$/i.test(digest)) {
    throw new Error(`Not a DS record: "${text}"`);
  }
  return { owner: canonicalName(owner), keyTag: Number(tag), algorithm: Number(algorithm), digestType: Number(digestType), digest: Buffer.from(digest, 'hex') };
}

/** The anchors that cover `domain` best: those of the longest owner at or above it. */
export function anchorsFor(domain: string, anchors: readonly TrustAnchor[]): TrustAnchor[] {
  const name = canonicalName(domain);
  const covering = anchors.filter((a) => a.owner === '' || name === a.owner || name.endsWith(`.${a.owner}`));
  const longest = Math.max(-1, ...covering.map((a) => a.owner.length));
  return covering.filter((a) => a.owner.length === longest);
}
