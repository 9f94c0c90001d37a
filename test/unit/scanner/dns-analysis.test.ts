import { describe, expect, it } from 'vitest';
import type dnsPacket from 'dns-packet';
import { analyzeAxfr } from '../../../lambdas/scanner/checks/dns/axfr.js';
import { analyzeCaa } from '../../../lambdas/scanner/checks/dns/caa.js';
import { analyzeDnssec, dnssecStatus } from '../../../lambdas/scanner/checks/dns/dnssec.js';
import { analyzeNameservers } from '../../../lambdas/scanner/checks/dns/nameservers.js';
import { presentRecord, txtValue } from '../../../lambdas/scanner/checks/dns/records.js';
import { caaClimb, nameServerPort, summarizeTransfer, type DnssecObservation } from '../../../lambdas/scanner/checks/dns/zone.probe.js';

const observation = (o: Partial<DnssecObservation>): DnssecObservation => ({ dnskeys: 0, rrsig: false, ds: 0, validated: false, dnskeyRcode: 'NOERROR', ...o });

describe('DNSSEC analysis', () => {
  it.each([
    ['no keys, no DS', observation({}), 'unsigned', [['dns.dnssec.unsigned', 'low']]],
    ['keys, signatures and a DS', observation({ dnskeys: 2, rrsig: true, ds: 1 }), 'signed', []],
    ['keys and signatures but no DS at the parent', observation({ dnskeys: 2, rrsig: true, ds: 0 }), 'signed-without-ds', [['dns.dnssec.no-ds', 'low']]],
    ['a DS but no keys', observation({ ds: 1 }), 'broken', [['dns.dnssec.broken', 'critical']]],
    ['a DS and SERVFAIL on DNSKEY', observation({ ds: 1, dnskeyRcode: 'SERVFAIL' }), 'broken', [['dns.dnssec.broken', 'critical']]],
    ['keys whose signatures a non-DNSSEC resolver stripped, DS unknown', observation({ dnskeys: 1, ds: undefined }), 'signed', []],
  ])('reads %s as %s', (_, input, status, findings) => {
    expect(dnssecStatus(input)).toBe(status);
    expect(analyzeDnssec('example.com', input).map((f) => [f.id, f.severity])).toEqual(findings);
  });
});

describe('CAA analysis', () => {
  it('climbs from the host to the registrable domain, nearest first', () => {
    expect(caaClimb('a.b.shop.example.co.uk', 'example.co.uk')).toEqual(['a.b.shop.example.co.uk', 'b.shop.example.co.uk', 'shop.example.co.uk', 'example.co.uk']);
  });

  it('notes a CAA set with only an iodef tag as restricting nothing', () => {
    const [finding] = analyzeCaa('www.example.com', { owner: 'example.com', records: ['0 iodef "mailto:sec@example.com"'] });
    expect([finding?.id, finding?.severity, finding?.evidence]).toEqual(['dns.caa.missing', 'info', 'example.com: 0 iodef "mailto:sec@example.com" (no issue or issuewild tag)']);
  });

  it('accepts an issue tag', () => {
    expect(analyzeCaa('www.example.com', { owner: 'example.com', records: ['0 issue "letsencrypt.org"'] })).toEqual([]);
  });
});

describe('zone transfer analysis', () => {
  const transferred: dnsPacket.Answer[] = [
    { name: 'example.com', type: 'SOA', data: { mname: 'ns1.example.com', rname: 'h.example.com' } },
    ...Array.from({ length: 20 }, (_, i): dnsPacket.Answer => ({ name: `host${String(i).padStart(2, '0')}.example.com`, type: 'A', data: `192.0.2.${i}` })),
    { name: 'example.com', type: 'SOA', data: { mname: 'ns1.example.com', rname: 'h.example.com' } },
  ];

  it('counts the closing SOA as framing, not as a record', () => {
    expect(summarizeTransfer(transferred)).toMatchObject({ recordCount: 21, types: { SOA: 1, A: 20 } });
  });

  it('lists twelve leaked names and how many more there are', () => {
    const summary = summarizeTransfer(transferred);
    const [finding] = analyzeAxfr('example.com', [
      { ns: 'ns1.example.com', address: '192.0.2.53', port: 53, allowed: true, ...summary },
      { ns: 'ns2.example.com', address: '192.0.2.54', port: 53, allowed: false, recordCount: 0, names: [], types: {}, error: 'REFUSED' },
    ]);
    expect(finding?.severity).toBe('high');
    expect(finding?.evidence).toBe(
      'ns1.example.com (192.0.2.53) answered AXFR for example.com: 21 records (A 20, SOA 1); names: ' +
        Array.from({ length: 12 }, (_, i) => `host${String(i).padStart(2, '0')}.example.com`).join(', ') +
        ', … (8 more)',
    );
  });

  it('says nothing when every server refuses', () => {
    expect(analyzeAxfr('example.com', [{ ns: 'ns1.example.com', address: '192.0.2.53', port: 53, allowed: false, recordCount: 0, names: [], types: {}, error: 'REFUSED' }])).toEqual([]);
  });

  it('reaches a name server on port 53 unless it is one of the configured resolvers', () => {
    const resolvers = [{ host: '127.0.0.1', port: 5300 }];
    expect([nameServerPort('127.0.0.1', resolvers), nameServerPort('192.0.2.53', resolvers)]).toEqual([5300, 53]);
  });
});

describe('name server analysis', () => {
  it('flags a single name server as low and accepts two', () => {
    expect(analyzeNameservers('example.com', [{ name: 'ns1.example.com', addresses: ['192.0.2.53'] }]).map((f) => [f.id, f.severity, f.evidence])).toEqual([
      ['dns.ns.single', 'low', 'example.com NS: ns1.example.com (192.0.2.53)'],
    ]);
    expect(analyzeNameservers('example.com', [{ name: 'a.ns', addresses: [] }, { name: 'b.ns', addresses: [] }])).toEqual([]);
  });
});

describe('record presentation', () => {
  it('writes records as zone files do', () => {
    expect([
      presentRecord({ name: 'e.com', type: 'MX', data: { preference: 10, exchange: 'Mail.E.com.' } }),
      presentRecord({ name: 'e.com', type: 'CAA', data: { flags: 0, tag: 'issue', value: 'letsencrypt.org' } }),
      presentRecord({ name: 'e.com', type: 'DS', data: { keyTag: 1, algorithm: 13, digestType: 2, digest: Buffer.from([0xab, 0xcd]) } }),
    ]).toEqual(['10 mail.e.com', '0 issue "letsencrypt.org"', '1 13 2 abcd']);
  });

  it('joins the character-strings of a long TXT record without spaces', () => {
    expect(txtValue([Buffer.from('v=spf1 include:a.example '), Buffer.from('include:b.example -all')])).toBe('v=spf1 include:a.example include:b.example -all');
  });
});
