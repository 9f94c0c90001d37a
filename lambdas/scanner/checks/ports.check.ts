import { isIPv4 } from 'node:net';
import topPortsData from '../data/top-ports.json' with { type: 'json' };
import type { CheckDefinition, CheckOutput } from '../check.js';
import type { TcpClient, TcpProbeResult } from '../net/tcp-client.js';
import { analyzeExposure, firewallVerdict, type OpenPort, portRisk, type PortScanSummary } from './ports/exposure.js';
import { HTTP_NUDGE, IMPLICIT_TLS_PORTS, identifyService } from './ports/services.js';
import { type SweepOptions, type SweepStats, sweepPorts } from './ports/sweep.js';

const TOP_PORTS = (topPortsData as unknown as { ports: [number, string][] }).ports.map(([port]) => port);

/** nmap's most frequently open TCP ports, the first `count` of them, less the excluded ones. */
export function portsToScan(count: number, exclude: readonly number[] = []): number[] {
  const excluded = new Set(exclude);
  return TOP_PORTS.slice(0, Math.max(1, Math.min(count, TOP_PORTS.length))).filter((port) => !excluded.has(port));
}

/** Banner grabs go to ports known to be open: long enough for one SYN retransmission (1 s) on a lossy path. */
const CONNECT_TIMEOUT_MS = 1500;
const BANNER_TIMEOUT_MS = 1500;
const IDENTIFY_CONCURRENCY = 16;

/** Runs `work` over `items` with at most `limit` in flight; stops starting new work once aborted. */
async function pool<T, R>(items: readonly T[], limit: number, signal: AbortSignal, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  const runners = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length && !signal.aborted) {
      const item = items[next++]!;
      results.push(await work(item));
    }
  });
  await Promise.all(runners);
  return results;
}

/** Banner first; a silent port gets one HTTP HEAD; a port that speaks TLS is asked again inside TLS. */
async function identify(tcp: TcpClient, address: string, port: number, servername: string | undefined, signal: AbortSignal): Promise<OpenPort> {
  const implicitTls = IMPLICIT_TLS_PORTS.has(port);
  let probe: TcpProbeResult | undefined;
  if (!implicitTls) {
    probe = await tcp.probe(address, port, { timeoutMs: CONNECT_TIMEOUT_MS, grabBanner: true, bannerTimeoutMs: BANNER_TIMEOUT_MS, nudge: HTTP_NUDGE, signal });
  }
  const banner = probe?.banner;
  // No answer, or a TLS alert (0x15 0x03) to a clear-text HEAD: the service expects a TLS handshake.
  const looksTls = implicitTls || !banner || (banner.charCodeAt(0) === 0x15 && banner.charCodeAt(1) === 0x03);
  if (looksTls) {
    const secure = await tcp.probe(address, port, {
      timeoutMs: CONNECT_TIMEOUT_MS,
      grabBanner: true,
      bannerTimeoutMs: BANNER_TIMEOUT_MS,
      nudge: HTTP_NUDGE,
      tls: { servername },
      signal,
    });
    if (secure.tls) {
      return { port, tls: true, ...identifyService(port, secure.banner, true), ...(secure.banner ? { banner: trimBanner(secure.banner) } : {}) };
    }
  }
  const guess = identifyService(port, banner);
  return { port, ...guess, ...(banner ? { banner: trimBanner(banner) } : {}) };
}

/** Keeps the part of a banner worth showing: the first lines, printable characters only. */
function trimBanner(banner: string): string {
  return banner
    .split(/\r?\n/)
    .slice(0, 12)
    .join('\n')
    .replace(/[^\x20-\x7e\n]/g, '.')
    .slice(0, 600);
}

/**
 * The adaptive sweep (ports/sweep.ts), then a banner from each open port. `options.first` puts the
 * site's own port first, so the sweep learns the host's round-trip time from its first answer.
 */
export async function scanPorts(
  tcp: TcpClient,
  address: string,
  ports: readonly number[],
  servername: string | undefined,
  signal: AbortSignal,
  options: SweepOptions = {},
): Promise<PortScanSummary & { sweep: SweepStats }> {
  const { states, stats } = await sweepPorts(tcp, address, ports, signal, options);
  const openPorts = [...states].filter(([, state]) => state === 'open').map(([port]) => port);
  const open = await pool(openPorts, IDENTIFY_CONCURRENCY, signal, (port) => identify(tcp, address, port, servername, signal));
  open.sort((a, b) => a.port - b.port);
  const count = (wanted: string) => [...states.values()].filter((state) => state === wanted).length;
  return { address, scanned: states.size, open, closed: count('closed'), filtered: count('filtered'), sweep: stats };
}

export function analyzePorts(summary: PortScanSummary & { sweep?: SweepStats }): CheckOutput {
  return {
    findings: analyzeExposure(summary),
    data: {
      address: summary.address,
      scanned: summary.scanned,
      closed: summary.closed,
      filtered: summary.filtered,
      firewall: firewallVerdict(summary),
      open: summary.open.map((port) => ({ ...port, risk: portRisk(port) })),
      ...(summary.sweep ? { sweep: summary.sweep } : {}),
    },
  };
}

/** The site's own port: open (it is the site), so probed first to seed the sweep's RTT. */
function webPort(url: string): number {
  const parsed = new URL(url);
  return parsed.port ? Number(parsed.port) : parsed.protocol === 'http:' ? 80 : 443;
}

/**
 * The port scan: a TCP connect to nmap's most common ports (100 for the free scan, 1000 for paid
 * audits) on the target's first address, paced by the round-trip times the host shows, then
 * banners from the open ones. Non-intrusive: a connection per port (two for a silent one), one
 * HEAD at most, nothing guessed.
 */
export const portsCheck: CheckDefinition = {
  name: 'ports',
  budgetMs: 25_000,
  needsAddress: true,
  passive: 'skipped',
  async run({ target, addresses, settings, net, signal }) {
    const address = addresses.find((a) => isIPv4(a)) ?? addresses[0]!;
    const servername = /^[\d.]+$|:/.test(target.host) ? undefined : target.host;
    const ports = portsToScan(settings.topPorts ?? 100, settings.excludePorts);
    const summary = await scanPorts(net.tcp, address, ports, servername, signal, { first: [webPort(target.url)] });
    return analyzePorts(summary);
  },
};
