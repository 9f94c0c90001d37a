/**
 * Signs a zone at run time, for tests whose records only exist then (a TLSA record of a
 * certificate the test makes): a fresh ECDSA P-256 key (algorithm 13) as the zone's only key,
 * every RRset signed with it, and the DS that anchors it. The validator itself is tested against
 * zones bind9 signed (test/fixtures/dns/dnssec, test/fixtures/dns/dane), an independent signer;
 * this one builds the data with the validator's own canonical form, so it proves nothing about
 * that form and is for the checks built on top of it.
 */
import { generateKeyPairSync, sign } from 'node:crypto';
import type dnsPacket from 'dns-packet';
import { dsDigest, keyTag, signedData } from '../../lambdas/scanner/checks/dns/dnssec-validate.js';
import type { ZoneTextRecord } from './zone-text.js';

const norm = (name: string) => name.toLowerCase().replace(/\.$/, '');

export interface SignedZone {
  /** The zone's records, its DNSKEY and an RRSIG per RRset, tagged with the zone (zone-server's `dnssecZones`). */
  records: ZoneTextRecord[];
  /** The DS of the zone's key in zone-file form, for `ScanSettings.dnssecTrustAnchors`. */
  trustAnchor: string;
}

/** Signs every RRset of `records` (all in `zone`, which must include its SOA) valid 2025-01-01 → 2055-01-01. */
export function signZone(zone: string, records: readonly dnsPacket.Answer[]): SignedZone {
  const apex = norm(zone);
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const jwk = publicKey.export({ format: 'jwk' });
  const key: dnsPacket.DnskeyData = { flags: 257, algorithm: 13, key: Buffer.concat([Buffer.from(jwk.x!, 'base64url'), Buffer.from(jwk.y!, 'base64url')]) };
  const tag = keyTag(key);
  const all = [...records.map((r) => ({ ...r, name: norm(r.name) }) as dnsPacket.Answer), { name: apex, type: 'DNSKEY', ttl: 300, class: 'IN', data: key } as dnsPacket.Answer];
  const rrsets = new Map<string, dnsPacket.Answer[]>();
  for (const record of all) rrsets.set(`${record.name} ${record.type}`, [...(rrsets.get(`${record.name} ${record.type}`) ?? []), record]);
  const signatures = [...rrsets.values()].map((rrset) => {
    const owner = rrset[0]!.name;
    const labels = owner.split('.').filter((l) => l !== '' && l !== '*').length;
    const rrsig: dnsPacket.RrsigData = {
      typeCovered: rrset[0]!.type,
      algorithm: 13,
      labels,
      originalTTL: (rrset[0] as { ttl?: number }).ttl ?? 300,
      expiration: Date.UTC(2055, 0, 1) / 1000,
      inception: Date.UTC(2025, 0, 1) / 1000,
      keyTag: tag,
      signersName: apex,
      signature: Buffer.alloc(0),
    };
    const signature = sign('sha256', signedData(rrsig, rrset), { key: privateKey, dsaEncoding: 'ieee-p1363' });
    return { name: owner, type: 'RRSIG', ttl: 300, class: 'IN', data: { ...rrsig, signature } } as dnsPacket.Answer;
  });
  return {
    records: [...all, ...signatures].map((r) => ({ ...r, zone: apex }) as ZoneTextRecord),
    trustAnchor: `${apex}. IN DS ${tag} 13 2 ${dsDigest(apex, key, 2)!.toString('hex')}`,
  };
}
