import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dnsCheck } from '../../../lambdas/scanner/checks/dns.check.js';
import { checkContext, runWith } from '../../support/check-context.js';
import { startZoneServer, type ZoneServer } from '../../support/zone-server.js';
import { exampleZone, secureZone, wildcardZone } from '../../fixtures/dns/zones.js';

let server: ZoneServer;

beforeAll(async () => {
  server = await startZoneServer({
    records: [...exampleZone, ...secureZone, ...wildcardZone, { name: 'shop.bare.test', type: 'A', ttl: 60, data: '127.0.0.1' }],
    allowTransfer: ['example.test'],
    signedZones: ['secure.test'],
    validating: true,
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

  it('finds nothing to report on a signed zone with two name servers, CAA and refused transfers', async () => {
    const context = checkContext({ dnsPort: server.port, host: 'www.secure.test', domain: 'secure.test', addresses: ['127.0.0.1', '::1'] });
    const result = await runWith(dnsCheck, context);
    expect(ids(result.findings)).toEqual([]);
    expect(result.data).toMatchObject({
      dnssec: { status: 'signed', dnskeys: 1, rrsig: true, ds: 1, validated: true },
      caa: { owner: 'secure.test', records: ['0 issue "letsencrypt.org"'] },
      axfr: [
        { ns: 'ns1.secure.test', allowed: false, recordCount: 0, error: 'REFUSED' },
        { ns: 'ns2.secure.test', allowed: false, recordCount: 0, error: 'REFUSED' },
      ],
    });
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
