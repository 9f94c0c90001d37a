/**
 * Test network guard (vitest setupFiles, every project): the tests may reach loopback only, never
 * port 2024, and never the system resolver. A test that tries anything else fails at once with a
 * clear message instead of sending a packet. This enforces the workplace's rule in code rather
 * than by care alone.
 */
import dgram from 'node:dgram';
import dns from 'node:dns';
import net from 'node:net';

const FORBIDDEN_PORT = 2024;

function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\./.test(h) || /^::ffff:127\./.test(h) || /^::ffff:7f[0-9a-f]{2}:/.test(h);
}

function refuse(what: string): never {
  throw new Error(`Test network guard: ${what} (tests may reach loopback only, never port ${FORBIDDEN_PORT}, never the system resolver)`);
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;
type LookupFunction = (hostname: string, options: dns.LookupOptions, callback: LookupCallback) => void;

const originalConnect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function guardedConnect(this: net.Socket, ...args: unknown[]) {
  const first = args[0];
  const options = (Array.isArray(first) ? first[0] : first) as { host?: string; port?: number | string; path?: string; lookup?: LookupFunction } | number | string;
  if (typeof options === 'object' && options !== null) {
    if (!options.path) {
      if (Number(options.port) === FORBIDDEN_PORT) refuse(`connection to port ${FORBIDDEN_PORT}`);
      const host = options.host ?? 'localhost';
      if (options.lookup) {
        // A custom lookup (the scanner pins addresses this way): judge the address it returns.
        const lookup = options.lookup;
        options.lookup = (hostname, lookupOptions, callback) =>
          lookup(hostname, lookupOptions, (err, address, family) => {
            const addresses = Array.isArray(address) ? address.map((a) => a.address) : [address];
            const bad = addresses.find((a) => a && !isLoopback(a));
            if (!err && bad) return callback(new Error(`Test network guard: ${hostname} → ${bad} is not loopback`), address, family);
            callback(err, address, family);
          });
      } else if (!isLoopback(host)) {
        refuse(`connection to ${host}:${options.port}`);
      }
    }
  } else if (typeof options === 'number' || /^\d+$/.test(String(options))) {
    if (Number(options) === FORBIDDEN_PORT) refuse(`connection to port ${FORBIDDEN_PORT}`);
    const host = typeof args[1] === 'string' ? args[1] : 'localhost';
    if (!isLoopback(host)) refuse(`connection to ${host}:${String(options)}`);
  }
  return (originalConnect as (...a: unknown[]) => net.Socket).apply(this, args);
} as typeof net.Socket.prototype.connect;

const originalSend = dgram.Socket.prototype.send;
dgram.Socket.prototype.send = function guardedSend(this: dgram.Socket, ...args: unknown[]) {
  const address = args.slice(1).find((a) => typeof a === 'string') as string | undefined;
  const port = args.slice(1).find((a) => typeof a === 'number' && a > 0 && a < 65536 && a !== (args[1] === 0 ? -1 : NaN));
  if (address !== undefined && !isLoopback(address)) refuse(`UDP datagram to ${address}`);
  if (address === undefined) {
    // A connected socket: judge where it is connected.
    try {
      const remote = this.remoteAddress();
      if (!isLoopback(remote.address)) refuse(`UDP datagram to ${remote.address}`);
    } catch (error) {
      if ((error as Error).message.startsWith('Test network guard')) throw error;
    }
  }
  void port;
  return (originalSend as (...a: unknown[]) => void).apply(this, args);
} as typeof dgram.Socket.prototype.send;

// Node's own resolvers (c-ares) send from native code: judge the servers they would ask.
for (const ResolverClass of [dns.Resolver, dns.promises.Resolver] as unknown as { prototype: Record<string, unknown> & { getServers(): string[] } }[]) {
  for (const method of ['resolve', 'resolve4', 'resolve6', 'resolveAny', 'resolveCaa', 'resolveCname', 'resolveMx', 'resolveNaptr', 'resolveNs', 'resolvePtr', 'resolveSoa', 'resolveSrv', 'resolveTxt', 'reverse']) {
    const original = ResolverClass.prototype[method] as ((...a: unknown[]) => unknown) | undefined;
    if (typeof original !== 'function') continue;
    ResolverClass.prototype[method] = function guardedResolve(this: { getServers(): string[] }, ...args: unknown[]) {
      const outside = this.getServers().find((server) => !isLoopback(server.replace(/:\d+$/, '').replace(/^\[(.*)\](:\d+)?$/, '$1')));
      if (outside) refuse(`DNS query for ${String(args[0])} to ${outside}`);
      return original.apply(this, args);
    };
  }
}
for (const method of ['resolve', 'resolve4', 'resolve6', 'resolveAny', 'resolveMx', 'resolveNs', 'resolveTxt', 'resolveSoa', 'resolveCaa', 'resolveCname'] as const) {
  const guard = () => refuse(`DNS query through the default resolver (dns.${method})`);
  (dns as unknown as Record<string, unknown>)[method] = guard;
  (dns.promises as unknown as Record<string, unknown>)[method] = guard;
}

const originalLookup = dns.lookup;
(dns as unknown as { lookup: unknown }).lookup = function guardedLookup(hostname: string, ...rest: unknown[]) {
  if (!isLoopback(hostname) && net.isIP(hostname) === 0) refuse(`system lookup of ${hostname}`);
  return (originalLookup as (...a: unknown[]) => unknown).call(dns, hostname, ...rest);
};
