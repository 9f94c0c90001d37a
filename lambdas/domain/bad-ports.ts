import { DomainError } from './errors.js';

/**
 * The browsers' restricted ports: the Fetch standard's "bad port" list
 * (https://fetch.spec.whatwg.org/#port-blocking, port 0 added in whatwg/fetch#1847, 2025; the same
 * list as web-platform-tests' fetch/api/request/request-bad-port.any.js). A browser refuses to open
 * an http(s) URL on any of them (Chrome: ERR_UNSAFE_PORT), redirects included, so a passive scan,
 * which does only what a browser does (DECISIONS "Scan modes"), does not either.
 */
export const BAD_PORTS: readonly number[] = [
  0, 1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110, 111, 113, 115, 117,
  119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989,
  990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
];

const BAD = new Set(BAD_PORTS);

/** The port an http(s) URL connects to: the one it names, or its scheme's default (80, 443). */
export function portOf(url: URL): number {
  if (url.port) return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

/** The URL's port when a browser would refuse it (on the bad-port list); undefined when a browser opens it. */
export function restrictedPortOf(url: string | URL): number | undefined {
  const port = portOf(typeof url === 'string' ? new URL(url) : url);
  return BAD.has(port) ? port : undefined;
}

/** A passive scan (or one of its requests) would reach a port browsers refuse to open. */
export class TargetPortRestrictedError extends DomainError {
  constructor(url: string, port: number) {
    super(
      'target_port_restricted',
      `Browsers refuse to open web addresses on port ${port} (ERR_UNSAFE_PORT: it belongs to another service, such as mail or file sharing), ` +
        `so ${url} cannot be scanned without proof that the site is yours. Use the site’s usual web address, or verify the domain for a full scan.`,
      { url, port },
    );
  }
}
