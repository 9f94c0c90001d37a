import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dnsCheck } from '../../../lambdas/scanner/checks/dns.check.js';
import type { DnssecValidation } from '../../../lambdas/scanner/checks/dns/dnssec-chain.js';
import { checkContext, runWith } from '../../support/check-context.js';
import { startZoneServer, type ZoneServer } from '../../support/zone-server.js';
import { readZoneFile, type ZoneTextRecord } from '../../support/zone-text.js';
import { exampleZone, wildcardZone } from '../../fixtures/dns/zones.js';

let server: ZoneServer;
const fixtures = new URL('../../fixtures/dns/dnssec/', import.meta.url);
// The bind9-signed zones under the fixtures' own parent `test.`, anchored by its key.
const signed = readZoneFile(new URL('zones.txt', fixtures).pathname);
const trustAnchor = readFileSync(new URL('trust-anchor.ds', fixtures), 'utf8').trim();
const dnssecSettings = { dnssecTrustAnchors: [trustAnchor] };

/** The signed fixtures with one RRSIG's signature bytes flipped: a forgery, or a corruption. */
function tampered(records: readonly ZoneTextRecord[], owner: string, covered: string): ZoneTextRecord[] {
  return records.map((r) => {
    if (r.type !== 'RRSIG' || r.name !== owner || r.data.typeCovered !== covered) return r;
    const signature = Buffer.from(r.data.signature);
    signature[10]! ^= 0xff;
    return { ...r, data: { ...r.data, signature } };
  });
}

beforeAll(async () => {
  server = await startZoneServer({
    records: [...exampleZone, ...wildcardZone, { name: 'shop.bare.test', type: 'A', ttl: 60, data: '127.0.0.1' }],
    allowTransfer: ['example.test'],
    dnssecZones: signed,
  });
});
afterAll(() => server.close());

const ids = (findings: { id: string; severity: string }[]) => findings.map((f) => [f.id, f.severity]);

describe('dns check against a loopback zone', () => {
  it('finds the range zone open to transfer, unsigned, single-homed and without CAA, in well under 2 s', async () => {
    // Prepare
    const context = checkContext({ dnsPort: server.port, host: 'www.example.test', domain: 'example.test', addresses: ['127.0.0.1'] });
    // Act
    const result = await runWith(dnsCheck, context);
    // Assess
    expect(result.status).toBe('ok');
    expect(result.durationMs).toBeLessThan(2000);
    expect(ids(result.findings)).toEqual([
      ['dns.resolve.no-ipv6', 'info'],
      ['dns.axfr.open', 'high'],
      ['dns.dnssec.unsigned', 'low'],
      ['dns.ns.single', 'low'],
      ['dns.caa.missing', 'info'],
    ]);
    const axfr = result.findings.find((f) => f.id === 'dns.axfr.open')!;
    expect(axfr.evidence).toBe(
      `ns1.example.test (127.0.0.1) answered AXFR for example.test: 14 records (A 9, MX 1, NS 1, SOA 1, TXT 2); names: ` +
        'dev.example.test, legacy.example.test, mail.example.test, ns1.example.test, staging.example.test, vpn.example.test, wp.example.test, www.example.test, _dmarc.example.test',
    );
    expect(result.data).toMatchObject({
      host: 'www.example.test',
      ipv4: ['127.0.0.1'],
      domain: 'example.test',
      zoneFound: true,
      nameservers: [{ name: 'ns1.example.test', addresses: ['127.0.0.1'] }],
      axfr: [{ ns: 'ns1.example.test', address: '127.0.0.1', port: server.port, allowed: true, recordCount: 14 }],
      dnssec: { status: 'unsigned', dnskeys: 0, rrsig: false, ds: 0, validated: false },
      caa: { owner: undefined, records: [] },
      wildcard: { detected: false },
      errors: [],
    });
    expect((result.data as { records: Record<string, unknown> }).records).toMatchObject({
      'example.test': {
        SOA: ['ns1.example.test hostmaster.example.test 2024010101 3600 600 604800 300'],
        NS: ['ns1.example.test'],
        MX: ['10 mail.example.test'],
        TXT: ['v=spf1 mx a ~all'],
        A: ['127.0.0.1'],
      },
      'www.example.test': { A: ['127.0.0.1'] },
    });
  });

  it('validates a signed zone with two name servers, CAA and refused transfers from the trust anchor down, and reports only that', async () => {
    // Prepare
    const context = checkContext({ dnsPort: server.port, host: 'www.good.test', domain: 'good.test', addresses: ['127.0.0.1', '::1'], settings: dnssecSettings });
    // Act
    const result = await runWith(dnsCheck, context);
    // Assess
    expect(ids(result.findings)).toEqual([['dns.dnssec.validated', 'info']]);
    expect(result.findings[0]!.evidence).toBe(
      "good.test: chain from the trust anchor (test) through the DS to the zone's keys (ECDSAP256SHA256); signed A www.good.test, AAAA www.good.test, A good.test, MX good.test; NSEC3 proves non-existent names",
    );
    const dnssec = (result.data as { dnssec: { status: string; validation: DnssecValidation } }).dnssec;
    expect(dnssec.status).toBe('secure');
    expect(dnssec.validation).toMatchObject({ result: 'secure', anchor: 'test', chainFromAnchor: true, algorithms: [13] });
    expect(dnssec.validation.steps.map((s) => [s.step, s.name, s.type, s.zone, s.result])).toEqual([
      ['dnskey', 'test', 'DNSKEY', 'the trust anchor', 'valid'],
      ['ds', 'good.test', 'DS', 'test', 'valid'],
      ['dnskey', 'good.test', 'DNSKEY', 'test', 'valid'],
      ['rrset', 'www.good.test', 'A', 'good.test', 'valid'],
      ['rrset', 'www.good.test', 'AAAA', 'good.test', 'valid'],
      ['rrset', 'good.test', 'A', 'good.test', 'valid'],
      ['rrset', 'good.test', 'MX', 'good.test', 'valid'],
      ['denial', expect.stringMatching(/^rampart-[a-z0-9]+\.good\.test$/), 'A', 'good.test', 'valid'],
    ]);
    expect(result.data).toMatchObject({
      caa: { owner: 'good.test', records: ['0 issue "letsencrypt.org"'] },
      axfr: [
        { ns: 'ns1.good.test', allowed: false, recordCount: 0, error: 'REFUSED' },
        { ns: 'ns2.good.test', allowed: false, recordCount: 0, error: 'REFUSED' },
      ],
    });
    // The validation's questions set DO and CD; the whole check stays well inside its budget.
    expect(server.queries.filter((q) => q.name === 'good.test' && q.type === 'DS').map((q) => [q.dnssec, q.checkingDisabled])).toContainEqual([true, true]);
    expect(result.durationMs).toBeLessThan(2000);
  });

  it('finds a tampered signature over the A record: DNSSEC broken, critical', async () => {
    const forged = await startZoneServer({ records: [], dnssecZones: tampered(signed, 'good.test', 'A') });
    try {
      const result = await runWith(dnsCheck, checkContext({ dnsPort: forged.port, host: 'good.test', domain: 'good.test', addresses: ['127.0.0.1'], settings: dnssecSettings }));
      const broken = result.findings.find((f) => f.id === 'dns.dnssec.broken')!;
      expect([broken.severity, broken.evidence]).toEqual(['critical', expect.stringMatching(/^good\.test: A good\.test: the signature by key \d+ \(ECDSAP256SHA256\) does not verify$/)]);
      expect(result.findings.map((f) => f.id)).not.toContain('dns.dnssec.validated');
      expect((result.data as { dnssec: { status: string } }).dnssec.status).toBe('broken');
    } finally {
      await forged.close();
    }
  });

  it('finds signatures that expired in 2020, and says when', async () => {
    const result = await runWith(dnsCheck, checkContext({ dnsPort: server.port, host: 'www.expired.test', domain: 'expired.test', addresses: ['127.0.0.1'], settings: dnssecSettings }));
    const expired = result.findings.find((f) => f.id === 'dns.dnssec.signature-expired')!;
    expect(expired.severity).toBe('critical');
    expect(expired.evidence).toMatch(/^expired\.test: DNSKEY expired\.test: the signature by key \d+ \(ECDSAP256SHA256\) expired on 2020-02-01; A www\.expired\.test: /);
    expect(result.findings.map((f) => f.id)).not.toContain('dns.dnssec.broken');
  });

  it('finds RSA/SHA-1 as a deprecated algorithm on a zone that still validates', async () => {
    const result = await runWith(dnsCheck, checkContext({ dnsPort: server.port, host: 'www.sha1.test', domain: 'sha1.test', addresses: ['127.0.0.1'], settings: dnssecSettings }));
    expect(ids(result.findings).filter(([id]) => id!.startsWith('dns.dnssec'))).toEqual([
      ['dns.dnssec.deprecated-algorithm', 'medium'],
      ['dns.dnssec.validated', 'info'],
    ]);
    expect(result.findings.find((f) => f.id === 'dns.dnssec.deprecated-algorithm')!.evidence).toBe('sha1.test: signed with RSASHA1 (5)');
  });

  it('reports a wildcard with the random name that resolved', async () => {
    const result = await runWith(dnsCheck, checkContext({ dnsPort: server.port, host: 'www.wild.test', domain: 'wild.test', addresses: ['127.0.0.1'] }));
    const wildcard = result.findings.find((f) => f.id === 'dns.wildcard');
    expect(wildcard?.severity).toBe('info');
    expect(wildcard?.evidence).toMatch(/^rampart-[a-z0-9]+\.wild\.test \(a random name\) resolves to 127\.0\.0\.7$/);
  });

  it('does not attempt a transfer from a name server at a private address unless private targets are allowed', async () => {
    const before = server.queries.filter((q) => q.type === 'AXFR').length;
    const context = checkContext({ dnsPort: server.port, host: 'www.example.test', domain: 'example.test', addresses: ['203.0.113.10'], settings: { allowPrivateTargets: false } });
    const result = await runWith(dnsCheck, context);
    expect(server.queries.filter((q) => q.type === 'AXFR').length).toBe(before);
    expect(result.findings.map((f) => f.id)).not.toContain('dns.axfr.open');
    expect(result.data).toMatchObject({ axfr: [{ ns: 'ns1.example.test', allowed: false, error: 'Not attempted: 127.0.0.1 is not a public address' }] });
  });

  it('keeps to the address findings when the domain has no zone (a server that only knows A records)', async () => {
    const result = await runWith(dnsCheck, checkContext({ dnsPort: server.port, host: 'shop.bare.test', domain: 'bare.test', addresses: ['127.0.0.1'] }));
    expect(result.status).toBe('ok');
    expect(ids(result.findings)).toEqual([['dns.resolve.no-ipv6', 'info']]);
    expect(result.data).toMatchObject({ host: 'shop.bare.test', ipv4: ['127.0.0.1'], ipv6: [], zoneFound: false });
  });

  it('ends in error, not in findings, when no DNS server answers', async () => {
    const closed = await startZoneServer({ records: [] });
    const port = closed.port;
    await closed.close();
    const result = await runWith(dnsCheck, checkContext({ dnsPort: port, host: 'www.example.test', domain: 'example.test', addresses: ['127.0.0.1'] }));
    expect(result.status).toBe('error');
    expect(result.reason).toMatch(/^No DNS server answered about example\.test: /);
  });

  it('assesses no zone for an IP-address target', async () => {
    const result = await runWith(dnsCheck, checkContext({ dnsPort: server.port, host: '127.0.0.1', domain: undefined, addresses: ['127.0.0.1'] }));
    expect(ids(result.findings)).toEqual([['dns.resolve.no-ipv6', 'info']]);
    expect(result.data).toMatchObject({ zoneFound: false });
  });

  it('keeps the resolve error of the scan as the check error', async () => {
    const context = { ...checkContext({ dnsPort: server.port, host: 'www.example.test', domain: 'example.test' }), resolveError: 'ETIMEOUT: queryA ETIMEOUT' };
    const result = await runWith(dnsCheck, context);
    expect([result.status, result.reason]).toEqual(['error', 'Resolving www.example.test failed: ETIMEOUT: queryA ETIMEOUT']);
  });
});
