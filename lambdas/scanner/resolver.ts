import { promises as dns } from 'node:dns';

/** The scanner's DNS: every query goes to the configured servers (tests point it at their own). */
export interface ScanResolver {
  /** Addresses of a name; [] when the name has none (NXDOMAIN or no data). Throws on timeout or refusal. */
  resolve4(host: string): Promise<string[]>;
  resolve6(host: string): Promise<string[]>;
}

export interface ResolverSettings {
  resolvers: { host: string; port: number }[];
  dnsTimeoutMs: number;
}

const NO_ANSWER = new Set(['ENOTFOUND', 'ENODATA', 'ENONAME', 'NXDOMAIN']);

export function createResolver(settings: ResolverSettings): ScanResolver {
  const resolver = new dns.Resolver({ timeout: settings.dnsTimeoutMs, tries: 2 });
  if (settings.resolvers.length > 0) {
    resolver.setServers(settings.resolvers.map(({ host, port }) => (host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`)));
  }
  const query = async (run: () => Promise<string[]>) => {
    try {
      return await run();
    } catch (error) {
      if (NO_ANSWER.has((error as NodeJS.ErrnoException).code ?? '')) return [];
      throw error;
    }
  };
  return {
    resolve4: (host) => query(() => resolver.resolve4(host)),
    resolve6: (host) => query(() => resolver.resolve6(host)),
  };
}
