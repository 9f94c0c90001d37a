import { isIPv4 } from 'node:net';
import topPortsData from '../data/top-ports.json' with { type: 'json' };
import type { CheckDefinition, CheckOutput } from '../check.js';
import type { TcpClient, TcpProbeResult } from '../net/tcp-client.js';
import { analyzeExposure, firewallVerdict, type OpenPort, portRisk, type PortScanSummary } from './ports/exposure.js';
import { HTTP_NUDGE, IMPLICIT_TLS_PORTS, identifyService } from './ports/services.js';

const TOP_PORTS = (topPortsData as unknown as { ports: [number, string][] }).ports.map(([port]) => port);

/** nmap's most frequently open TCP ports, the first `count` of them, less the excluded ones. */
export function portsToScan(count: number, exclude: readonly number[] = []): number[] {
  const excluded = new Set(exclude);
  return TOP_PORTS.slice(0, Math.max(1, Math.min(count, TOP_PORTS.length))).filter((port) => !excluded.has(port));
}

const CONNECT_TIMEOUT_MS = 1500;
const BANNER_TIMEOUT_MS = 1500;
const CONCURRENCY = 128;

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

export async function scanPorts(
  tcp: TcpClient,
  address: string,
  ports: readonly number[],
  servername: string | undefined,
  signal: AbortSignal,
): Promise<PortScanSummary> {
  const probes = await pool(ports, CONCURRENCY, signal, (port) => tcp.probe(address, port, { timeoutMs: CONNECT_TIMEOUT_MS, signal }));
  const openPorts = probes.filter((p) => p.state === 'open').map((p) => p.port);
  const open = await pool(openPorts, 16, signal, (port) => identify(tcp, address, port, servername, signal));
  open.sort((a, b) => a.port - b.port);
  return {
    address,
    scanned: probes.length,
    open,
    closed: probes.filter((p) => p.state === 'closed').length,
    filtered: probes.filter((p) => p.state === 'filtered').length,
  };
}

export function analyzePorts(summary: PortScanSummary): CheckOutput {
  return {
    findings: analyzeExposure(summary),
    data: {
      address: summary.address,
      scanned: summary.scanned,
      closed: summary.closed,
      filtered: summary.filtered,
      firewall: firewallVerdict(summary),
      open: summary.open.map((port) => ({ ...port, risk: portRisk(port) })),
    },
  };
}

/**
 * The port scan: a TCP connect to nmap's most common ports (100 for the free scan, 1000 for paid
 * audits) on the target's first address, then banners from the open ones. Non-intrusive: one
 * connection per port, one HEAD at most, nothing guessed.
 */
export const portsCheck: CheckDefinition = {
  name: 'ports',
  budgetMs: 25_000,
  needsAddress: true,
  passive: 'skipped',
  async run({ target, addresses, settings, net, signal }) {
    const address = addresses.find((a) => isIPv4(a)) ?? addresses[0]!;
    const servername = /^[\d.]+$|:/.test(target.host) ? undefined : target.host;
    const summary = await scanPorts(net.tcp, address, portsToScan(settings.topPorts ?? 100, settings.excludePorts), servername, signal);
    return analyzePorts(summary);
  },
};
