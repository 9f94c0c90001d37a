/**
 * Zone files as bind9's `named-compilezone -s full` writes them (one record a line: owner, TTL,
 * class, type, RDATA) read into dns-packet answers, and the answer an authoritative server would
 * give from such records with the DO bit: the RRset with its RRSIGs, or for a name or type that
 * is not there the SOA and every NSEC/NSEC3 of the zone with their RRSIGs. Enough for the signed
 * fixtures of test/fixtures/dns/dnssec and test/fixtures/dns/dane (SOA, NS, A, AAAA, MX, CAA,
 * TLSA, DS, DNSKEY, RRSIG, NSEC, NSEC3, NSEC3PARAM).
 */
import { readFileSync } from 'node:fs';
import type dnsPacket from 'dns-packet';
import type { QueryOutcome } from '../../lambdas/scanner/checks/dns/lookup.js';

const norm = (name: string) => name.toLowerCase().replace(/\.$/, '');

/** YYYYMMDDHHmmSS (UTC) as seconds since the epoch. */
function rrsigTime(text: string): number {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(text);
  if (!m) return Number(text);
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6])) / 1000;
}

const BASE32HEX = '0123456789ABCDEFGHIJKLMNOPQRSTUV';
function fromBase32hex(text: string): Buffer {
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of text.toUpperCase()) {
    value = (value << 5) | BASE32HEX.indexOf(char);
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

function parseRecord(owner: string, ttl: number, type: string, rdata: string[]): dnsPacket.Answer {
  const name = norm(owner);
  const base = { name, ttl, class: 'IN' as const };
  switch (type) {
    case 'A':
    case 'AAAA':
    case 'NS':
    case 'CNAME':
      return { ...base, type, data: type === 'NS' || type === 'CNAME' ? norm(rdata[0]!) : rdata[0]! } as dnsPacket.Answer;
    case 'MX':
      return { ...base, type, data: { preference: Number(rdata[0]), exchange: norm(rdata[1]!) } };
    case 'CAA':
      return { ...base, type, data: { flags: Number(rdata[0]), tag: rdata[1] as dnsPacket.CaaData['tag'], value: rdata.slice(2).join(' ').replace(/^"|"$/g, '') } };
    case 'SOA':
      return {
        ...base,
        type,
        data: { mname: norm(rdata[0]!), rname: norm(rdata[1]!), serial: Number(rdata[2]), refresh: Number(rdata[3]), retry: Number(rdata[4]), expire: Number(rdata[5]), minimum: Number(rdata[6]) },
      };
    case 'DS':
      return { ...base, type, data: { keyTag: Number(rdata[0]), algorithm: Number(rdata[1]), digestType: Number(rdata[2]), digest: Buffer.from(rdata.slice(3).join(''), 'hex') } };
    case 'TLSA':
      return { ...base, type, data: { usage: Number(rdata[0]), selector: Number(rdata[1]), matchingType: Number(rdata[2]), certificate: Buffer.from(rdata.slice(3).join(''), 'hex') } };
    case 'DNSKEY':
      return { ...base, type, data: { flags: Number(rdata[0]), algorithm: Number(rdata[2]), key: Buffer.from(rdata.slice(3).join(''), 'base64') } };
    case 'RRSIG':
      return {
        ...base,
        type,
        data: {
          typeCovered: rdata[0]!,
          algorithm: Number(rdata[1]),
          labels: Number(rdata[2]),
          originalTTL: Number(rdata[3]),
          expiration: rrsigTime(rdata[4]!),
          inception: rrsigTime(rdata[5]!),
          keyTag: Number(rdata[6]),
          signersName: norm(rdata[7]!),
          signature: Buffer.from(rdata.slice(8).join(''), 'base64'),
        },
      } as dnsPacket.Answer;
    case 'NSEC':
      return { ...base, type, data: { nextDomain: norm(rdata[0]!), rrtypes: rdata.slice(1) } };
    case 'NSEC3':
      return {
        ...base,
        type,
        data: {
          algorithm: Number(rdata[0]),
          flags: Number(rdata[1]),
          iterations: Number(rdata[2]),
          salt: rdata[3] === '-' ? Buffer.alloc(0) : Buffer.from(rdata[3]!, 'hex'),
          nextDomain: fromBase32hex(rdata[4]!),
          rrtypes: rdata.slice(5),
        },
      };
    case 'NSEC3PARAM': {
      // dns-packet has no NSEC3PARAM codec: it carries the RDATA as raw bytes.
      const salt = rdata[3] === '-' ? Buffer.alloc(0) : Buffer.from(rdata[3]!, 'hex');
      const raw = Buffer.alloc(5 + salt.length);
      raw.writeUInt8(Number(rdata[0]), 0);
      raw.writeUInt8(Number(rdata[1]), 1);
      raw.writeUInt16BE(Number(rdata[2]), 2);
      raw.writeUInt8(salt.length, 4);
      salt.copy(raw, 5);
      return { ...base, type, data: raw } as dnsPacket.Answer;
    }
    default:
      throw new Error(`zone-text: no parser for ${type}`);
  }
}

/** A record and the zone whose file it came from (a parent and its child both own the child's apex name). */
export type ZoneTextRecord = dnsPacket.Answer & { zone: string };

/**
 * Parses full-form zone text (comments and blank lines skipped). Several zones may follow one
 * another, each opening with its SOA as named-compilezone writes it: each record is tagged with its zone.
 */
export function parseZoneText(text: string): ZoneTextRecord[] {
  let zone = '';
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith(';'))
    .map((line) => {
      const [owner, ttl, klass, type, ...rdata] = line.split(/\s+/);
      if (klass !== 'IN' || !type) throw new Error(`zone-text: cannot read "${line}"`);
      if (type === 'SOA') zone = norm(owner!);
      return { ...parseRecord(owner!, Number(ttl), type, rdata), zone };
    });
}

export function readZoneFile(path: string): ZoneTextRecord[] {
  return parseZoneText(readFileSync(path, 'utf8'));
}

const isAtOrBelow = (name: string, zone: string) => zone === '' || name === zone || name.endsWith(`.${zone}`);

/** The zone that answers for `name` and `type` (DS at a zone's apex is its parent's). */
export function zoneFor(records: readonly ZoneTextRecord[], name: string, type: string): string | undefined {
  const owner = norm(name);
  return [...new Set(records.map((r) => r.zone))]
    .filter((zone) => isAtOrBelow(owner, zone) && !(type === 'DS' && zone === owner))
    .sort((a, b) => b.length - a.length)[0];
}

/**
 * What an authoritative server for these zones answers, DO bit set: the RRset and its RRSIGs
 * (synthesised from a wildcard where the name does not exist); otherwise NOERROR (the name exists)
 * or NXDOMAIN, with the zone's SOA and all its NSEC/NSEC3 records and their RRSIGs.
 */
export function signedAnswer(records: readonly ZoneTextRecord[], name: string, type: string): QueryOutcome {
  const owner = norm(name);
  const zone = zoneFor(records, owner, type);
  const own = records.filter((r) => r.zone === zone);
  const sigsOf = (at: string, covered: string) => own.filter((r) => r.type === 'RRSIG' && r.name === at && (r.data as dnsPacket.RrsigData).typeCovered === covered);
  const exact = own.filter((r) => r.name === owner && r.type === type);
  if (exact.length > 0) return { ok: true, rcode: 'NOERROR', answers: [...exact, ...sigsOf(owner, type)], authorities: [], ad: false };
  const exists = own.some((r) => r.name === owner || r.name.endsWith(`.${owner}`));
  if (!exists && zone !== undefined) {
    const labels = owner.split('.');
    for (let i = 1; i < labels.length && isAtOrBelow(labels.slice(i).join('.'), zone); i++) {
      const wildcard = `*.${labels.slice(i).join('.')}`;
      const synthesized = own.filter((r) => r.name === wildcard && r.type === type);
      if (synthesized.length > 0) {
        return { ok: true, rcode: 'NOERROR', answers: [...synthesized, ...sigsOf(wildcard, type)].map((r) => ({ ...r, name: owner })), authorities: [], ad: false };
      }
    }
  }
  const negative = own.filter((r) => (r.type === 'SOA' && r.name === zone) || r.type === 'NSEC' || r.type === 'NSEC3');
  const authorities = [...negative, ...negative.flatMap((r) => sigsOf(r.name, r.type))];
  if (zone === undefined) return { ok: true, rcode: 'REFUSED', answers: [], authorities: [], ad: false };
  return { ok: true, rcode: exists ? 'NOERROR' : 'NXDOMAIN', answers: [], authorities, ad: false };
}
