/**
 * Plain-socket probes for the range test: they speak each protocol directly (Node's net, tls,
 * http, dgram and dns-packet), independent of Rampart's scanner, so the range is checked against
 * what the servers really say. Every probe is bounded by a timeout and talks to loopback only.
 */
import dgram from 'node:dgram';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';
import type { X509Certificate } from 'node:crypto';
import dnsPacket from 'dns-packet';

const TIMEOUT_MS = 5_000;

/** Refuses anything off loopback: a probe of the range never leaves 127.0.0.0/8. */
function loopbackOnly(address: string): void {
  if (!/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(address)) throw new Error(`The range probes talk to loopback only, not ${address}`);
}

export interface HttpAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One HTTP(S) request to address:port with the given Host, certificates not verified (the range's are bad on purpose). */
export function httpRequest(
  address: string,
  port: number,
  options: { method?: string; path?: string; host?: string; tls?: boolean } = {},
): Promise<HttpAnswer> {
  loopbackOnly(address);
  const client = options.tls ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      {
        host: address,
        port,
        method: options.method ?? 'GET',
        path: options.path ?? '/',
        headers: { host: options.host ?? address, 'user-agent': 'rampart-range-test' },
        servername: options.tls && options.host ? options.host : undefined,
        rejectUnauthorized: false,
        agent: false,
        timeout: TIMEOUT_MS,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', reject);
      },
    );
    request.on('timeout', () => request.destroy(new Error(`No HTTP answer from ${address}:${port} within ${TIMEOUT_MS} ms`)));
    request.on('error', reject);
    request.end();
  });
}

export type TlsVersion = 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3';

export type TlsAnswer =
  | { ok: true; protocol: string | null; cipher: string; certificate: X509Certificate | undefined }
  | { ok: false; error: string };

/** A handshake pinned to one TLS version, with every cipher allowed (SECLEVEL 0), as the scanner does it. */
export function tlsHandshake(address: string, port: number, version: TlsVersion, servername?: string): Promise<TlsAnswer> {
  loopbackOnly(address);
  return new Promise((resolve) => {
    const socket = tls.connect({
      host: address,
      port,
      servername,
      minVersion: version,
      maxVersion: version,
      ciphers: 'ALL:@SECLEVEL=0',
      rejectUnauthorized: false,
      timeout: TIMEOUT_MS,
    });
    const done = (answer: TlsAnswer) => {
      socket.destroy();
      resolve(answer);
    };
    socket.once('secureConnect', () =>
      done({ ok: true, protocol: socket.getProtocol(), cipher: socket.getCipher().name, certificate: socket.getPeerX509Certificate() }),
    );
    socket.once('timeout', () => done({ ok: false, error: 'timeout' }));
    socket.once('error', (error: NodeJS.ErrnoException) => done({ ok: false, error: error.code ?? error.message }));
  });
}

/** The signature algorithm of a certificate, read from its DER (Node's X509Certificate does not expose it). */
export function signatureAlgorithm(certificate: X509Certificate): string {
  const oids: Record<string, string> = {
    '2a864886f70d010105': 'sha1WithRSAEncryption',
    '2a864886f70d01010b': 'sha256WithRSAEncryption',
    '2a864886f70d01010c': 'sha384WithRSAEncryption',
    '2a864886f70d010104': 'md5WithRSAEncryption',
  };
  // Certificate ::= SEQUENCE { tbsCertificate, signatureAlgorithm, signatureValue }: the outer
  // signatureAlgorithm follows the TBS; its OID is the last of the known ones in the DER.
  const hex = certificate.raw.toString('hex');
  let found = 'unknown';
  let last = -1;
  for (const [oid, name] of Object.entries(oids)) {
    const at = hex.lastIndexOf(`0609${oid}`);
    if (at > last) {
      last = at;
      found = name;
    }
  }
  return found;
}

/** Reads from a TCP service until `complete(received)` says the answer is whole (bounded). */
function converse(
  address: string,
  port: number,
  steps: { send?: Buffer | string; until: (received: Buffer) => boolean }[],
): Promise<Buffer[]> {
  loopbackOnly(address);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: address, port });
    const answers: Buffer[] = [];
    let buffer = Buffer.alloc(0);
    let step = 0;
    const timer = setTimeout(() => finish(new Error(`${address}:${port} did not finish its answer within ${TIMEOUT_MS} ms`)), TIMEOUT_MS);
    const finish = (error?: Error) => {
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve(answers);
    };
    const advance = () => {
      while (step < steps.length && steps[step]!.until(buffer)) {
        answers.push(buffer);
        buffer = Buffer.alloc(0);
        step += 1;
        const next = steps[step];
        if (!next) return finish();
        if (next.send !== undefined) socket.write(next.send);
      }
    };
    socket.once('connect', () => {
      if (steps[0]?.send !== undefined) socket.write(steps[0].send);
    });
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      advance();
    });
    socket.once('error', (error) => finish(error));
    socket.once('end', () => finish(step < steps.length ? new Error(`${address}:${port} closed the connection early`) : undefined));
  });
}

/** The first line a server sends unprompted (SSH, SMTP). */
export async function banner(address: string, port: number): Promise<string> {
  const [first] = await converse(address, port, [{ until: (b) => b.includes('\n') }]);
  return first!.toString('latin1').split(/\r?\n/)[0]!;
}

export interface SshKexInit {
  banner: string;
  kex: string[];
  hostKeys: string[];
  ciphers: string[];
  macs: string[];
}

/** The server's identification and its SSH_MSG_KEXINIT: the algorithms it offers (RFC 4253 §7.1). */
export async function sshKexInit(address: string, port: number): Promise<SshKexInit> {
  const identification = Buffer.from('SSH-2.0-RampartRangeTest\r\n');
  const packetComplete = (b: Buffer) => {
    const lineEnd = b.indexOf('\n');
    if (lineEnd < 0 || b.length < lineEnd + 5) return false;
    return b.length >= lineEnd + 1 + 4 + b.readUInt32BE(lineEnd + 1);
  };
  const [received] = await converse(address, port, [{ send: identification, until: packetComplete }]);
  const data = received!;
  const lineEnd = data.indexOf('\n');
  const serverBanner = data.subarray(0, lineEnd).toString('latin1').replace(/\r$/, '');
  let offset = lineEnd + 1 + 4 + 1; // packet_length, padding_length
  if (data[offset] !== 20) throw new Error(`Expected SSH_MSG_KEXINIT (20), got ${data[offset]}`);
  offset += 1 + 16; // message code, cookie
  const lists: string[][] = [];
  for (let i = 0; i < 6; i += 1) {
    const length = data.readUInt32BE(offset);
    lists.push(data.subarray(offset + 4, offset + 4 + length).toString('latin1').split(','));
    offset += 4 + length;
  }
  return { banner: serverBanner, kex: lists[0]!, hostKeys: lists[1]!, ciphers: lists[2]!, macs: lists[4]! };
}

export interface SmtpAnswer {
  banner: string;
  ehlo: string[];
  /** The certificate after STARTTLS, when asked for. */
  certificate?: X509Certificate;
  tlsProtocol?: string | null;
}

const smtpReplyDone = (b: Buffer) => /(^|\r\n)\d{3} [^\r\n]*\r\n$/.test(b.toString('latin1'));

/** Banner, EHLO, and (optionally) STARTTLS with a TLS handshake, then QUIT. */
export function smtpSession(
  address: string,
  port: number,
  options: { starttls?: boolean; servername?: string; tlsVersion?: TlsVersion } = {},
): Promise<SmtpAnswer> {
  loopbackOnly(address);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: address, port });
    let buffer = '';
    const answer: SmtpAnswer = { banner: '', ehlo: [] };
    let stage: 'banner' | 'ehlo' | 'starttls' | 'tls' = 'banner';
    const timer = setTimeout(() => fail(new Error(`SMTP session with ${address}:${port} took over ${TIMEOUT_MS} ms`)), TIMEOUT_MS);
    const fail = (error: Error) => {
      clearTimeout(timer);
      socket.destroy();
      reject(error);
    };
    const succeed = () => {
      clearTimeout(timer);
      resolve(answer);
    };
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString('latin1');
      if (!smtpReplyDone(Buffer.from(buffer, 'latin1'))) return;
      const reply = buffer;
      buffer = '';
      if (stage === 'banner') {
        answer.banner = reply.split('\r\n')[0]!;
        stage = 'ehlo';
        socket.write('EHLO range-test.example.test\r\n');
      } else if (stage === 'ehlo') {
        answer.ehlo = reply.split('\r\n').filter(Boolean).map((line) => line.slice(4));
        if (!options.starttls) {
          socket.end('QUIT\r\n');
          succeed();
          return;
        }
        stage = 'starttls';
        socket.write('STARTTLS\r\n');
      } else if (stage === 'starttls') {
        if (!reply.startsWith('220')) return fail(new Error(`STARTTLS refused: ${reply.trim()}`));
        stage = 'tls';
        socket.removeListener('data', onData);
        const secure = tls.connect({
          socket,
          servername: options.servername,
          rejectUnauthorized: false,
          ciphers: 'ALL:@SECLEVEL=0',
          minVersion: options.tlsVersion,
          maxVersion: options.tlsVersion,
        });
        secure.once('secureConnect', () => {
          answer.certificate = secure.getPeerX509Certificate();
          answer.tlsProtocol = secure.getProtocol();
          secure.end('QUIT\r\n');
          succeed();
        });
        secure.once('error', fail);
      }
    };
    socket.on('data', onData);
    socket.once('error', fail);
  });
}

/** The version string of a MySQL/MariaDB server's greeting packet (protocol 10). */
export async function mysqlGreeting(address: string, port: number): Promise<string> {
  const [packet] = await converse(address, port, [{ until: (b) => b.length >= 4 && b.length >= 4 + b.readUIntLE(0, 3) }]);
  const data = packet!;
  if (data[4] !== 10) throw new Error(`Not a MySQL protocol 10 greeting (${data[4]})`);
  const end = data.indexOf(0, 5);
  return data.subarray(5, end).toString('latin1');
}

/** One DNS query over UDP to the range's server. */
export function dnsQuery(server: { host: string; port: number }, name: string, type: dnsPacket.RecordType, klass: dnsPacket.RecordClass = 'IN'): Promise<dnsPacket.Packet> {
  loopbackOnly(server.host);
  return new Promise((resolve, reject) => {
    const socket = dgram.createSocket('udp4');
    const id = Math.floor(Math.random() * 65_535);
    const timer = setTimeout(() => {
      socket.close();
      reject(new Error(`No DNS answer for ${name} ${type} within ${TIMEOUT_MS} ms`));
    }, TIMEOUT_MS);
    socket.on('message', (message) => {
      const packet = dnsPacket.decode(message);
      if (packet.id !== id) return;
      clearTimeout(timer);
      socket.close();
      resolve(packet);
    });
    socket.send(dnsPacket.encode({ type: 'query', id, flags: 0, questions: [{ name, type, class: klass }] }), server.port, server.host);
  });
}

/** A zone transfer over TCP: every record, until the closing SOA (RFC 5936). */
export function dnsAxfr(server: { host: string; port: number }, zone: string): Promise<dnsPacket.Answer[]> {
  loopbackOnly(server.host);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: server.host, port: server.port });
    const records: dnsPacket.Answer[] = [];
    let buffer = Buffer.alloc(0);
    let soaSeen = 0;
    const timer = setTimeout(() => finish(new Error(`AXFR of ${zone} did not finish within ${TIMEOUT_MS} ms`)), TIMEOUT_MS);
    const finish = (error?: Error) => {
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve(records);
    };
    socket.once('connect', () => socket.write(dnsPacket.streamEncode({ type: 'query', id: 1, flags: 0, questions: [{ name: zone, type: 'AXFR', class: 'IN' }] })));
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      while (buffer.length >= 2 && buffer.length >= 2 + buffer.readUInt16BE(0)) {
        const length = buffer.readUInt16BE(0);
        const message = dnsPacket.decode(buffer.subarray(2, 2 + length));
        buffer = buffer.subarray(2 + length);
        const rcode = (message.flags ?? 0) & 0x0f;
        if (rcode !== 0) return finish(new Error(`AXFR refused (rcode ${rcode})`));
        for (const answer of message.answers ?? []) {
          records.push(answer);
          if (answer.type === 'SOA') soaSeen += 1;
        }
        if (soaSeen >= 2) return finish();
      }
    });
    socket.once('error', (error) => finish(error));
    socket.once('end', () => finish(soaSeen >= 2 ? undefined : new Error('AXFR ended before the closing SOA')));
  });
}

/** The data of a DNS record (the OPT pseudo-record has none); TXT strings joined, as one record text. */
export function recordData(record: dnsPacket.Answer): unknown {
  if (!('data' in record)) return undefined;
  if (record.type === 'TXT') {
    const parts = Array.isArray(record.data) ? record.data : [record.data];
    return parts.map((p) => (Buffer.isBuffer(p) ? p.toString('utf8') : String(p))).join('');
  }
  return record.data;
}
