/**
 * DNSSEC validation on zones bind9 signed (test/fixtures/dns/dnssec, make-fixtures.sh): an
 * independent signer, so the canonical forms, key tags, digests and proofs here are checked
 * against another implementation's output, not against themselves. Signatures there run
 * 2025-01-01 → 2055-01-01; the tests judge them on a fixed date.
 */
import { readFileSync } from 'node:fs';
import type dnsPacket from 'dns-packet';
import { describe, expect, it } from 'vitest';
import { type DnssecMaterial, validateDnssec } from '../../../lambdas/scanner/checks/dns/dnssec-chain.js';
import { canonicalCompare, nsec3Hash, proveNxdomainNsec, proveNxdomainNsec3 } from '../../../lambdas/scanner/checks/dns/dnssec-denial.js';
import { analyzeDnssec } from '../../../lambdas/scanner/checks/dns/dnssec.js';
import { probeDnssec } from '../../../lambdas/scanner/checks/dns/dnssec.probe.js';
import { type DnskeyRecord, dsMatchesKey, keyTag, signaturesFor, validateRrset } from '../../../lambdas/scanner/checks/dns/dnssec-validate.js';
import type { QueryOutcome } from '../../../lambdas/scanner/checks/dns/lookup.js';
import { parseTrustAnchor, ROOT_TRUST_ANCHORS } from '../../../lambdas/scanner/checks/dns/trust-anchors.js';
import type { DnssecObservation } from '../../../lambdas/scanner/checks/dns/zone.probe.js';
import { readZoneFile, signedAnswer, type ZoneTextRecord } from '../../support/zone-text.js';

const fixtures = new URL('../../fixtures/dns/dnssec/', import.meta.url);
const zones = readZoneFile(new URL('zones.txt', fixtures).pathname);
const anchor = parseTrustAnchor(readFileSync(new URL('trust-anchor.ds', fixtures), 'utf8'));
const NOW = new Date('2026-06-01T00:00:00Z');
const nowSeconds = NOW.getTime() / 1000;

const of = <T extends dnsPacket.Answer['type']>(records: readonly dnsPacket.Answer[], name: string, type: T) =>
  records.filter((r) => r.name === name && r.type === type) as Extract<dnsPacket.Answer, { type: T }>[];
const keysOf = (zone: string) => zones.filter((r): r is ZoneTextRecord & DnskeyRecord => r.type === 'DNSKEY' && r.zone === zone);
const childZone = (zone: string) => zones.filter((r) => r.zone === zone);

/** What the probe would gather from a server holding `records`. */
async function material(records: readonly ZoneTextRecord[], domain: string, host = `www.${domain}`, anchors = [anchor]): Promise<DnssecMaterial> {
  return probeDnssec(async (name, type) => signedAnswer(records, name, type), { host, domain, anchors, denialName: `no-such-name.${domain}` });
}

const steps = (validation: ReturnType<typeof validateDnssec>) => validation.steps.map((s) => `${s.step} ${s.type} ${s.name}: ${s.result}`);

describe('signatures, keys and digests against bind9', () => {
  it.each([
    ['good.test', 13],
    ['rsa.test', 8],
    ['rsasha512.test', 10],
    ['p384.test', 14],
    ['ed25519.test', 15],
    ['ed448.test', 16],
    ['sha1.test', 5],
    ['nsec3sha1.test', 7],
  ])('verifies %s (algorithm %i): key tags as bind computed them, the DS digest, every RRset of the zone', (zone, algorithm) => {
    // Prepare
    const records = childZone(zone);
    const keys = keysOf(zone);
    // Assess: bind writes each signature's key tag; ours must agree.
    expect(keys.map((k) => k.data.algorithm)).toEqual(keys.map(() => algorithm));
    const tags = new Set(keys.map((k) => keyTag(k.data)));
    for (const sig of records.filter((r) => r.type === 'RRSIG')) expect(tags.has((sig.data as dnsPacket.RrsigData).keyTag)).toBe(true);
    const ds = of(zones, zone, 'DS').filter((r) => (r as ZoneTextRecord).zone === 'test');
    expect(ds.length).toBeGreaterThan(0);
    for (const d of ds) expect(keys.some((k) => dsMatchesKey(d.data, zone, k.data))).toBe(true);
    // Every signed RRset of the zone verifies, each at its own owner.
    const rrsets = new Map<string, dnsPacket.Answer[]>();
    for (const r of records.filter((r) => r.type !== 'RRSIG')) rrsets.set(`${r.name} ${r.type}`, [...(rrsets.get(`${r.name} ${r.type}`) ?? []), r]);
    const results = [...rrsets].map(([key, rrset]) => [key, validateRrset(rrset, signaturesFor(records, rrset[0]!.name, rrset[0]!.type), keys, zone, nowSeconds).result]);
    expect(results.filter(([, result]) => result !== 'valid')).toEqual([]);
    expect(results.length).toBeGreaterThanOrEqual(9);
  });

  it('takes an RRset in any order and case: canonical form sorts and lowers it', () => {
    const keys = keysOf('good.test');
    const shuffled = [...keys].reverse().map((k) => ({ ...k, name: 'GOOD.Test.' }));
    expect(validateRrset(shuffled, signaturesFor(zones, 'good.test', 'DNSKEY'), keys, 'good.test', nowSeconds).result).toBe('valid');
  });

  it('verifies a wildcard answer against the signature over the wildcard owner', () => {
    const answer = signedAnswer(zones, 'anything.shop.good.test', 'A') as Extract<QueryOutcome, { ok: true }>;
    expect(answer.answers.map((r) => [r.name, r.type])).toEqual([['anything.shop.good.test', 'A'], ['anything.shop.good.test', 'RRSIG']]);
    const result = validateRrset(of(answer.answers, 'anything.shop.good.test', 'A'), signaturesFor(answer.answers, 'anything.shop.good.test', 'A'), keysOf('good.test'), 'good.test', nowSeconds);
    expect(result.result).toBe('valid');
  });

  it('tells a forged record, a missing signature, an unknown key and a signature out of its window apart', () => {
    const keys = keysOf('good.test');
    const a = zones.filter((r): r is ZoneTextRecord & dnsPacket.StringAnswer => r.name === 'good.test' && r.type === 'A');
    const sigs = signaturesFor(zones, 'good.test', 'A');
    expect(validateRrset([{ ...a[0]!, data: '127.0.0.66' }], sigs, keys, 'good.test', nowSeconds)).toMatchObject({ result: 'bogus', signatures: [{ result: 'bad-signature' }] });
    expect(validateRrset(a, [], keys, 'good.test', nowSeconds).result).toBe('missing');
    expect(validateRrset(a, sigs, keysOf('rsa.test'), 'good.test', nowSeconds)).toMatchObject({ result: 'bogus', signatures: [{ result: 'no-key' }] });
    expect(validateRrset(a, sigs, keys, 'good.test', Date.UTC(2060, 0, 1) / 1000)).toMatchObject({ result: 'expired', signatures: [{ expiration: '2055-01-01T00:00:00.000Z' }] });
    expect(validateRrset(a, sigs, keys, 'good.test', Date.UTC(2024, 0, 1) / 1000)).toMatchObject({ result: 'not-yet-valid', signatures: [{ inception: '2025-01-01T00:00:00.000Z' }] });
  });

  it("reads trust anchors in zone-file form, the root's among them", () => {
    expect(ROOT_TRUST_ANCHORS.map(parseTrustAnchor).map((a) => [a.owner, a.keyTag, a.algorithm, a.digestType, a.digest.length])).toEqual([
      ['', 20326, 8, 2, 32],
      ['', 38696, 8, 2, 32],
    ]);
    expect(parseTrustAnchor('example. 3600 IN DS 1234 13 2 AB CD')).toMatchObject({ owner: 'example', keyTag: 1234, digest: Buffer.from('abcd', 'hex') });
    expect(() => parseTrustAnchor('example. IN DNSKEY 257 3 13 AAAA')).toThrow('Not a DS record');
  });
});

describe('denial of existence', () => {
  it('orders names as RFC 4034 §6.1 does', () => {
    const ordered = ['example', 'a.example', 'yljkjljk.a.example', 'Z.a.example', 'zABC.a.EXAMPLE', 'z.example', '*.z.example'];
    expect([...ordered].reverse().sort(canonicalCompare)).toEqual(['example', 'a.example', 'yljkjljk.a.example', 'Z.a.example', 'zABC.a.EXAMPLE', 'z.example', '*.z.example']);
  });

  it('hashes names as RFC 5155 Appendix A does', () => {
    expect(nsec3Hash('example', Buffer.from('aabbccdd', 'hex'), 12)).toBe('0p9mhaveqvm6t7vbl5lop2u3t2rp3tom');
    expect(nsec3Hash('a.example', Buffer.from('aabbccdd', 'hex'), 12)).toBe('35mthgpgcu1qg68fab165klnsnk3dpvl');
  });

  it('proves a name absent with NSEC: covered, and no wildcard at the closest encloser', () => {
    const nsecs = childZone('rsa.test').filter((r): r is ZoneTextRecord & dnsPacket.NsecAnswer => r.type === 'NSEC');
    expect(proveNxdomainNsec('no-such-name.rsa.test', nsecs, 'rsa.test')).toMatchObject({ proven: true, closestEncloser: 'rsa.test', nameCoveredBy: 'mail.rsa.test', wildcardCoveredBy: 'rsa.test' });
    // Without the record that covers it, nothing is proven.
    expect(proveNxdomainNsec('no-such-name.rsa.test', nsecs.filter((r) => r.name !== 'mail.rsa.test'), 'rsa.test')).toMatchObject({ proven: false, why: 'No NSEC record covers no-such-name.rsa.test' });
  });

  it('proves a name absent with NSEC3, unsalted and salted with iterations', () => {
    for (const zone of ['good.test', 'ed25519.test']) {
      const nsec3s = childZone(zone).filter((r): r is ZoneTextRecord & dnsPacket.Nsec3Answer => r.type === 'NSEC3');
      expect(proveNxdomainNsec3(`no-such-name.${zone}`, nsec3s, zone)).toMatchObject({ proven: true, closestEncloser: zone, optOut: false });
    }
    expect(proveNxdomainNsec3('no-such-name.ed25519.test', [], 'ed25519.test')).toMatchObject({ proven: false });
  });
});

describe('the chain from the trust anchor', () => {
  it('validates every link of good.test: anchor, DS, keys, A/AAAA/MX, NSEC3 denial', async () => {
    const validation = validateDnssec(await material(zones, 'good.test'), NOW);
    expect(validation).toMatchObject({ result: 'secure', anchor: 'test', chainFromAnchor: true, algorithms: [13] });
    expect(steps(validation)).toEqual([
      'dnskey DNSKEY test: valid',
      'ds DS good.test: valid',
      'dnskey DNSKEY good.test: valid',
      'rrset A www.good.test: valid',
      'rrset AAAA www.good.test: valid',
      'rrset A good.test: valid',
      'rrset MX good.test: valid',
      'denial A no-such-name.good.test: valid',
    ]);
  });

  it.each(['rsa.test', 'rsasha512.test', 'p384.test', 'ed25519.test', 'ed448.test', 'sha1.test', 'nsec3sha1.test'])('validates %s', async (zone) => {
    expect(validateDnssec(await material(zones, zone), NOW).result).toBe('secure');
  });

  it('names the expiry date when the signatures ran out, and checks the data with the lapsed keys', async () => {
    const validation = validateDnssec(await material(zones, 'expired.test'), NOW);
    expect(validation.result).toBe('bogus');
    expect(validation.reason).toMatch(/^DNSKEY expired\.test: the signature by key \d+ \(ECDSAP256SHA256\) expired on 2020-02-01$/);
    expect(steps(validation).slice(2)).toEqual([
      'dnskey DNSKEY expired.test: expired',
      'rrset A www.expired.test: expired',
      'rrset A expired.test: expired',
      'rrset MX expired.test: expired',
      'denial A no-such-name.expired.test: expired',
    ]);
  });

  it('finds signatures that start in the future', async () => {
    const validation = validateDnssec(await material(zones, 'future.test'), NOW);
    expect(validation.reason).toMatch(/is valid only from 2050-01-01$/);
    expect(validation.steps.find((s) => s.name === 'future.test' && s.step === 'dnskey')?.result).toBe('not-yet-valid');
  });

  it('finds a DS at the parent that names no key of the zone (a key rolled without telling the registrar)', async () => {
    const wrong = { ...anchor, owner: 'good.test', digest: Buffer.alloc(32, 1) };
    const validation = validateDnssec(await material(zones, 'good.test', 'www.good.test', [wrong]), NOW);
    expect(validation.result).toBe('bogus');
    expect(validation.reason).toMatch(/^No DNSKEY of good\.test matches the DS at the trust anchor \(DS \d+\/ECDSAP256SHA256\/SHA-256; keys \d+\/ECDSAP256SHA256, \d+\/ECDSAP256SHA256\)$/);
  });

  it('finds a tampered signature and a denial without proof', async () => {
    const forged = zones.map((r) => (r.type === 'RRSIG' && r.name === 'www.good.test' && r.data.typeCovered === 'AAAA' ? { ...r, data: { ...r.data, signature: Buffer.alloc(64, 1) } } : r));
    const noProof = zones.filter((r) => !(r.zone === 'rsa.test' && r.type === 'NSEC'));
    const tamperedSteps = steps(validateDnssec(await material(forged, 'good.test'), NOW));
    expect(tamperedSteps).toContain('rrset AAAA www.good.test: bogus');
    expect(tamperedSteps).toContain('rrset A www.good.test: valid');
    const unproven = validateDnssec(await material(noProof, 'rsa.test'), NOW);
    expect(steps(unproven).at(-1)).toBe('denial A no-such-name.rsa.test: missing');
  });

  it('sees an unsigned delegation as insecure, not broken', async () => {
    const validation = validateDnssec(await material(zones, 'plain.test'), NOW);
    expect([validation.result, steps(validation)]).toEqual(['insecure', ['dnskey DNSKEY test: valid', 'ds DS plain.test: insecure']]);
  });

  it("checks the zone itself from its parent's DS when the chain above cannot be followed (no root keys here)", async () => {
    const anchors = ROOT_TRUST_ANCHORS.map(parseTrustAnchor);
    const validation = validateDnssec(await material(zones, 'good.test', 'www.good.test', anchors), NOW);
    expect(validation).toMatchObject({ result: 'indeterminate', anchor: '.', chainFromAnchor: false });
    expect(steps(validation).slice(0, 2)).toEqual(['dnskey DNSKEY .: indeterminate', 'dnskey DNSKEY good.test: valid']);
    expect(validation.steps.filter((s) => s.step === 'rrset').every((s) => s.result === 'valid')).toBe(true);
  });
});

describe('DNSSEC findings from the validation', () => {
  const observed = (o: Partial<DnssecObservation> = {}): DnssecObservation => ({ dnskeys: 2, rrsig: true, ds: 1, validated: false, dnskeyRcode: 'NOERROR', ...o });
  const findings = async (records: readonly ZoneTextRecord[], zone: string) =>
    analyzeDnssec(zone, observed(), validateDnssec(await material(records, zone), NOW)).map((f) => [f.id, f.severity]);

  it('reports a validated chain as an observation, and RSA/SHA-1 with NSEC3 as deprecated', async () => {
    expect(await findings(zones, 'good.test')).toEqual([['dns.dnssec.validated', 'info']]);
    expect(await findings(zones, 'nsec3sha1.test')).toEqual([
      ['dns.dnssec.deprecated-algorithm', 'medium'],
      ['dns.dnssec.validated', 'info'],
    ]);
  });

  it('reports expired and not-yet-valid signatures as critical, each with its own fix', async () => {
    expect(await findings(zones, 'expired.test')).toEqual([['dns.dnssec.signature-expired', 'critical']]);
    expect(await findings(zones, 'future.test')).toEqual([['dns.dnssec.signature-not-yet-valid', 'critical']]);
  });

  it('reports an unprovable denial as high, apart from the rest that validates', async () => {
    const noProof = zones.filter((r) => !(r.zone === 'rsa.test' && r.type === 'NSEC'));
    expect(await findings(noProof, 'rsa.test')).toEqual([['dns.dnssec.denial-unproven', 'high']]);
  });

  it('says the DS at the registrar is the culprit when it names no key', async () => {
    const wrong = { ...anchor, owner: 'good.test', digest: Buffer.alloc(32, 1) };
    const validation = validateDnssec(await material(zones, 'good.test', 'www.good.test', [wrong]), NOW);
    const [broken] = analyzeDnssec('good.test', observed(), validation);
    expect([broken?.id, broken?.severity]).toEqual(['dns.dnssec.broken', 'critical']);
    expect(broken?.description).toMatch(/^The DS record at the registrar does not match any key the zone serves/);
    expect(broken?.recommendation).toMatch(/^Publish the DS record of the zone's current key-signing key at your registrar/);
  });

  it('keeps the unsigned finding for a zone without keys or DS', async () => {
    const validation = validateDnssec(await material(zones, 'plain.test'), NOW);
    expect(analyzeDnssec('plain.test', observed({ dnskeys: 0, rrsig: false, ds: 0 }), validation).map((f) => f.id)).toEqual(['dns.dnssec.unsigned']);
  });
});

describe('malformed DNSSEC records', () => {
  it('never throw: a record that cannot be encoded fails its signature, and the rest of the chain is still judged', async () => {
    const garbled = zones.map((r) => (r.zone === 'good.test' && r.type === 'A' && r.name === 'good.test' ? ({ ...r, data: 'not an address' } as unknown as ZoneTextRecord) : r));
    const validation = validateDnssec(await material(garbled, 'good.test'), NOW);
    expect(validation.steps.find((s) => s.name === 'good.test' && s.type === 'A')).toMatchObject({ result: 'bogus', signatures: [{ result: 'bad-signature' }] });
    expect(validation.steps.find((s) => s.name === 'good.test' && s.type === 'MX')?.result).toBe('valid');
  });

  it('reads a proof whose records are mangled as not proven, and a key without data as no key', async () => {
    const noHash = zones.map((r) => (r.zone === 'good.test' && r.type === 'NSEC3' ? ({ ...r, data: { ...(r.data as object), nextDomain: undefined } } as unknown as ZoneTextRecord) : r));
    expect(steps(validateDnssec(await material(noHash, 'good.test'), NOW)).at(-1)).toBe('denial A no-such-name.good.test: bogus');
    const keyless = { ok: true as const, rcode: 'NOERROR', answers: [{ name: 'test', type: 'DNSKEY', data: null } as unknown as dnsPacket.Answer], authorities: [], ad: false };
    const validation = validateDnssec({ domain: 'good.test', anchors: [anchor], dnskey: { test: keyless }, ds: {}, data: [] }, NOW);
    expect(validation.result).toBe('indeterminate');
  });
});
