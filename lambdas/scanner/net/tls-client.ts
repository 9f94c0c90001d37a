import type { X509Certificate } from 'node:crypto';

export type TlsVersion = 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3';

export interface TlsHandshake {
  protocol: string | null;
  cipher: { name: string; standardName?: string; version: string } | null;
  /** Ephemeral key exchange (ECDH/DH) with its size; null for static RSA key exchange. */
  ephemeralKey: { type: string; name?: string; size?: number } | null;
  /** Leaf first, then the chain as the server sent it. */
  certificates: X509Certificate[];
  /** Whether Node's root store trusts the chain for this server name, and why not. */
  authorized: boolean;
  authorizationError?: string;
  alpnProtocol?: string | false;
}

/** One TLS handshake at a time, version and ciphers pinned, against a guarded address. */
export interface TlsClient {
  handshake(
    address: string,
    port: number,
    options: { servername?: string; minVersion: TlsVersion; maxVersion: TlsVersion; ciphers?: string; timeoutMs: number; signal?: AbortSignal },
  ): Promise<TlsHandshake | { failed: string }>;
}
