import { X509Certificate } from 'node:crypto';
import { connect as netConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect, type DetailedPeerCertificate, type TLSSocket } from 'node:tls';
import { refusedAddress } from '../target-guard.js';
import type { TlsHandshake, TlsVersion } from './tls-client.js';
import { trustingContext } from './trust-store.js';

export interface SmtpStarttlsResult {
  /** The 220 greeting line(s). */
  banner: string;
  /** EHLO capability lines (without the 250- prefix). */
  capabilities: string[];
  starttlsOffered: boolean;
  /** The TLS session after STARTTLS, when offered and it succeeded; `failed` says why not. */
  tls?: TlsHandshake | { failed: string };
}

/**
 * One polite SMTP conversation with a mail server: read the greeting, EHLO, STARTTLS when offered,
 * handshake, QUIT. No MAIL FROM, no RCPT, no AUTH: nothing is sent and nothing is guessed.
 * Connects only to addresses that pass the target guard.
 */
export interface SmtpClient {
  starttls(
    address: string,
    port: number,
    options: { servername?: string; ehloName: string; timeoutMs: number; signal?: AbortSignal; /** Offer only this TLS version (to learn which versions the server accepts). */ tlsVersion?: TlsVersion },
  ): Promise<SmtpStarttlsResult>;
}

export interface SmtpClientOptions {
  allowPrivateTargets: boolean;
  /** Trust anchors instead of Node's root store (createNet passes the root store plus ScanSettings.extraCaCertificates). */
  ca?: string[];
}

/** A reply is cut off past these: a mail server's EHLO is a dozen short lines. */
const MAX_REPLY_LINES = 100;
const MAX_REPLY_BYTES = 64 * 1024;

/**
 * SMTP over node:net with the STARTTLS upgrade done in place (tls.connect on the same socket).
 * The whole conversation, handshake included, is bounded by `timeoutMs` and the caller's signal;
 * a server that stops talking ends it with an ETIMEOUT error. The TLS side accepts every version
 * from 1.0 and any certificate, because the point is to see what a sending server would get, and
 * reports whether the trust store (Node's, unless `ca` is given) vouches for the chain.
 */
export function createSmtpClient(options: SmtpClientOptions): SmtpClient {
  return {
    async starttls(address, port, conversation) {
      if (refusedAddress([address], options.allowPrivateTargets)) {
        throw Object.assign(new Error(`${address} is not a public address`), { code: 'target_not_allowed' });
      }
      const deadline = AbortSignal.timeout(conversation.timeoutMs);
      const signal = conversation.signal ? AbortSignal.any([conversation.signal, deadline]) : deadline;
      const session = await SmtpSession.open(address, port, signal);
      try {
        return await session.run(conversation.ehloName, conversation.servername, conversation.tlsVersion, options.ca);
      } finally {
        session.close();
      }
    },
  };
}

interface Reply {
  code: number;
  lines: string[];
}

class SmtpSession {
  private buffered = '';
  private lines: string[] = [];
  private waiting: { resolve: (reply: Reply) => void; reject: (error: Error) => void } | undefined;
  private failure: Error | undefined;
  private tlsSocket: TLSSocket | undefined;

  private constructor(
    private readonly socket: Socket,
    private readonly signal: AbortSignal,
    private readonly address: string,
  ) {
    socket.on('data', this.onData);
    socket.on('error', (error) => this.fail(error));
    socket.on('close', () => this.fail(smtpError('ECONNRESET', `${address} closed the connection`)));
    signal.addEventListener('abort', this.onAbort, { once: true });
  }

  static open(address: string, port: number, signal: AbortSignal): Promise<SmtpSession> {
    return new Promise((resolve, reject) => {
      if (signal.aborted) return reject(abortError(signal, address));
      const socket = netConnect({ host: address, port });
      const onAbort = () => {
        socket.destroy();
        reject(abortError(signal, address));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      socket.once('error', (error) => {
        signal.removeEventListener('abort', onAbort);
        socket.destroy();
        reject(error);
      });
      socket.once('connect', () => {
        signal.removeEventListener('abort', onAbort);
        socket.removeAllListeners('error');
        resolve(new SmtpSession(socket, signal, address));
      });
    });
  }

  async run(ehloName: string, servername: string | undefined, tlsVersion?: TlsVersion, ca?: string[]): Promise<SmtpStarttlsResult> {
    const greeting = await this.read();
    const banner = greeting.lines.join('\n');
    if (greeting.code !== 220) throw smtpError('SMTP_REJECTED', `${this.address} greeted with ${greeting.code}: ${banner}`);

    const ehlo = await this.command(`EHLO ${ehloName}`);
    // A server without ESMTP (EHLO refused) cannot offer STARTTLS: that is the answer, not an error.
    const capabilities = ehlo.code === 250 ? ehlo.lines.slice(1) : [];
    const starttlsOffered = capabilities.some((c) => /^STARTTLS\b/i.test(c));
    if (!starttlsOffered) {
      await this.quit();
      return { banner, capabilities, starttlsOffered };
    }

    const ready = await this.command('STARTTLS');
    if (ready.code !== 220) {
      await this.quit();
      return { banner, capabilities, starttlsOffered, tls: { failed: `STARTTLS answered ${ready.code}: ${ready.lines.join(' ')}` } };
    }
    const tls = await this.upgrade(servername, tlsVersion, ca);
    if (!('failed' in tls)) await this.quit();
    return { banner, capabilities, starttlsOffered, tls };
  }

  close(): void {
    this.signal.removeEventListener('abort', this.onAbort);
    this.tlsSocket?.destroy();
    this.socket.destroy();
  }

  private async command(line: string): Promise<Reply> {
    (this.tlsSocket ?? this.socket).write(`${line}\r\n`);
    return this.read();
  }

  /** QUIT politely, but a server that hangs up first is fine: everything needed was already read. */
  private async quit(): Promise<void> {
    try {
      await this.command('QUIT');
    } catch {
      // the answer to QUIT changes nothing
    }
  }

  /** Hands the socket to TLS. Only the handshake's failure is returned as a value; a timeout still throws. */
  private upgrade(servername: string | undefined, tlsVersion?: TlsVersion, ca?: string[]): Promise<TlsHandshake | { failed: string }> {
    this.socket.removeListener('data', this.onData);
    this.socket.removeAllListeners('close');
    this.buffered = '';
    this.lines = [];
    return new Promise((resolve, reject) => {
      const settings = { minVersion: tlsVersion ?? 'TLSv1', ...(tlsVersion ? { maxVersion: tlsVersion } : {}), ciphers: 'ALL:@SECLEVEL=0' } as const;
      const secure = tlsConnect({
        socket: this.socket,
        // SNI takes names only (RFC 6066 §3).
        ...(servername && isIP(servername) === 0 ? { servername } : {}),
        rejectUnauthorized: false,
        ...settings,
        // Another trust store: a shared context carrying it and the settings above.
        ...(ca ? { secureContext: trustingContext(ca, settings) } : {}),
      });
      this.tlsSocket = secure;
      const onAbort = () => reject(abortError(this.signal, this.address));
      this.signal.addEventListener('abort', onAbort, { once: true });
      secure.once('error', (error: NodeJS.ErrnoException) => {
        this.signal.removeEventListener('abort', onAbort);
        resolve({ failed: [error.code, error.message].filter(Boolean).join(': ') });
      });
      secure.once('secureConnect', () => {
        this.signal.removeEventListener('abort', onAbort);
        secure.removeAllListeners('error');
        secure.on('data', this.onData);
        secure.on('error', (error) => this.fail(error));
        secure.on('close', () => this.fail(smtpError('ECONNRESET', `${this.address} closed the connection`)));
        resolve(handshakeOf(secure));
      });
    });
  }

  private read(): Promise<Reply> {
    const ready = this.takeReply();
    if (ready) return Promise.resolve(ready);
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
    });
  }

  /** A complete reply from the lines read so far: `250-…` lines continue it, `250 …` ends it (RFC 5321 §4.2.1). */
  private takeReply(): Reply | undefined {
    const end = this.lines.findIndex((line) => !/^\d{3}-/.test(line));
    if (end < 0) return undefined;
    const lines = this.lines.splice(0, end + 1);
    const last = lines.at(-1)!;
    if (!/^\d{3}(?: |$)/.test(last)) {
      this.failure = smtpError('SMTP_PROTOCOL', `${this.address} does not speak SMTP: ${last.slice(0, 80)}`);
      return undefined;
    }
    return { code: Number(last.slice(0, 3)), lines: lines.map((line) => line.slice(4)) };
  }

  private readonly onData = (chunk: Buffer) => {
    // latin1 maps every byte to one character: a banner in any charset cannot break the framing.
    this.buffered += chunk.toString('latin1');
    if (this.buffered.length > MAX_REPLY_BYTES) return this.fail(smtpError('SMTP_PROTOCOL', `${this.address} sent more than ${MAX_REPLY_BYTES} bytes without a reply`));
    const parts = this.buffered.split(/\r?\n/);
    this.buffered = parts.pop() ?? '';
    this.lines.push(...parts);
    if (this.lines.length > MAX_REPLY_LINES) return this.fail(smtpError('SMTP_PROTOCOL', `${this.address} sent a reply of more than ${MAX_REPLY_LINES} lines`));
    if (!this.waiting) return;
    const reply = this.takeReply();
    if (reply) {
      const { resolve } = this.waiting;
      this.waiting = undefined;
      resolve(reply);
    } else if (this.failure) {
      this.fail(this.failure);
    }
  };

  private readonly onAbort = () => this.fail(abortError(this.signal, this.address));

  private fail(error: Error): void {
    this.failure ??= error;
    if (!this.waiting) return;
    const { reject } = this.waiting;
    this.waiting = undefined;
    reject(this.failure);
  }
}

function smtpError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

function abortError(signal: AbortSignal, address: string): Error {
  const reason = signal.reason as Error | undefined;
  return reason?.name === 'TimeoutError' ? smtpError('ETIMEOUT', `${address} did not finish the SMTP conversation in time`) : smtpError('ABORT_ERR', 'The SMTP conversation was aborted');
}

/** The handshake as the TLS analysis reads it; the chain is walked from the leaf via issuerCertificate. */
function handshakeOf(socket: TLSSocket): TlsHandshake {
  const cipher = socket.getCipher();
  const ephemeral = socket.getEphemeralKeyInfo();
  const certificates: X509Certificate[] = [];
  let current: DetailedPeerCertificate | undefined = socket.getPeerCertificate(true);
  const seen = new Set<string>();
  while (current && current.raw && !seen.has(current.fingerprint256)) {
    seen.add(current.fingerprint256);
    certificates.push(new X509Certificate(current.raw));
    current = current.issuerCertificate;
  }
  const ephemeralKey = ephemeral && 'type' in ephemeral && ephemeral.type ? { type: ephemeral.type, name: ephemeral.name, size: ephemeral.size } : null;
  return {
    protocol: socket.getProtocol(),
    cipher: cipher ? { name: cipher.name, standardName: cipher.standardName, version: cipher.version } : null,
    ephemeralKey,
    certificates,
    authorized: socket.authorized,
    ...(socket.authorizationError ? { authorizationError: String(socket.authorizationError) } : {}),
  };
}
