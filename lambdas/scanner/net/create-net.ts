import type { ScanSettings } from '../check.js';
import { createDnsClient } from './dns-client.js';
import type { ScanNet } from './net.js';
import { createTcpClient } from './tcp-client.js';

/** The pinned target: the host and the addresses resolved (and guarded) once at the start of the scan. */
export interface PinnedTarget {
  host: string;
  addresses: readonly string[];
}

const notWired = (what: string) => () => Promise.reject(new Error(`The ${what} client is not wired into the scanner yet`));

/** The real network for a scan: every client bound to the scan's settings and pinned target. */
export function createNet(settings: ScanSettings, _pinned: PinnedTarget): ScanNet {
  return {
    dns: createDnsClient({ resolvers: settings.resolvers, timeoutMs: settings.dnsTimeoutMs }),
    tcp: createTcpClient({ allowPrivateTargets: settings.allowPrivateTargets }),
    tls: { handshake: notWired('TLS') },
    http: { request: notWired('HTTP') },
    smtp: { starttls: notWired('SMTP') },
  };
}
