import { rootCertificates } from 'node:tls';
import type { ScanSettings } from '../check.js';
import type { ScanResolver } from '../resolver.js';
import { createDnsClient } from './dns-client.js';
import { createHttpClient } from './http-client.js';
import type { ScanNet } from './net.js';
import { politeHttp } from './polite-http.js';
import { createSmtpClient } from './smtp-client.js';
import { createTcpClient } from './tcp-client.js';
import { createTlsClient } from './tls-client.js';

/** The pinned target: the host and the addresses resolved (and guarded) once at the start of the scan. */
export interface PinnedTarget {
  host: string;
  addresses: readonly string[];
}

/**
 * The real network for a scan: every client bound to the scan's settings. HTTP to the target goes
 * to its pinned addresses; any other host (a redirect) is resolved through the scanner's resolver
 * and guarded at each hop.
 */
export function createNet(settings: ScanSettings, pinned: PinnedTarget, resolver: ScanResolver, polite: { retryAfterUntil?: number } = {}): ScanNet {
  const { allowPrivateTargets } = settings;
  const trust = trustedCertificates(settings);
  return {
    dns: createDnsClient({ resolvers: settings.resolvers, timeoutMs: settings.dnsTimeoutMs }),
    tcp: createTcpClient({ allowPrivateTargets }),
    tls: createTlsClient({ allowPrivateTargets, ...trust }),
    // However many checks ask at once, one site is asked politely (polite-http.ts).
    http: politeHttp(createHttpClient({
      pinned: new Map([[pinned.host.replace(/^\[|\]$/g, '').toLowerCase(), pinned.addresses]]),
      resolve: async (host) => {
        const [v4, v6] = await Promise.all([resolver.resolve4(host), resolver.resolve6(host)]);
        return [...v4, ...v6];
      },
      allowPrivateTargets,
      ...(settings.userAgent ? { userAgent: settings.userAgent } : {}),
      ...trust,
    }), polite),
    smtp: createSmtpClient({ allowPrivateTargets, ...trust }),
  };
}

/**
 * The trust store every client judges certificates by: Node's root store, plus the operator's
 * `extraCaCertificates` when there are any (a `ca` option replaces the root store, so both are
 * given). Without extras the clients keep Node's default and build no store of their own.
 */
export function trustedCertificates(settings: Pick<ScanSettings, 'extraCaCertificates'>): { ca?: string[] } {
  const extra = settings.extraCaCertificates?.filter((pem) => pem.trim() !== '') ?? [];
  return extra.length > 0 ? { ca: [...rootCertificates, ...extra] } : {};
}
