import type { ScanNet } from './net.js';

/** A passive scan tried something only an active scan may do: a bug in a check, refused here rather than sent. */
export class ActiveProbeRefusedError extends Error {
  readonly code = 'EPASSIVE';
  constructor(what: string) {
    super(`${what} is an active probe: not sent in a passive scan`);
    this.name = 'ActiveProbeRefusedError';
  }
}

/** The ports a browser reaches the site on: 443 and 80, and the port the site's own URL names. */
export function browserPorts(targetUrl: string): number[] {
  const url = new URL(targetUrl);
  const ports = new Set([443, 80]);
  if (url.port) ports.add(Number(url.port));
  return [...ports];
}

/**
 * DECISIONS "Scan modes", enforced below the checks: in a passive scan the network does only what
 * a browser or a mail server does. No bare TCP connects (port sweeps, banners, subdomain probes),
 * no zone transfers, TLS handshakes only on the ports a browser uses. DNS queries, HTTP(S) (what a
 * browser loads; which paths is the checks' part, and the recording test's) and the MX STARTTLS
 * conversation pass through.
 */
export function passiveNet(net: ScanNet, targetUrl: string): ScanNet {
  const tlsPorts = new Set(browserPorts(targetUrl));
  return {
    dns: {
      query: (name, type, options) => net.dns.query(name, type, options),
      axfr: () => Promise.reject(new ActiveProbeRefusedError('A zone transfer (AXFR)')),
    },
    tcp: { probe: (_address, port) => Promise.reject(new ActiveProbeRefusedError(`A TCP connect to port ${port}`)) },
    tls: {
      handshake: (address, port, options) =>
        tlsPorts.has(port) ? net.tls.handshake(address, port, options) : Promise.reject(new ActiveProbeRefusedError(`A TLS handshake on port ${port}`)),
    },
    http: net.http,
    smtp: net.smtp,
  };
}
