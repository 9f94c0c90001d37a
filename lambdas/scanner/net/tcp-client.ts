import { connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { isNonPublicAddress } from '../target-guard.js';

export type PortState = 'open' | 'closed' | 'filtered';

export interface TcpProbeResult {
  port: number;
  state: PortState;
  /** What the service said first, or in answer to a protocol-appropriate nudge (open ports only). */
  banner?: string;
  /** The connection was wrapped in TLS (the `tls` option) and the handshake succeeded. */
  tls?: boolean;
  rttMs?: number;
  /**
   * The socket error behind a closed or filtered result (ECONNREFUSED, EHOSTUNREACH, EMFILE …);
   * absent when the port simply did not answer in time. Lets a sweep tell a host's answer from a
   * local shortage.
   */
  error?: string;
}

export interface TcpProbeOptions {
  timeoutMs: number;
  /** Read what the service volunteers (and nudge it when it says nothing). */
  grabBanner?: boolean;
  bannerTimeoutMs?: number;
  /** Bytes to send when the service says nothing first (an HTTP HEAD, say). */
  nudge?: string;
  /** Speak TLS first (for services that say nothing in clear). */
  tls?: { servername?: string };
  signal?: AbortSignal;
}

/** TCP connect scan and banner grab. Connects only to guarded addresses. */
export interface TcpClient {
  probe(address: string, port: number, options: TcpProbeOptions): Promise<TcpProbeResult>;
}

const MAX_BANNER_BYTES = 2048;
/** Once a service has said something, this much silence means it has said all it will say unprompted. */
const QUIET_AFTER_DATA_MS = 200;

/**
 * A full TCP connect (no raw packets, no root): open = handshake completed, closed = refused (RST),
 * filtered = no answer in time. Reads at most 2 KiB, then closes: never more than a banner.
 */
export function createTcpClient(options: { allowPrivateTargets: boolean }): TcpClient {
  return {
    probe(address, port, probeOptions) {
      if (!options.allowPrivateTargets && isNonPublicAddress(address)) {
        return Promise.reject(Object.assign(new Error(`${address} is not a public address`), { code: 'target_not_allowed' }));
      }
      return probe(address, port, probeOptions);
    },
  };
}

function probe(address: string, port: number, options: TcpProbeOptions): Promise<TcpProbeResult> {
  return new Promise((resolve) => {
    const started = performance.now();
    let settled = false;
    let connected = false;
    let tlsOk = false;
    const chunks: Buffer[] = [];
    let size = 0;
    let timer: NodeJS.Timeout | undefined;
    let nudgeTimer: NodeJS.Timeout | undefined;

    const raw = netConnect({ host: address, port });
    let socket: Socket = raw;

    const finish = (state: PortState, error?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(nudgeTimer);
      options.signal?.removeEventListener('abort', onAbort);
      socket.destroy();
      raw.destroy();
      const banner = chunks.length > 0 ? Buffer.concat(chunks).subarray(0, MAX_BANNER_BYTES).toString('latin1') : undefined;
      resolve({
        port,
        state,
        ...(state === 'open' ? { rttMs: Math.round(rtt), banner, ...(options.tls ? { tls: tlsOk } : {}) } : {}),
        ...(state !== 'open' && error ? { error } : {}),
      });
    };
    let rtt = 0;
    const onAbort = () => finish(connected ? 'open' : 'filtered');
    if (options.signal?.aborted) return finish('filtered');
    options.signal?.addEventListener('abort', onAbort, { once: true });

    timer = setTimeout(() => finish('filtered'), options.timeoutMs);
    // `on`, not `once`: a reset can follow the first error, and an unheard error would crash the process.
    raw.on('error', (error: NodeJS.ErrnoException) => {
      if (connected) return finish('open');
      finish(error.code === 'ECONNREFUSED' ? 'closed' : 'filtered', error.code);
    });
    raw.once('connect', () => {
      connected = true;
      rtt = performance.now() - started;
      clearTimeout(timer);
      if (!options.grabBanner) return finish('open');
      const bannerTimeout = options.bannerTimeoutMs ?? 1500;
      timer = setTimeout(() => finish('open'), bannerTimeout);
      let quiet: NodeJS.Timeout | undefined;
      const listen = (s: Socket) => {
        s.on('data', (data: Buffer) => {
          chunks.push(data);
          size += data.length;
          if (size >= MAX_BANNER_BYTES) return finish('open');
          clearTimeout(quiet);
          quiet = setTimeout(() => finish('open'), QUIET_AFTER_DATA_MS);
        });
        s.once('close', () => clearTimeout(quiet));
        s.once('end', () => finish('open'));
        s.once('close', () => finish('open'));
      };
      const nudge = (s: Socket) => {
        // Services that speak first (SSH, SMTP, FTP, MySQL) get a moment before any nudge.
        if (options.nudge) {
          nudgeTimer = setTimeout(() => {
            if (chunks.length === 0 && !s.destroyed) s.write(options.nudge!);
          }, Math.min(400, bannerTimeout / 3));
        }
      };
      if (options.tls) {
        const secure = tlsConnect({
          socket: raw,
          servername: options.tls.servername,
          rejectUnauthorized: false,
          ciphers: 'ALL:@SECLEVEL=0',
          minVersion: 'TLSv1',
        });
        socket = secure;
        secure.on('error', () => finish('open'));
        secure.once('secureConnect', () => {
          tlsOk = true;
          listen(secure);
          if (options.nudge) secure.write(options.nudge);
        });
        return;
      }
      listen(raw);
      nudge(raw);
    });
  });
}
