import dgram from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import dnsPacket from 'dns-packet';
import { createDnsClient, parseServerList } from '../../../lambdas/scanner/net/dns-client.js';
import { startZoneServer, type ZoneRecord, type ZoneServer } from '../../support/zone-server.js';
import { exampleZone } from '../../fixtures/dns/zones.js';

/** The record's data (OPT pseudo-records have none). */
const dataOf = (a: dnsPacket.Answer) => ('data' in a ? a.data : undefined);

let server: ZoneServer;
const client = () => createDnsClient({ resolvers: [{ host: server.host, port: server.port }], timeoutMs: 300 });

const records: ZoneRecord[] = [
  ...exampleZone,
  { name: 'example.test', type: 'DNSKEY', ttl: 300, data: { flags: 257, algorithm: 13, key: Buffer.alloc(64, 1) } },
  { name: 'tc.example.test', type: 'A', ttl: 300, data: '127.0.0.9' },
  // Enough TXT data that a 1232-byte EDNS answer cannot hold it: the server truncates.
  ...Array.from({ length: 12 }, (_, i): ZoneRecord => ({ name: 'big.example.test', type: 'TXT', ttl: 60, data: `v=filler${i} ${'x'.repeat(180)}` })),
];

beforeAll(async () => {
  server = await startZoneServer({
    records,
    allowTransfer: ['example.test'],
    signedZones: ['example.test'],
    validating: true,
    truncate: ['tc.example.test'],
    silent: ['quiet.example.test'],
    axfrRecordsPerMessage: 3,
  });
});
afterAll(() => server.close());

describe('DNS client', () => {
  it('asks over UDP and returns the answers with the rcode', async () => {
    const answer = await client().query('www.example.test', 'A');
    expect(answer.rcode).toBe('NOERROR');
    expect(answer.answers.map((a) => [a.name, a.type, dataOf(a)])).toEqual([['www.example.test', 'A', '127.0.0.1']]);
    expect(server.queries.at(-1)).toMatchObject({ name: 'www.example.test', type: 'A', transport: 'udp', dnssec: false });
  });

  it('reports NXDOMAIN for a name that does not exist', async () => {
    const answer = await client().query('nope.example.test', 'A');
    expect([answer.rcode, answer.answers]).toEqual(['NXDOMAIN', []]);
  });

  it('uses a new random id for each query', async () => {
    const before = server.queries.length;
    await Promise.all(Array.from({ length: 8 }, () => client().query('www.example.test', 'A')));
    const ids = new Set(server.queries.slice(before).map((q) => q.id));
    expect(ids.size).toBeGreaterThan(1);
  });

  it('retries over TCP when the UDP answer is truncated', async () => {
    const before = server.queries.length;
    const answer = await client().query('tc.example.test', 'A');
    expect(server.queries.slice(before).map((q) => q.transport)).toEqual(['udp', 'tcp']);
    expect([answer.truncated, answer.answers.map((a) => dataOf(a))]).toEqual([false, ['127.0.0.9']]);
  });

  it('retries over TCP when the answer outgrows the EDNS buffer', async () => {
    const answer = await client().query('big.example.test', 'TXT');
    expect(answer.answers).toHaveLength(12);
  });

  it('sets the DO bit when DNSSEC is asked for and reports RRSIGs and the AD flag', async () => {
    const answer = await client().query('example.test', 'DNSKEY', { dnssec: true });
    expect(server.queries.at(-1)).toMatchObject({ type: 'DNSKEY', dnssec: true });
    expect(answer.answers.map((a) => a.type)).toEqual(['DNSKEY', 'RRSIG']);
    expect(answer.ad).toBe(true);
  });

  it('sets CD only when checking is disabled, so a validating resolver would hand over bogus data', async () => {
    await client().query('example.test', 'DNSKEY', { dnssec: true });
    expect(server.queries.at(-1)).toMatchObject({ dnssec: true, checkingDisabled: false });
    await client().query('example.test', 'DNSKEY', { dnssec: true, checkingDisabled: true });
    expect(server.queries.at(-1)).toMatchObject({ type: 'DNSKEY', dnssec: true, checkingDisabled: true });
  });

  it('gives up on a silent server after its timeout, having asked twice', async () => {
    const before = server.queries.length;
    const started = performance.now();
    await expect(client().query('quiet.example.test', 'A')).rejects.toMatchObject({ code: 'ETIMEOUT' });
    expect(performance.now() - started).toBeLessThan(1000);
    expect(server.queries.length - before).toBe(2);
  });

  it('stops at once when the caller aborts', async () => {
    const controller = new AbortController();
    const pending = client().query('quiet.example.test', 'A', { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    const started = performance.now();
    await expect(pending).rejects.toMatchObject({ code: 'ABORT_ERR' });
    expect(performance.now() - started).toBeLessThan(200);
  });

  it('ignores a reply whose id does not match, and takes the genuine one', async () => {
    const spoofer = dgram.createSocket('udp4');
    spoofer.on('message', (message, remote) => {
      const query = dnsPacket.decode(message);
      const forged = (id: number, ip: string) =>
        dnsPacket.encode({ id, type: 'response', flags: 0, questions: query.questions, answers: [{ name: 'www.example.test', type: 'A', ttl: 60, data: ip }] });
      spoofer.send(forged(((query.id ?? 0) + 1) & 0xffff, '203.0.113.66'), remote.port, remote.address);
      setTimeout(() => spoofer.send(forged(query.id ?? 0, '127.0.0.1'), remote.port, remote.address), 20);
    });
    await new Promise<void>((resolve) => spoofer.bind(0, '127.0.0.1', () => resolve()));
    try {
      const answer = await createDnsClient({ resolvers: [{ host: '127.0.0.1', port: spoofer.address().port }], timeoutMs: 500 }).query('www.example.test', 'A');
      expect(answer.answers.map((a) => dataOf(a))).toEqual(['127.0.0.1']);
    } finally {
      spoofer.close();
    }
  });

  it('falls back to the next resolver when the first does not answer', async () => {
    const deaf = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => deaf.bind(0, '127.0.0.1', () => resolve()));
    try {
      const answer = await createDnsClient({
        resolvers: [{ host: '127.0.0.1', port: deaf.address().port }, { host: server.host, port: server.port }],
        timeoutMs: 200,
      }).query('www.example.test', 'A');
      expect(answer.answers.map((a) => dataOf(a))).toEqual(['127.0.0.1']);
    } finally {
      deaf.close();
    }
  });

  it("reads the system's server list in each of the forms dns.getServers() writes", () => {
    // Only the parsing is tested: a live test of the default path could reach the machine's resolver.
    expect(parseServerList(['10.0.0.2', '127.0.0.1:5300', '[2001:db8::1]:5353', '2001:db8::53'])).toEqual([
      { host: '10.0.0.2', port: 53 },
      { host: '127.0.0.1', port: 5300 },
      { host: '2001:db8::1', port: 5353 },
      { host: '2001:db8::53', port: 53 },
    ]);
  });
});

describe('DNS client zone transfer', () => {
  it('reads a transfer spread over several messages, from SOA to SOA', async () => {
    const result = await client().axfr('example.test', { host: server.host, port: server.port });
    expect(result.allowed).toBe(true);
    expect(result.records[0]?.type).toBe('SOA');
    expect(result.records.at(-1)?.type).toBe('SOA');
    expect(result.records.length).toBe(records.length + 1);
    expect(result.records.map((r) => r.name)).toContain('dev.example.test');
  });

  it('reports a refused transfer as not allowed, with the rcode', async () => {
    const result = await client().axfr('other.test', { host: server.host, port: server.port });
    expect(result).toEqual({ allowed: false, records: [], error: 'REFUSED' });
  });

  it('reports a closed port as not allowed', async () => {
    const closed = await startZoneServer({ records: [] });
    const port = closed.port;
    await closed.close();
    const result = await client().axfr('example.test', { host: '127.0.0.1', port });
    expect(result).toMatchObject({ allowed: false, records: [], error: 'ECONNREFUSED' });
  });
});
