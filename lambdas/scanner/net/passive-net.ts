import { restrictedPortOf, TargetPortRestrictedError } from '../../domain/bad-ports.js';
import type { HttpClient } from './http-client.js';
import type { ScanNet } from './net.js';

/** A passive scan tried something only an active scan may do: a bug in a check, refused here rather than sent. */
export class ActiveProbeRefusedError extends Error {
  readonly code = 'EPASSIVE';
  constructor(what: string) {
    super(`${what} is an active probe: not sent in a passive scan`);
    this.name = 'ActiveProbeRefusedError';
  }
}

/**
 * The ports a browser reaches the site on: 443 and 80, and the port the site's own URL names unless
 * browsers refuse it (the Fetch standard's bad ports, domain/bad-ports.ts).
 */
export function browserPorts(targetUrl: string): number[] {
  const url = new URL(targetUrl);
  const ports = new Set([443, 80]);
  if (url.port && restrictedPortOf(url) === undefined) ports.add(Number(url.port));
  return [...ports];
}

/** HTTP as a browser sends it: no request, first URL or redirect hop, to a port browsers refuse (ERR_UNSAFE_PORT). */
function browserHttp(http: HttpClient): HttpClient {
  return {
    request: (url, options = {}) => {
      const beforeHop = (hop: URL) => {
        const port = restrictedPortOf(hop);
        if (port !== undefined) throw new TargetPortRestrictedError(hop.href, port);
        options.beforeHop?.(hop);
      };
      return http.request(url, { ...options, beforeHop });
    },
  };
}

/**
 * DECISIONS "Scan modes", enforced below the checks: in a passive scan the network does only what
 * a browser or a mail server does. No bare TCP connects (port sweeps, banners, subdomain probes),
 * no zone transfers, TLS handshakes only on the ports a browser uses, no HTTP to a port browsers
 * refuse (redirects included). DNS queries, HTTP(S) (what a browser loads; which paths is the
 * checks' part, and the recording test's) and the MX STARTTLS conversation pass through.
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
    http: browserHttp(net.http),
    smtp: net.smtp,
  };
}
