import { randomInt } from 'node:crypto';
import dgram from 'node:dgram';
import dns from 'node:dns';
import { connect as netConnect, isIP } from 'node:net';
import dnsPacket from 'dns-packet';

export interface DnsServer {
  host: string;
  port: number;
}

export interface DnsAnswer {
  /** NOERROR, NXDOMAIN, SERVFAIL, REFUSED … */
  rcode: string;
  answers: dnsPacket.Answer[];
  authorities: dnsPacket.Answer[];
  /** Authenticated data: the resolver validated DNSSEC. */
  ad: boolean;
  truncated: boolean;
}

/** Raw DNS over UDP (TCP on truncation) with dns-packet, to the scanner's configured resolvers. */
export interface DnsClient {
  /**
   * `dnssec` sets DO (the answer carries RRSIGs, NSEC/NSEC3); `checkingDisabled` sets CD, so a
   * validating resolver returns data it judged bogus instead of SERVFAIL (RFC 4035 §3.2.2).
   */
  query(name: string, type: dnsPacket.RecordType, options?: { dnssec?: boolean; checkingDisabled?: boolean; server?: DnsServer; signal?: AbortSignal }): Promise<DnsAnswer>;
  /** A zone transfer attempt over TCP against one name server; the records it gave, if any. */
  axfr(zone: string, server: DnsServer, options?: { signal?: AbortSignal }): Promise<{ allowed: boolean; records: dnsPacket.Answer[]; error?: string }>;
}

export interface DnsClientSettings {
  /** Servers every query goes to, tried in order on timeout; [] = the system's (`dns.getServers()`). */
  resolvers: DnsServer[];
  /** How long one attempt (one UDP or TCP exchange) may wait. */
  timeoutMs: number;
}

/** EDNS0 buffer size recommended by DNS Flag Day 2020: big enough for DNSSEC, small enough not to fragment. */
const EDNS_UDP_SIZE = 1232;
/** A zone transfer is read until its closing SOA, but never past these bounds. */
const AXFR_MAX_RECORDS = 50_000;
const AXFR_MAX_BYTES = 16 * 1024 * 1024;

const RCODE_NAMES = ['NOERROR', 'FORMERR', 'SERVFAIL', 'NXDOMAIN', 'NOTIMP', 'REFUSED', 'YXDOMAIN', 'YXRRSET', 'NXRRSET', 'NOTAUTH', 'NOTZONE'];

/**
 * A DNS client speaking the wire format itself (dns-packet over node:dgram / node:net), so the
 * scanner sees what resolvers really answer: rcode, the AD flag, RRSIGs, truncation, and zone
 * transfers, none of which node:dns exposes. Every query has a random id and is matched on id
 * and question; each attempt is bounded by `timeoutMs` and by the caller's AbortSignal.
 */
export function createDnsClient(settings: DnsClientSettings): DnsClient {
  // dns.getServers() through the module object: dns.setServers() rebinds it, and an ESM named
  // import of a builtin would keep the stale binding (and ask the wrong servers).
  const configured = settings.resolvers.length > 0 ? settings.resolvers : parseServerList(dns.getServers());
  const timeoutMs = settings.timeoutMs;

  return {
    async query(name, type, options = {}) {
      const servers = options.server ? [options.server] : configured;
      if (servers.length === 0) throw dnsError('ENOSERVERS', 'No DNS server is configured');
      // One server is asked twice (a lost UDP datagram is common); several are each asked once, in order.
      const attempts = Math.max(servers.length, 2);
      let lastError: unknown;
      for (let attempt = 0; attempt < attempts; attempt++) {
        const server = servers[attempt % servers.length]!;
        try {
          return await exchange(server, name, type, { dnssec: options.dnssec ?? false, checkingDisabled: options.checkingDisabled ?? false }, timeoutMs, options.signal);
        } catch (error) {
          if (options.signal?.aborted) throw error;
          lastError = error;
        }
      }
      throw lastError;
    },

    axfr(zone, server, options = {}) {
      return transfer(server, zone, timeoutMs, options.signal);
    },
  };
}

/** Servers as `dns.getServers()` writes them (`1.1.1.1`, `127.0.0.1:5300`, `[2001:db8::1]:53`, `::1`) as host/port pairs. */
export function parseServerList(entries: readonly string[]): DnsServer[] {
  return entries.map((entry) => {
    const bracketed = /^\[(.+)\](?::(\d+))?$/.exec(entry);
    if (bracketed) return { host: bracketed[1]!, port: bracketed[2] ? Number(bracketed[2]) : 53 };
    const v4 = /^([\d.]+):(\d+)$/.exec(entry);
    if (v4) return { host: v4[1]!, port: Number(v4[2]) };
    return { host: entry, port: 53 };
  });
}

interface QueryFlags {
  dnssec: boolean;
  checkingDisabled: boolean;
}

async function exchange(server: DnsServer, name: string, type: dnsPacket.RecordType, flags: QueryFlags, timeoutMs: number, signal?: AbortSignal): Promise<DnsAnswer> {
  let request = buildQuery(name, type, flags, true);
  let response = await udpExchange(server, request, timeoutMs, signal);
  // A server that predates EDNS0 answers FORMERR to the OPT record: ask again the 1987 way.
  if (rcodeOf(response) === 'FORMERR') {
    request = buildQuery(name, type, flags, false);
    response = await udpExchange(server, request, timeoutMs, signal);
  }
  if (response.flag_tc) response = await tcpExchange(server, request, timeoutMs, signal);
  return {
    rcode: rcodeOf(response),
    answers: response.answers ?? [],
    authorities: response.authorities ?? [],
    ad: response.flag_ad,
    truncated: response.flag_tc,
  };
}

interface Query {
  packet: dnsPacket.Packet;
  id: number;
  name: string;
  type: dnsPacket.RecordType;
}

function buildQuery(name: string, type: dnsPacket.RecordType, { dnssec, checkingDisabled }: QueryFlags, edns: boolean): Query {
  const id = randomInt(0, 0x10000);
  const opt: dnsPacket.Answer = {
    type: 'OPT',
    name: '.',
    udpPayloadSize: EDNS_UDP_SIZE,
    extendedRcode: 0,
    ednsVersion: 0,
    flags: dnssec ? dnsPacket.DNSSEC_OK : 0,
    flag_do: dnssec,
    options: [],
  };
  return {
    id,
    name,
    type,
    packet: {
      type: 'query',
      id,
      // AD in a query asks a validating resolver to say whether it validated (RFC 6840 §5.7).
      flags: dnsPacket.RECURSION_DESIRED | (dnssec ? dnsPacket.AUTHENTIC_DATA : 0) | (checkingDisabled ? dnsPacket.CHECKING_DISABLED : 0),
      questions: [{ name, type, class: 'IN' }],
      additionals: edns ? [opt] : [],
    },
  };
}

/** True when a decoded message answers this query (same id, same question): anything else is ignored. */
function answers(query: Query, response: dnsPacket.DecodedPacket): boolean {
  if (response.id !== query.id || !response.flag_qr) return false;
  const question = response.questions?.[0];
  // A truncated or erroring response may omit the question; the id then has to do.
  if (!question) return true;
  return sameName(question.name, query.name) && question.type === query.type;
}

function sameName(a: string, b: string): boolean {
  return a.replace(/\.$/, '').toLowerCase() === b.replace(/\.$/, '').toLowerCase();
}

function rcodeOf(response: dnsPacket.DecodedPacket): string {
  const low = (response.flags ?? 0) & 0xf;
  const opt = response.additionals?.find((a): a is dnsPacket.OptAnswer => a.type === 'OPT');
  const code = ((opt?.extendedRcode ?? 0) << 4) | low;
  return RCODE_NAMES[code] ?? `RCODE${code}`;
}

function dnsError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

/**
 * Runs one socket conversation under a timeout and the caller's signal, whatever ends it first;
 * `cleanup` always runs, so no socket outlives its query.
 */
function bounded<T>(
  timeoutMs: number,
  signal: AbortSignal | undefined,
  timeoutMessage: string,
  start: (settle: { resolve(value: T): void; reject(error: Error): void; touch(): void }) => () => void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) return reject(dnsError('ABORT_ERR', 'The query was aborted'));
    let done = false;
    let cleanup: () => void = () => undefined;
    let timer: NodeJS.Timeout;
    const finish = (fn: () => void) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      cleanup();
      fn();
    };
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => finish(() => reject(dnsError('ETIMEOUT', timeoutMessage))), timeoutMs);
    };
    const onAbort = () => finish(() => reject(dnsError('ABORT_ERR', 'The query was aborted')));
    signal?.addEventListener('abort', onAbort, { once: true });
    arm();
    cleanup = start({
      resolve: (value) => finish(() => resolve(value)),
      reject: (error) => finish(() => reject(error)),
      touch: () => {
        if (!done) arm();
      },
    });
    if (done) cleanup();
  });
}

function udpExchange(server: DnsServer, query: Query, timeoutMs: number, signal?: AbortSignal): Promise<dnsPacket.DecodedPacket> {
  return bounded(timeoutMs, signal, `No answer from ${server.host}:${server.port} within ${timeoutMs} ms`, ({ resolve, reject }) => {
    const socket = dgram.createSocket(isIP(server.host) === 6 ? 'udp6' : 'udp4');
    socket.on('error', (error) => reject(error));
    socket.on('message', (message) => {
      let response: dnsPacket.DecodedPacket;
      try {
        response = dnsPacket.decode(message);
      } catch {
        return;
      }
      if (answers(query, response)) resolve(response);
    });
    // A connected socket only receives datagrams from the server, and learns of a closed port
    // (ICMP unreachable → ECONNREFUSED) at once instead of waiting for the timeout.
    socket.connect(server.port, server.host, () => {
      socket.send(dnsPacket.encode(query.packet), (error) => {
        if (error) reject(error);
      });
    });
    return () => {
      try {
        socket.close();
      } catch {
        // already closed by an error
      }
    };
  });
}

/** Reads length-prefixed DNS messages off a TCP stream (RFC 1035 §4.2.2). */
function messageReader(onMessage: (message: Buffer) => void) {
  let buffer: Buffer = Buffer.alloc(0);
  return (chunk: Buffer) => {
    buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
    while (buffer.length >= 2) {
      const length = buffer.readUInt16BE(0);
      if (buffer.length < 2 + length) return;
      const message = buffer.subarray(2, 2 + length);
      buffer = buffer.subarray(2 + length);
      onMessage(message);
    }
  };
}

function tcpExchange(server: DnsServer, query: Query, timeoutMs: number, signal?: AbortSignal): Promise<dnsPacket.DecodedPacket> {
  return bounded(timeoutMs, signal, `No answer over TCP from ${server.host}:${server.port} within ${timeoutMs} ms`, ({ resolve, reject }) => {
    const socket = netConnect({ host: server.host, port: server.port });
    socket.on('error', (error) => reject(error));
    socket.on('close', () => reject(dnsError('ECONNRESET', `${server.host}:${server.port} closed the TCP connection without answering`)));
    socket.on('connect', () => socket.write(dnsPacket.streamEncode(query.packet)));
    socket.on(
      'data',
      messageReader((message) => {
        try {
          const response = dnsPacket.decode(message);
          if (answers(query, response)) resolve(response);
        } catch (error) {
          reject(dnsError('EBADRESP', `Undecodable DNS message: ${(error as Error).message}`));
        }
      }),
    );
    return () => socket.destroy();
  });
}

/**
 * AXFR (RFC 5936): one TCP connection, the zone streamed over as many messages as it takes,
 * opening and closing with the zone's SOA. A refusal (REFUSED, NOTAUTH, a closed connection) is
 * the expected, healthy outcome. The idle timer restarts with each message.
 */
function transfer(server: DnsServer, zone: string, timeoutMs: number, signal?: AbortSignal): Promise<{ allowed: boolean; records: dnsPacket.Answer[]; error?: string }> {
  const id = randomInt(0, 0x10000);
  const query: Query = { id, name: zone, type: 'AXFR', packet: { type: 'query', id, flags: 0, questions: [{ name: zone, type: 'AXFR', class: 'IN' }] } };
  const records: dnsPacket.Answer[] = [];
  const refused = (error: string) => ({ allowed: false, records: [], error });
  return bounded<{ allowed: boolean; records: dnsPacket.Answer[]; error?: string }>(
    timeoutMs,
    signal,
    `No transfer from ${server.host}:${server.port} within ${timeoutMs} ms`,
    ({ resolve, touch }) => {
      let bytes = 0;
      let soaSeen = 0;
      const socket = netConnect({ host: server.host, port: server.port });
      const partial = (why: string) =>
        // Records already received did leak, even if the transfer did not finish.
        resolve(records.length > 0 ? { allowed: true, records, error: why } : refused(why));
      socket.on('error', (error: NodeJS.ErrnoException) => partial(error.code ?? error.message));
      socket.on('close', () => partial('The server closed the connection'));
      socket.on('connect', () => socket.write(dnsPacket.streamEncode(query.packet)));
      const read = messageReader((message) => {
        let response: dnsPacket.DecodedPacket;
        try {
          response = dnsPacket.decode(message);
        } catch (error) {
          return partial(`Undecodable DNS message: ${(error as Error).message}`);
        }
        if (response.id !== id) return;
        const rcode = rcodeOf(response);
        if (rcode !== 'NOERROR') return partial(rcode);
        for (const record of response.answers ?? []) {
          if (records.length === 0 && record.type !== 'SOA') return resolve(refused('The answer did not start with the zone SOA'));
          records.push(record);
          if (record.type === 'SOA' && ++soaSeen === 2) return resolve({ allowed: true, records });
        }
        if (records.length === 0) return resolve(refused('Empty answer'));
        if (records.length > AXFR_MAX_RECORDS) return resolve({ allowed: true, records, error: `Stopped after ${AXFR_MAX_RECORDS} records` });
      });
      socket.on('data', (chunk: Buffer) => {
        touch();
        bytes += chunk.length;
        if (bytes > AXFR_MAX_BYTES) return resolve({ allowed: records.length > 0, records, error: `Stopped after ${AXFR_MAX_BYTES} bytes` });
        read(chunk);
      });
      return () => socket.destroy();
    },
  ).catch((error: NodeJS.ErrnoException) => {
    if (signal?.aborted) throw error;
    return records.length > 0 ? { allowed: true, records, error: error.message } : refused(error.message);
  });
}
