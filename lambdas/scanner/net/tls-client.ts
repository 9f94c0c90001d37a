import { X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';
import { connect, type ConnectionOptions, type DetailedPeerCertificate, type TLSSocket } from 'node:tls';
import { isNonPublicAddress } from '../target-guard.js';
import { trustingContext } from './trust-store.js';

export type TlsVersion = 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3';

/** The protocol versions the TLS check tries, oldest first. */
export const TLS_VERSIONS: readonly TlsVersion[] = ['TLSv1', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'];

/**
 * Every cipher this OpenSSL knows, at security level 0: without it OpenSSL 3 refuses TLS 1.0/1.1
 * and small keys before the server has a chance to show that it still accepts them.
 */
export const ALL_CIPHERS = 'ALL:@SECLEVEL=0';

export interface TlsHandshake {
  protocol: string | null;
  cipher: { name: string; standardName?: string; version: string } | null;
  /** Ephemeral key exchange (ECDH/DH) with its size; null for static RSA key exchange. */
  ephemeralKey: { type: string; name?: string; size?: number } | null;
  /** Leaf first, then the chain as Node built it (the certificates sent, plus known issuers from the trust store). */
  certificates: X509Certificate[];
  /** Whether the trust store vouches for the chain (hostname not included: the check compares names itself), and why not. */
  authorized: boolean;
  authorizationError?: string;
  alpnProtocol?: string | false;
  /**
   * Whether the server stapled an OCSP response (status_request asked on every handshake): its
   * size in bytes, 0 when it sent none. Absent on handshakes recorded before it was asked.
   */
  ocspStapleBytes?: number;
  durationMs?: number;
}

export interface TlsFailure {
  /** Human-readable reason, OpenSSL's code first (ERR_SSL_WRONG_VERSION_NUMBER: …). */
  failed: string;
  code?: string;
  /**
   * True when the TCP connection was made and the TLS handshake then failed: the port answers but
   * refuses this version or cipher set (or does not speak TLS). False: refused, unreachable or silent.
   */
  connected?: boolean;
}

export interface TlsHandshakeOptions {
  /** SNI name; also the name the chain is verified for. Leave out for IP-literal targets. */
  servername?: string;
  minVersion: TlsVersion;
  maxVersion: TlsVersion;
  /** OpenSSL cipher string for TLS 1.2 and below; defaults to ALL_CIPHERS. */
  ciphers?: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** One TLS handshake at a time, version and ciphers pinned, against a guarded address. */
export interface TlsClient {
  handshake(address: string, port: number, options: TlsHandshakeOptions): Promise<TlsHandshake | TlsFailure>;
}

/** True when the handshake attempt did not complete. */
export function isTlsFailure(result: TlsHandshake | TlsFailure): result is TlsFailure {
  return 'failed' in result;
}

export interface TlsClientOptions {
  /** Local development and tests only: handshakes with private and loopback addresses (as the other clients). */
  allowPrivateTargets: boolean;
  /** Trust anchors instead of Node's root store (tests only: a private test CA). */
  ca?: string[];
}

/**
 * node:tls client: connects to the given address (never a name, so no DNS and no rebinding),
 * sends SNI, accepts any certificate so that a broken one can still be examined, and reports
 * whether the trust store vouches for it. Always destroys its socket.
 */
export function createTlsClient(clientOptions: TlsClientOptions): TlsClient {
  return {
    handshake: (address, port, options) =>
      new Promise((resolve) => {
        const started = performance.now();
        if (options.signal?.aborted) {
          resolve({ failed: 'Aborted before connecting', code: 'ABORT_ERR', connected: false });
          return;
        }
        // The checks hand it guarded addresses only; refused here too, as the TCP, HTTP and SMTP clients refuse.
        if (!clientOptions.allowPrivateTargets && isNonPublicAddress(address)) {
          resolve({ failed: `${address} is not a public address`, code: 'target_not_allowed', connected: false });
          return;
        }
        let settled = false;
        let connected = false;
        // SNI must be a host name: Node warns (DEP0123) and OpenSSL sends nothing useful for an IP.
        const servername = options.servername && isIP(options.servername) === 0 ? options.servername : undefined;
        const connectOptions: ConnectionOptions & { requestOCSP: boolean } = {
          host: address,
          port,
          servername,
          minVersion: options.minVersion,
          maxVersion: options.maxVersion,
          ciphers: options.ciphers ?? ALL_CIPHERS,
          // Examine every certificate, broken ones included; trust is read from the socket below.
          rejectUnauthorized: false,
          // Hostname matching is the analysis's job (with browser rules), so `authorized` means chain trust only.
          checkServerIdentity: () => undefined,
          // Node refuses DH groups under 1024 bits by default; accept them so they can be reported.
          minDHSize: 1,
          ALPNProtocols: ['h2', 'http/1.1'],
          // status_request: a server that staples OCSP sends the response in the handshake.
          requestOCSP: true,
          // Another trust store: a shared context carrying it (and so the ciphers and versions above).
          ...(clientOptions.ca ? { secureContext: trustingContext(clientOptions.ca, { ciphers: options.ciphers ?? ALL_CIPHERS, minVersion: options.minVersion, maxVersion: options.maxVersion }) } : {}),
        };
        // tls.connect hands requestOCSP to the TLSSocket it builds; @types/node lists it on TLSSocketOptions only.
        const socket: TLSSocket = connect(connectOptions);
        const finish = (result: TlsHandshake | TlsFailure) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          options.signal?.removeEventListener('abort', onAbort);
          socket.destroy();
          resolve(result);
        };
        const onAbort = () => finish({ failed: 'Aborted', code: 'ABORT_ERR', connected });
        const timer = setTimeout(
          () => finish({ failed: `No TLS answer within ${options.timeoutMs} ms`, code: 'ETIMEDOUT', connected }),
          options.timeoutMs,
        );
        options.signal?.addEventListener('abort', onAbort, { once: true });
        let ocspStapleBytes = 0;
        socket.once('connect', () => (connected = true));
        // Emitted before secureConnect; the response is null when the server stapled nothing.
        socket.once('OCSPResponse', (response: Buffer | null) => (ocspStapleBytes = response?.length ?? 0));
        socket.once('secureConnect', () => {
          try {
            finish({ ...readHandshake(socket, Math.round(performance.now() - started)), ocspStapleBytes });
          } catch (error) {
            finish({ failed: describe(error), connected: true });
          }
        });
        socket.once('error', (error: NodeJS.ErrnoException) => finish({ failed: describe(error), code: error.code, connected }));
        // A server that closes after the ClientHello without an alert.
        socket.once('close', () => finish({ failed: 'Connection closed during the handshake', code: 'ECONNRESET', connected }));
      }),
  };
}

function readHandshake(socket: TLSSocket, durationMs: number): TlsHandshake {
  const cipher = socket.getCipher();
  const ephemeral = socket.getEphemeralKeyInfo();
  const authorizationError = socket.authorizationError as Error | string | null | undefined;
  return {
    protocol: socket.getProtocol(),
    cipher: cipher ? { name: cipher.name, ...(cipher.standardName ? { standardName: cipher.standardName } : {}), version: cipher.version } : null,
    ephemeralKey:
      ephemeral && 'type' in ephemeral && ephemeral.type
        ? { type: ephemeral.type, ...(ephemeral.name ? { name: ephemeral.name } : {}), ...(ephemeral.size ? { size: ephemeral.size } : {}) }
        : null,
    certificates: peerChain(socket),
    authorized: socket.authorized,
    ...(authorizationError ? { authorizationError: typeof authorizationError === 'string' ? authorizationError : authorizationError.message } : {}),
    alpnProtocol: socket.alpnProtocol ?? false,
    durationMs,
  };
}

/** Leaf first, then each issuer Node found (sent by the server or from the trust store), stopping at a self-signed root. */
function peerChain(socket: TLSSocket): X509Certificate[] {
  const chain: X509Certificate[] = [];
  const seen = new Set<DetailedPeerCertificate>();
  let current: DetailedPeerCertificate | undefined = socket.getPeerCertificate(true);
  while (current?.raw && !seen.has(current) && chain.length < 10) {
    seen.add(current);
    chain.push(new X509Certificate(current.raw));
    current = current.issuerCertificate;
  }
  if (chain.length === 0) {
    const leaf = socket.getPeerX509Certificate();
    if (leaf) chain.push(leaf);
  }
  return chain;
}

/** "ERR_SSL_WRONG_VERSION_NUMBER: wrong version number", not OpenSSL's hex-and-source-file line. */
function describe(error: unknown): string {
  const err = error as NodeJS.ErrnoException;
  const line = (err.message ?? String(error)).split('\n')[0]!;
  // OpenSSL: <thread>:error:<code>:<library>:<function>:<reason>:<file>:<line>:
  const openssl = /^[0-9A-F]+:error:[0-9A-F]+:[^:]*:[^:]*:([^:]+):/.exec(line);
  const message = openssl ? openssl[1]! : line;
  return err.code && !message.startsWith(err.code) ? `${err.code}: ${message}` : message;
}
