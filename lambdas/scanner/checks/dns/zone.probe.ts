/**
 * Probe for the dns check: everything the analysis needs about the target's zone, gathered with
 * as few round trips as possible (one concurrent wave of queries, then the name servers'
 * addresses, then the zone transfers). Failures are recorded per query, never thrown.
 */
import { isIP } from 'node:net';
import type dnsPacket from 'dns-packet';
import type { DnsClient, DnsServer } from '../../net/dns-client.js';
import { refusedAddress } from '../../target-guard.js';
import type { DnssecMaterial } from './dnssec-chain.js';
import { probeDnssec } from './dnssec.probe.js';
import { answersAt, mapLimit, randomLabel, resolveName, tryQuery, type QueryOutcome } from './lookup.js';
import { normalizeName, ofType, presentRecord } from './records.js';
import type { TrustAnchor } from './trust-anchors.js';

export type RecordMap = Record<string, Partial<Record<dnsPacket.RecordType, string[]>>>;

export interface AxfrAttempt {
  /** The name server's name and the address the transfer was asked of. */
  ns: string;
  address: string;
  port: number;
  allowed: boolean;
  recordCount: number;
  /** Distinct owner names the transfer gave (at most MAX_LEAKED_NAMES). */
  names: string[];
  /** How many records of each type leaked. */
  types: Record<string, number>;
  error?: string;
}

export interface DnssecObservation {
  /** DNSKEY records at the zone apex (asked with the DO bit). */
  dnskeys: number;
  /** Whether the DNSKEY answer carried an RRSIG: the zone is really signed, not just keyed. */
  rrsig: boolean;
  /** DS records the parent publishes; undefined when the question went unanswered. */
  ds: number | undefined;
  /** The resolver set AD: it validated the answer (only meaningful for a validating resolver). */
  validated: boolean;
  /** The DNSKEY query's rcode (SERVFAIL from a validating resolver hints at a broken chain). */
  dnskeyRcode: string;
}

export interface ZoneSnapshot {
  host: string;
  domain: string;
  /** The domain answered SOA or NS: there is a zone to assess. */
  zoneFound: boolean;
  /** Records by owner name and type, presentation form. */
  records: RecordMap;
  nameservers: { name: string; addresses: string[] }[];
  axfr: AxfrAttempt[];
  dnssec: DnssecObservation;
  /** What DNSSEC validation needs (dnssec-chain), and when it was asked: signatures are judged at that time. */
  dnssecMaterial: DnssecMaterial;
  probedAt: Date;
  /** The CAA set that governs the host (RFC 8659 climbs from the host towards the domain). */
  caa: { owner: string | undefined; records: string[] };
  wildcard: { probe: string; addresses: string[]; cnames: string[] };
  /** Queries that failed, as `TYPE name: why`. */
  errors: string[];
  /** How many queries were asked and how many answered at all. */
  queries: { asked: number; answered: number };
}

export interface ZoneProbeInput {
  dns: DnsClient;
  host: string;
  domain: string;
  /** The scanner's resolvers: a name server at one of their addresses is reached on its port. */
  resolvers: readonly DnsServer[];
  allowPrivateTargets: boolean;
  /** A passive scan (DECISIONS "Scan modes"): no zone transfer attempts. */
  passive?: boolean;
  /** Where DNSSEC validation starts (the root's keys in production, the range's own parent in tests). */
  trustAnchors: readonly TrustAnchor[];
  signal?: AbortSignal;
}

/** At most this many name servers and addresses per server are asked for a transfer. */
const MAX_NAMESERVERS = 8;
const MAX_LEAKED_NAMES = 1000;

/**
 * A name server is reached on port 53, except one that is also a configured resolver: it is
 * reached on that resolver's port. In production resolvers listen on 53 anyway; on a test range
 * the zone's own server is the resolver and may listen elsewhere.
 */
export function nameServerPort(address: string, resolvers: readonly DnsServer[]): number {
  return resolvers.find((r) => r.host === address)?.port ?? 53;
}

export async function probeZone(input: ZoneProbeInput): Promise<ZoneSnapshot> {
  const { dns, host, domain, signal } = input;
  const records: RecordMap = {};
  const errors: string[] = [];
  const queries = { asked: 0, answered: 0 };

  const ask = async (name: string, type: dnsPacket.RecordType, dnssec = false): Promise<QueryOutcome> => {
    queries.asked++;
    const outcome = await tryQuery(dns, name, type, { dnssec, signal });
    if (!outcome.ok) {
      errors.push(`${type} ${name}: ${outcome.error}`);
      return outcome;
    }
    queries.answered++;
    const found = ofType(outcome.answers, type);
    if (found.length > 0) {
      const byName = (records[name] ??= {});
      byName[type] = [...new Set([...(byName[type] ?? []), ...found.map(presentRecord)])];
    }
    return outcome;
  };

  const hostIsName = host !== domain && isIP(host.replace(/^\[|\]$/g, '')) === 0;
  // CAA is looked up at the host, then each parent up to the registrable domain (RFC 8659 §3).
  const caaNames = hostIsName ? caaClimb(host, domain) : [domain];
  const wildcardProbe = `${randomLabel()}.${domain}`;

  const askDnssec = async (name: string, type: dnsPacket.RecordType): Promise<QueryOutcome> => {
    queries.asked++;
    // DO for the signatures and proofs, CD so a validating resolver hands over what it would refuse.
    const outcome = await tryQuery(dns, name, type, { dnssec: true, checkingDisabled: true, signal });
    if (outcome.ok) queries.answered++;
    else errors.push(`${type} ${name} (DNSSEC): ${outcome.error}`);
    return outcome;
  };
  const probedAt = new Date();

  const [soa, ns, , , , , caaAnswers, dnskey, ds, wildcard, dnssecMaterial] = await Promise.all([
    ask(domain, 'SOA'),
    ask(domain, 'NS'),
    ask(domain, 'MX'),
    ask(domain, 'TXT'),
    hostIsName ? ask(domain, 'A') : undefined,
    hostIsName ? ask(domain, 'AAAA') : undefined,
    Promise.all(caaNames.map((name) => ask(name, 'CAA'))),
    ask(domain, 'DNSKEY', true),
    ask(domain, 'DS', true),
    resolveName(dns, wildcardProbe, signal),
    probeDnssec(askDnssec, { host, domain, anchors: input.trustAnchors, denialName: `${randomLabel()}.${domain}` }),
    // The host's own records, when it is not the domain itself (a delegated sub-zone has NS/SOA).
    ...(hostIsName ? (['CNAME', 'MX', 'TXT', 'NS', 'SOA'] as const).map((type) => ask(host, type)) : []),
  ]);

  const caaIndex = caaAnswers.findIndex((outcome) => answersAt(outcome, 'CAA').length > 0);
  const caa = {
    owner: caaIndex >= 0 ? caaNames[caaIndex] : undefined,
    records: caaIndex >= 0 ? answersAt(caaAnswers[caaIndex]!, 'CAA').map(presentRecord) : [],
  };

  const dnssec: DnssecObservation = {
    dnskeys: answersAt(dnskey, 'DNSKEY').length,
    rrsig: answersAt(dnskey, 'RRSIG').some((sig) => sig.data.typeCovered === 'DNSKEY'),
    ds: ds.ok && (ds.rcode === 'NOERROR' || ds.rcode === 'NXDOMAIN') ? answersAt(ds, 'DS').length : undefined,
    validated: dnskey.ok && dnskey.ad,
    dnskeyRcode: dnskey.ok ? dnskey.rcode : 'ERROR',
  };

  const nsNames = [...new Set(answersAt(ns, 'NS').map((r) => normalizeName(r.data)))].sort().slice(0, MAX_NAMESERVERS);
  const nameservers = await mapLimit(nsNames, MAX_NAMESERVERS, async (name) => {
    const resolved = await resolveName(dns, name, signal);
    if (resolved.error) errors.push(`A ${name}: ${resolved.error}`);
    return { name, addresses: resolved.addresses };
  });

  // One IPv4 and one IPv6 address per server: enough to see whether it hands the zone out.
  const targets = nameservers.flatMap(({ name, addresses }) => {
    const v4 = addresses.find((a) => isIP(a) === 4);
    const v6 = addresses.find((a) => isIP(a) === 6);
    return [v4, v6].filter((a): a is string => a !== undefined).map((address) => ({ ns: name, address }));
  });
  const axfr = await mapLimit(input.passive ? [] : targets, MAX_NAMESERVERS, async ({ ns: nsName, address }): Promise<AxfrAttempt> => {
    const port = nameServerPort(address, input.resolvers);
    const base = { ns: nsName, address, port, recordCount: 0, names: [], types: {} };
    if (refusedAddress([address], input.allowPrivateTargets)) {
      return { ...base, allowed: false, error: `Not attempted: ${address} is not a public address` };
    }
    try {
      const result = await dns.axfr(domain, { host: address, port }, { signal });
      return { ...base, ...summarizeTransfer(result.records), allowed: result.allowed, ...(result.error ? { error: result.error } : {}) };
    } catch (error) {
      return { ...base, allowed: false, error: (error as Error).message };
    }
  });

  return {
    host,
    domain,
    zoneFound: answersAt(soa, 'SOA').length > 0 || nsNames.length > 0,
    records,
    nameservers,
    axfr,
    dnssec,
    dnssecMaterial,
    probedAt,
    caa,
    wildcard: { probe: wildcardProbe, addresses: wildcard.addresses, cnames: wildcard.cnames },
    errors,
    queries,
  };
}

/** The names whose CAA records may govern `host`, nearest first, ending at the registrable domain. */
export function caaClimb(host: string, domain: string): string[] {
  const labels = normalizeName(host).split('.');
  const names: string[] = [];
  for (let i = 0; i < labels.length; i++) {
    const name = labels.slice(i).join('.');
    names.push(name);
    if (name === normalizeName(domain)) break;
  }
  return names;
}

/** What a transfer gave away: record count, types, and the distinct owner names. */
export function summarizeTransfer(transferred: readonly dnsPacket.Answer[]): { recordCount: number; names: string[]; types: Record<string, number> } {
  const soaCount = transferred.filter((r) => r.type === 'SOA').length;
  // The closing SOA repeats the opening one: it is framing, not one more record.
  const recordCount = transferred.length - (soaCount >= 2 ? 1 : 0);
  const types: Record<string, number> = {};
  for (const record of transferred.slice(0, recordCount)) types[record.type] = (types[record.type] ?? 0) + 1;
  const names = [...new Set(transferred.map((r) => normalizeName(r.name)))].slice(0, MAX_LEAKED_NAMES);
  return { recordCount, names, types };
}
