/**
 * One deep-scan port sweep of the range's firewalled host, in its own process (as nmap runs in
 * its own), for `bench/run.ts`: nmap's top 1000 ports less 2024, the site's port (80) first, as
 * the ports check runs it; then the banners of the open ports. Prints one JSON line:
 * `{ sweepSeconds, checkSeconds, open, closed, filtered, sweep }` (sweep = the sweep's own stats).
 *
 * It scans only that address, and only while the range's link to it is up (without the link the
 * address would route off the machine).
 */
import { portsToScan, scanPorts } from '../lambdas/scanner/checks/ports.check.js';
import { createTcpClient } from '../lambdas/scanner/net/tcp-client.js';
import { firewalledLinkUp } from '../test/range/firewalled-host.js';
import { rangeLayout } from '../test/range/layout.js';

const DEEP_SCAN_PORTS = 1000;

async function main(): Promise<number> {
  if (!(await firewalledLinkUp())) {
    console.error('port-sweep: the firewalled host is not up (npm run range:up); not scanning');
    return 1;
  }
  const tcp = createTcpClient({ allowPrivateTargets: true });
  const ports = portsToScan(DEEP_SCAN_PORTS, rangeLayout.excludePorts);
  const started = performance.now();
  const summary = await scanPorts(tcp, rangeLayout.firewalled.address, ports, undefined, AbortSignal.timeout(25_000), { first: [80] });
  const checkSeconds = (performance.now() - started) / 1000;
  console.log(
    JSON.stringify({
      sweepSeconds: summary.sweep.durationMs / 1000,
      checkSeconds,
      open: summary.open.map((p) => p.port),
      closed: summary.closed,
      filtered: summary.filtered,
      sweep: summary.sweep,
    }),
  );
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`port-sweep: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
