/**
 * The range's firewalled, lossy host (layout.ts `rangeLayout.firewalled`): a network namespace
 * whose nftables drop every TCP port but three and 2% of all packets. First that the host is what
 * it claims (plain sockets, the rules in effect), then that Rampart's adaptive sweep finds exactly
 * its open ports, every time, and calls the firewall filtering.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { portsCheck, portsToScan, scanPorts } from '../../lambdas/scanner/checks/ports.check.js';
import { createTcpClient } from '../../lambdas/scanner/net/tcp-client.js';
import { scanRangeHost } from './engine.js';
import { firewalledLinkUp, listFirewall, namespaceVisible } from './firewalled-host.js';
import { firewalledOpenPorts, rangeLayout } from './layout.js';
import { assertRangeUp, tcpOpen, tcpSilent } from './range.js';

const host = rangeLayout.firewalled;
const OPEN = firewalledOpenPorts();

interface PortsData {
  scanned: number;
  closed: number;
  filtered: number;
  firewall: string;
  open: { port: number; service: string; product?: string; tls?: boolean }[];
  sweep: { retried: number; timeoutMs: number };
}

beforeAll(async () => {
  await assertRangeUp();
  // Without its link the host's address would route off the machine: never scan it then.
  expect(await firewalledLinkUp()).toBe(true);
});

describe(`the firewalled host (${host.address}, network namespace ${host.netns})`, () => {
  it.each(OPEN)('accepts connections on %i through the firewall', async (port) => {
    // Act: 3 s covers one lost SYN and the kernel's retransmission a second later.
    const open = await tcpOpen(host.address, port, 3_000);

    // Assess
    expect(open).toBe(true);
  });

  it.each([host.droppedPort, 23, 3306])('drops, not refuses, port %i', async (port) => {
    // Act
    const silent = await tcpSilent(host.address, port, 600);

    // Assess
    expect(silent).toBe(true);
  });

  it('runs the planted rules: policy drop, only the open ports accepted, 2% of packets dropped at random', async () => {
    // Prepare: ip netns names live in the mount namespace that made them (the range's bring-up).
    expect(await namespaceVisible()).toBe(true);

    // Act
    const rules = await listFirewall();

    // Assess
    expect(rules).toContain('policy drop;');
    expect(rules).toContain(`numgen random mod 100 < ${host.lossPercent} drop`);
    expect(rules).toContain(`tcp dport { ${OPEN.join(', ')} } accept`);
  });
});

describe("Rampart's adaptive sweep on the firewalled host", () => {
  it('deep scan: the ports check finds exactly the open ports, names them, and reports the firewall as filtering', async () => {
    // Act
    const report = await scanRangeHost(`http://${host.address}`, { checks: [portsCheck] });

    // Assess
    const check = report.checks.find((c) => c.name === 'ports')!;
    const data = check.data as unknown as PortsData;
    expect(check.status).toBe('ok');
    expect(data.open.map(({ port, service, product, tls }) => ({ port, service, product, tls }))).toEqual([
      { port: 22, service: 'ssh', product: 'OpenSSH', tls: undefined },
      { port: 80, service: 'http', product: 'nginx', tls: undefined },
      { port: 443, service: 'https', product: 'nginx', tls: true },
    ]);
    expect([data.scanned, data.closed, data.filtered]).toEqual([1000, 0, 1000 - OPEN.length]);
    expect(data.firewall).toBe('filtering');
    expect(report.findings.map((f) => f.id)).not.toContain('ports.firewall.none');
    // Each silent port was asked twice, with a timeout learned from the host (not the initial 1 s).
    expect(data.sweep.retried).toBeGreaterThanOrEqual(1000 - OPEN.length);
    expect(data.sweep.timeoutMs).toBeLessThan(1000);
  });

  it('finds the same open ports in three sweeps in a row, despite the 2% loss', async () => {
    // Prepare
    const tcp = createTcpClient({ allowPrivateTargets: true });
    const ports = portsToScan(1000, rangeLayout.excludePorts);

    // Act
    const found: number[][] = [];
    for (let run = 0; run < 3; run++) {
      const summary = await scanPorts(tcp, host.address, ports, undefined, AbortSignal.timeout(25_000), { first: [80] });
      found.push(summary.open.map((p) => p.port));
      expect(summary.closed).toBe(0);
    }

    // Assess
    expect(found).toEqual([OPEN, OPEN, OPEN]);
  });

  it('free scan (top 100): the same open ports, every other port filtered', async () => {
    // Act
    const report = await scanRangeHost(`http://${host.address}`, { checks: [portsCheck] }, { topPorts: 100 });

    // Assess
    const data = report.checks.find((c) => c.name === 'ports')!.data as unknown as PortsData;
    expect(data.open.map((p) => p.port)).toEqual(OPEN);
    expect([data.scanned, data.closed, data.filtered, data.firewall]).toEqual([100, 0, 100 - OPEN.length, 'filtering']);
  });
});
