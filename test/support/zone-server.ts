import dgram from 'node:dgram';
import { createServer, type Server, type Socket } from 'node:net';
import dnsPacket from 'dns-packet';
import { signedAnswer, zoneFor, type ZoneTextRecord } from './zone-text.js';

/** A record as the zone server holds it: dns-packet's answer shape, name without the final dot. */
export type ZoneRecord = dnsPacket.Answer;

export interface ZoneServerOptions {
  /** Every record the server knows, in one flat namespace (several zones may share it). */
  records: ZoneRecord[];
  /** Zone apexes that hand out AXFR to anyone; every other transfer is REFUSED. */
  allowTransfer?: string[];
  /** Zones whose answers carry (dummy) RRSIGs when the query sets the DO bit. */
  signedZones?: string[];
  /** Behave like a validating resolver: set AD on answers from signed zones when DNSSEC was asked. */
  validating?: boolean;
  /** Names always answered with TC over UDP, so the client has to retry over TCP. */
  truncate?: string[];
  /** Names (or suffixes, with a leading dot) the server never answers, to exercise timeouts. */
  silent?: string[];
  /** Questions (name without the final dot, lower case; type) the server never answers, for a timeout of one type only. */
  silentWhen?: (name: string, type: string) => boolean;
  /** Names answered REFUSED, like an authoritative-only server asked about someone else's zone. */
  refuse?: string[];
  /** Records per AXFR message, so transfers span several messages. */
  axfrRecordsPerMessage?: number;
  /**
   * Really signed zones (test/fixtures/dns/dnssec, read with zone-text.ts): a name that none of
   * `records`' zones holds is answered from these as their own server would, with RRSIGs and
   * NSEC/NSEC3 proofs when the query sets DO.
   */
  dnssecZones?: ZoneTextRecord[];
}

export interface ZoneServer {
  host: '127.0.0.1';
  /** The same port number serves UDP and TCP. */
  port: number;
  /** Every question received, in order. */
  queries: { name: string; type: string; transport: 'udp' | 'tcp'; dnssec: boolean; checkingDisabled: boolean; id: number }[];
  /** Serves one more record from now on (a TXT record a test publishes mid-way, say; in a signed zone, without an RRSIG). */
  add(record: ZoneRecord): void;
  close(): Promise<void>;
}

const norm = (name: string) => name.toLowerCase().replace(/\.$/, '');
const RCODE = { NOERROR: 0, NXDOMAIN: 3, REFUSED: 5, NOTIMP: 4 } as const;

/**
 * A small authoritative DNS server on 127.0.0.1 for tests (UDP and TCP on one port): exact
 * matches, CNAME chains, wildcards, empty non-terminals (NOERROR without data), NXDOMAIN, AXFR
 * per zone, dummy RRSIGs and the AD flag for "signed" zones, forced truncation and silence.
 * It serves what the tests give it and never forwards anything anywhere.
 */
export async function startZoneServer(options: ZoneServerOptions): Promise<ZoneServer> {
  const records = options.records.map((r) => ({ ...r, name: norm(r.name) }) as ZoneRecord);
  const names = new Set(records.map((r) => r.name));
  const queries: ZoneServer['queries'] = [];
  const dnssecZones = options.dnssecZones ? [...options.dnssecZones] : undefined;
  const matches = (name: string, list: string[] = []) => list.some((entry) => (entry.startsWith('.') ? name.endsWith(entry) : name === norm(entry)));
  const exists = (name: string) => names.has(name) || [...names].some((n) => n.endsWith(`.${name}`));
  const zoneOf = (name: string) =>
    records
      .filter((r) => r.type === 'SOA' && (name === r.name || name.endsWith(`.${r.name}`)))
      .sort((a, b) => b.name.length - a.name.length)[0];

  /** Records of `type` at `name`, synthesised from a wildcard when the name does not exist. */
  const at = (name: string, type: string): ZoneRecord[] => {
    const direct = records.filter((r) => r.name === name && (r.type === type || type === 'ANY'));
    if (direct.length > 0 || exists(name)) return direct;
    const labels = name.split('.');
    for (let i = 1; i < labels.length; i++) {
      const wildcard = `*.${labels.slice(i).join('.')}`;
      if (names.has(wildcard)) return records.filter((r) => r.name === wildcard && r.type === type).map((r) => ({ ...r, name }) as ZoneRecord);
      if (exists(labels.slice(i).join('.'))) break;
    }
    return [];
  };
  const hasWildcard = (name: string) => {
    const labels = name.split('.');
    for (let i = 1; i < labels.length; i++) if (names.has(`*.${labels.slice(i).join('.')}`)) return true;
    return false;
  };

  function respond(query: dnsPacket.DecodedPacket, transport: 'udp' | 'tcp'): Buffer[] | undefined {
    const question = query.questions?.[0];
    if (!question) return undefined;
    const name = norm(question.name);
    const opt = query.additionals?.find((a): a is dnsPacket.OptAnswer => a.type === 'OPT');
    const dnssec = Boolean(opt && opt.flags & dnsPacket.DNSSEC_OK);
    queries.push({ name, type: question.type, transport, dnssec, checkingDisabled: ((query.flags ?? 0) & dnsPacket.CHECKING_DISABLED) !== 0, id: query.id ?? 0 });
    if (matches(name, options.silent) || options.silentWhen?.(name, question.type)) return undefined;

    const reply = (rcode: number, answers: ZoneRecord[], extra: Partial<dnsPacket.Packet> = {}, flags = 0) =>
      dnsPacket.encode({
        id: query.id,
        type: 'response',
        flags: dnsPacket.AUTHORITATIVE_ANSWER | ((query.flags ?? 0) & dnsPacket.RECURSION_DESIRED) | flags | rcode,
        questions: [question],
        answers,
        ...(opt ? { additionals: [{ type: 'OPT', name: '.', udpPayloadSize: 1232, extendedRcode: 0, ednsVersion: 0, flags: opt.flags, flag_do: dnssec, options: [] }] } : {}),
        ...extra,
      });

    if (matches(name, options.refuse)) return [reply(RCODE.REFUSED, [])];

    if (dnssecZones && question.type !== 'AXFR' && !zoneOf(name) && zoneFor(dnssecZones, name, question.type) !== undefined) {
      const outcome = signedAnswer(dnssecZones, name, question.type);
      if (!outcome.ok) return undefined;
      const dnssecOnly = new Set(['RRSIG', 'NSEC', 'NSEC3']);
      const keep = (r: ZoneRecord) => dnssec || !dnssecOnly.has(r.type) || r.type === question.type;
      // The zone tag is the fixture's bookkeeping, not part of the record.
      const strip = (r: ZoneRecord): ZoneRecord => {
        const { zone: _zone, ...record } = r as ZoneTextRecord;
        return record as ZoneRecord;
      };
      const rcode = outcome.rcode === 'NXDOMAIN' ? RCODE.NXDOMAIN : outcome.rcode === 'REFUSED' ? RCODE.REFUSED : RCODE.NOERROR;
      const message = reply(rcode, outcome.answers.filter(keep).map(strip), { authorities: outcome.authorities.filter(keep).map(strip) });
      const limit = opt ? opt.udpPayloadSize : 512;
      if (transport === 'udp' && message.length > limit) return [reply(rcode, [], {}, dnsPacket.TRUNCATED_RESPONSE)];
      return [message];
    }

    if (question.type === 'AXFR') {
      const soa = records.find((r) => r.type === 'SOA' && r.name === name);
      if (transport !== 'tcp' || !soa || !(options.allowTransfer ?? []).map(norm).includes(name)) return [reply(RCODE.REFUSED, [])];
      const inZone = records.filter((r) => r !== soa && (r.name === name || r.name.endsWith(`.${name}`)) && zoneOf(r.name) === soa);
      const stream = [soa, ...inZone, soa];
      const size = options.axfrRecordsPerMessage ?? 4;
      const messages: Buffer[] = [];
      for (let i = 0; i < stream.length; i += size) messages.push(reply(RCODE.NOERROR, stream.slice(i, i + size)));
      return messages;
    }

    if (transport === 'udp' && matches(name, options.truncate)) return [reply(RCODE.NOERROR, [], {}, dnsPacket.TRUNCATED_RESPONSE)];

    // Follow CNAMEs inside what the server knows, as an authoritative server does within its zones.
    const answers: ZoneRecord[] = [];
    let current = name;
    let rcode: number = RCODE.NOERROR;
    for (let hop = 0; hop < 8; hop++) {
      const found = at(current, question.type);
      if (found.length > 0) {
        answers.push(...found);
        break;
      }
      const cname = question.type === 'CNAME' ? undefined : at(current, 'CNAME')[0];
      if (cname) {
        answers.push(cname);
        current = norm(String('data' in cname ? cname.data : ''));
        continue;
      }
      if (!exists(current) && !hasWildcard(current)) rcode = RCODE.NXDOMAIN;
      break;
    }

    const zone = zoneOf(name);
    const signed = zone !== undefined && (options.signedZones ?? []).map(norm).includes(zone.name);
    const signatures: ZoneRecord[] =
      signed && dnssec
        ? [...new Set(answers.map((a) => `${a.name} ${a.type}`))].map((key) => {
            const [owner, covered] = key.split(' ') as [string, string];
            return {
              name: owner,
              type: 'RRSIG',
              ttl: 300,
              data: { typeCovered: covered, algorithm: 13, labels: owner.split('.').length, originalTTL: 300, expiration: 2_000_000_000, inception: 1_700_000_000, keyTag: 12345, signersName: zone.name, signature: Buffer.alloc(64, 7) },
            } as ZoneRecord;
          })
        : [];
    const authenticated = signed && options.validating && (dnssec || ((query.flags ?? 0) & dnsPacket.AUTHENTIC_DATA) !== 0) ? dnsPacket.AUTHENTIC_DATA : 0;
    const authorities = answers.length === 0 && zone ? [zone] : [];
    const message = reply(rcode, [...answers, ...signatures], { authorities }, authenticated);
    const limit = opt ? opt.udpPayloadSize : 512;
    if (transport === 'udp' && message.length > limit) return [reply(rcode, [], {}, dnsPacket.TRUNCATED_RESPONSE)];
    return [message];
  }

  const createUdp = () => {
    const socket = dgram.createSocket('udp4');
    socket.on('message', (message, remote) => {
      let query: dnsPacket.DecodedPacket;
      try {
        query = dnsPacket.decode(message);
      } catch {
        return;
      }
      for (const out of respond(query, 'udp') ?? []) socket.send(out, remote.port, remote.address);
    });
    return socket;
  };

  const sockets = new Set<Socket>();
  const tcp: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      while (buffer.length >= 2 && buffer.length >= 2 + buffer.readUInt16BE(0)) {
        const length = buffer.readUInt16BE(0);
        const message = buffer.subarray(2, 2 + length);
        buffer = buffer.subarray(2 + length);
        let query: dnsPacket.DecodedPacket;
        try {
          query = dnsPacket.decode(message);
        } catch {
          socket.destroy();
          return;
        }
        const out = respond(query, 'tcp');
        if (!out) continue;
        for (const m of out) {
          const prefix = Buffer.alloc(2);
          prefix.writeUInt16BE(m.length);
          socket.write(Buffer.concat([prefix, m]));
        }
      }
    });
  });

  // UDP takes a random port; TCP must get the same number (retry when something else holds it).
  let udp = createUdp();
  for (let attempt = 0; ; attempt++) {
    await new Promise<void>((resolve, reject) => {
      udp.once('error', reject);
      udp.bind(0, '127.0.0.1', () => resolve());
    });
    const port = udp.address().port;
    const ok = await new Promise<boolean>((resolve) => {
      tcp.once('error', () => resolve(false));
      tcp.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (ok) break;
    if (attempt > 20) throw new Error('No free port for the zone server');
    await new Promise<void>((resolve) => udp.close(() => resolve()));
    udp = createUdp();
  }

  return {
    host: '127.0.0.1',
    port: udp.address().port,
    queries,
    add: (record) => {
      const added = { ...record, name: norm(record.name) } as ZoneRecord;
      // A name in one of the signed zones joins that zone (unsigned, as a record added after signing is).
      const signedZone = dnssecZones && !zoneOf(added.name) ? zoneFor(dnssecZones, added.name, added.type) : undefined;
      if (signedZone !== undefined) return void dnssecZones!.push({ ...added, zone: signedZone } as ZoneTextRecord);
      records.push(added);
      names.add(added.name);
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await Promise.all([new Promise<void>((resolve) => udp.close(() => resolve())), new Promise<void>((resolve) => tcp.close(() => resolve()))]);
    },
  };
}
