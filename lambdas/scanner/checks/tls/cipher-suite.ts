/**
 * What a negotiated cipher suite means for security: key exchange (and so forward secrecy),
 * AEAD or CBC, and the symmetric strength in bits that SSL Labs' cipher score uses.
 */
import type { TlsHandshake } from '../../net/tls-client.js';

export type KeyExchange = 'ECDHE' | 'DHE' | 'RSA' | 'ECDH' | 'DH' | 'anon' | 'PSK' | 'unknown';

export interface CipherInfo {
  protocol: string;
  /** OpenSSL name (ECDHE-RSA-AES256-GCM-SHA384, TLS_AES_256_GCM_SHA384 …). */
  name: string;
  /** IANA name, when OpenSSL knows it. */
  standardName?: string;
  keyExchange: KeyExchange;
  forwardSecrecy: boolean;
  aead: boolean;
  cbc: boolean;
  /** Symmetric key strength; null when the suite is not recognised. */
  bits: number | null;
  export: boolean;
  /** The ephemeral group: X25519 / prime256v1 / DH with its size. */
  ephemeralKey: { type: string; name?: string; size?: number } | null;
}

const strengths: [RegExp, number][] = [
  [/NULL/, 0],
  [/EXP(ORT)?[-_]|DES40|RC2_CBC_40|RC4_40/, 40],
  [/3DES|DES[-_]CBC3|DES_EDE/, 112],
  [/DES[-_]CBC|(^|[-_])DES([-_]|$)/, 56],
  [/CHACHA20/, 256],
  [/(AES|CAMELLIA|ARIA)[-_]?256|GOST/, 256],
  [/(AES|CAMELLIA|ARIA)[-_]?128|RC4|SEED|IDEA/, 128],
];

function keyExchangeOf(protocol: string, fullName: string, standard: string, ephemeral: TlsHandshake['ephemeralKey']): KeyExchange {
  const name = fullName.replace(/^EXP1024-|^EXP-/, '');
  // TLS 1.3 suites name no key exchange: it is always ephemeral (EC)DHE.
  if (protocol === 'TLSv1.3' || name.startsWith('TLS_AES') || name.startsWith('TLS_CHACHA')) return ephemeral?.type === 'DH' ? 'DHE' : 'ECDHE';
  if (/_anon_/.test(standard) || /^(ADH|AECDH)-/.test(name)) return 'anon';
  if (/^TLS_ECDHE_/.test(standard) || /^ECDHE-/.test(name)) return 'ECDHE';
  if (/^TLS_DHE_/.test(standard) || /^(DHE|EDH)-/.test(name)) return 'DHE';
  if (/^TLS_ECDH_/.test(standard) || /^ECDH-/.test(name)) return 'ECDH';
  if (/^TLS_DH_/.test(standard) || /^DH-/.test(name)) return 'DH';
  if (/PSK/.test(standard || name)) return 'PSK';
  if (/^TLS_RSA_/.test(standard) || /^(AES|CAMELLIA|ARIA|DES|RC4|SEED|IDEA|NULL)/.test(name)) return 'RSA';
  return ephemeral?.type === 'ECDH' ? 'ECDHE' : ephemeral?.type === 'DH' ? 'DHE' : 'unknown';
}

/** Describes the cipher a handshake negotiated; null when the handshake reported none. */
export function describeCipher(handshake: Pick<TlsHandshake, 'protocol' | 'cipher' | 'ephemeralKey'>): CipherInfo | null {
  if (!handshake.cipher) return null;
  const protocol = handshake.protocol ?? handshake.cipher.version;
  const name = handshake.cipher.name;
  const standard = handshake.cipher.standardName ?? '';
  const both = `${standard} ${name}`;
  const keyExchange = keyExchangeOf(protocol, name, standard, handshake.ephemeralKey);
  const aead = protocol === 'TLSv1.3' || /GCM|CHACHA20|CCM/.test(both);
  const bits = strengths.find(([pattern]) => pattern.test(both))?.[1] ?? null;
  return {
    protocol,
    name,
    ...(handshake.cipher.standardName ? { standardName: handshake.cipher.standardName } : {}),
    keyExchange,
    forwardSecrecy: keyExchange === 'ECDHE' || keyExchange === 'DHE',
    aead,
    // Everything that is neither AEAD nor a stream/null cipher runs in CBC mode in TLS ≤ 1.2.
    cbc: !aead && (/_CBC_/.test(standard) || (!standard && !/RC4|NULL/.test(name))),
    bits,
    export: /EXP(ORT)?[-_]/.test(both),
    ephemeralKey: handshake.ephemeralKey,
  };
}
