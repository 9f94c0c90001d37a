import { describe, expect, it } from 'vitest';
import { ProbeWindow, RttEstimator, sweepPorts } from '../../../lambdas/scanner/checks/ports/sweep.js';
import { portsToScan } from '../../../lambdas/scanner/checks/ports.check.js';
import type { TcpClient, TcpProbeResult } from '../../../lambdas/scanner/net/tcp-client.js';

/** Floors low enough for a simulated host on timers; the shape of the sweep is the same. */
const FAST = { rtt: { initialMs: 300, floorMs: 25, ceilingMs: 500 } };

interface SimulatedHost {
  /** Ports with a listener (handshake after `rttMs`). */
  open: readonly number[];
  /** Ports a firewall drops (no answer ever); every other port answers with a reset. */
  filtered?: (port: number) => boolean;
  rttMs: number;
  /** True to lose this SYN (the nth to this port, from 1) on the way. */
  lose?: (port: number, nth: number, arrivingAt: number) => boolean;
}

/** A TcpClient over a simulated host, recording every connect. */
function simulate(host: SimulatedHost): TcpClient & { connects: number[] } {
  const tries = new Map<number, number>();
  const connects: number[] = [];
  return {
    connects,
    probe(_address, port, { signal }) {
      connects.push(port);
      const nth = (tries.get(port) ?? 0) + 1;
      tries.set(port, nth);
      const silent = host.filtered?.(port) || host.lose?.(port, nth, connects.length) === true;
      return new Promise<TcpProbeResult>((resolve) => {
        const timer = silent ? undefined : setTimeout(() => resolve({ port, state: host.open.includes(port) ? 'open' : 'closed' }), host.rttMs);
        signal?.addEventListener('abort', () => {
          clearTimeout(timer);
          resolve({ port, state: 'filtered' });
        }, { once: true });
      });
    },
  };
}

describe('RTT estimator (RFC 6298)', () => {
  it('waits the initial timeout before any answer, then SRTT + 4·RTTVAR from the first answer on', () => {
    // Prepare
    const rtt = new RttEstimator({ initialMs: 1000, floorMs: 100, ceilingMs: 3000 });

    // Act
    const before = rtt.timeoutMs;
    rtt.sample(200);
    const afterOne = rtt.timeoutMs;
    rtt.sample(100);

    // Assess: 200 + 4·100; then SRTT 200 − 100/8, RTTVAR ¾·100 + ¼·|200 − 100|
    expect(before).toBe(1000);
    expect(afterOne).toBe(600);
    expect(rtt.smoothedMs).toBe(187.5);
    expect(rtt.timeoutMs).toBe(187.5 + 4 * 100);
  });

  it('never waits less than the floor nor more than the ceiling', () => {
    // Prepare
    const fast = new RttEstimator({ initialMs: 1000, floorMs: 100, ceilingMs: 3000 });
    const slow = new RttEstimator({ initialMs: 1000, floorMs: 100, ceilingMs: 3000 });

    // Act
    fast.sample(0.2);
    slow.sample(2500);

    // Assess
    expect(fast.timeoutMs).toBe(100);
    expect(slow.timeoutMs).toBe(3000);
  });
});

describe('probe window', () => {
  it('grows by one per answer, halves on a loss once per batch, and stays within its bounds', () => {
    // Prepare
    const window = new ProbeWindow({ initial: 10, min: 4, max: 14 });

    // Act
    for (let i = 0; i < 3; i++) window.answered();
    const grown = window.limit;
    window.lost(100, 200);
    const halved = window.limit;
    window.lost(150, 210); // sent before the decrease at 200: same batch
    const sameBatch = window.limit;
    window.lost(250, 300);
    window.lost(350, 400);
    const floored = window.limit;
    for (let i = 0; i < 100; i++) window.answered();

    // Assess
    expect([grown, halved, sameBatch, floored]).toEqual([13, 6, 6, 4]);
    expect(window.limit).toBe(14);
    expect(window.decreases).toBe(3);
  });
});

describe('adaptive sweep', () => {
  const signal = () => new AbortController().signal;

  it('finds every open port of a firewalled host that lost the first SYN to one of them, then gives silent ports a third try', async () => {
    // Prepare: nmap's top 1000; 22, 80, 443 open, the rest dropped; the first SYN to 22 is lost.
    const ports = portsToScan(1000, [2024]);
    const host = simulate({ open: [22, 80, 443], filtered: (port) => ![22, 80, 443].includes(port), rttMs: 2, lose: (port, nth) => port === 22 && nth === 1 });

    // Act
    const { states, stats } = await sweepPorts(host, '203.0.113.7', ports, signal(), { ...FAST, first: [443, 2024] });

    // Assess
    const open = [...states].filter(([, state]) => state === 'open').map(([port]) => port);
    expect(open.sort((a, b) => a - b)).toEqual([22, 80, 443]);
    expect(states.size).toBe(1000);
    expect([...states.values()].filter((state) => state === 'filtered')).toHaveLength(997);
    expect(host.connects[0]).toBe(443);
    expect(host.connects).not.toContain(2024); // a first port outside the list is not added to it
    expect(host.connects.filter((port) => port === 22)).toHaveLength(2);
    expect(host.connects.filter((port) => port === 80)).toHaveLength(1);
    // 22 answered only its retry: a lost SYN, so (as nmap) a silent port now gets a third try.
    expect(host.connects.filter((port) => port === 8080)).toHaveLength(3);
    expect(stats.losses).toBe(1);
    expect(stats.retried).toBe(998);
    expect(stats.timeoutMs).toBeLessThan(FAST.rtt.initialMs);
  });

  it("sends the site's own port alone first, so the first RTT is the host's and not the time to open a wave of sockets", async () => {
    // Prepare
    const host = simulate({ open: [443], filtered: (port) => port !== 443, rttMs: 30 });
    const sentAt: number[] = [];
    const timed: TcpClient = { probe: (address, port, options) => (sentAt.push(performance.now()), host.probe(address, port, options)) };

    // Act
    const { stats } = await sweepPorts(timed, '203.0.113.7', portsToScan(100), signal(), { ...FAST, first: [443] });

    // Assess
    expect(host.connects[0]).toBe(443);
    expect(sentAt[1]! - sentAt[0]!).toBeGreaterThanOrEqual(25);
    expect(stats.rttMs).toBeGreaterThanOrEqual(29);
  });

  it('tries a silent port only twice when nothing was lost, and learns its timeout from the answers', async () => {
    // Prepare
    const ports = portsToScan(100);
    const host = simulate({ open: [80, 443], filtered: (port) => ![80, 443].includes(port), rttMs: 40 });

    // Act
    const { states, stats } = await sweepPorts(host, '203.0.113.7', ports, signal(), FAST);

    // Assess: timeout ≈ 40 + 4·20 = 120 ms from the first answer (not the initial 300 ms), twice.
    expect([...states].filter(([, s]) => s === 'open').map(([p]) => p)).toEqual([80, 443]);
    expect(host.connects).toHaveLength(2 + 98 * 2);
    expect(stats.losses).toBe(0);
    expect(stats.timeoutMs).toBeGreaterThan(40);
    expect(stats.timeoutMs).toBeLessThan(FAST.rtt.initialMs);
  });

  it('grows its window on a host that answers every port, and retries nothing', async () => {
    // Prepare
    const ports = portsToScan(1000);
    const host = simulate({ open: [22], rttMs: 1 });

    // Act
    const { states, stats } = await sweepPorts(host, '203.0.113.7', ports, signal(), { ...FAST, window: { initial: 16, min: 4, max: 200 } });

    // Assess
    expect([...states.values()].filter((s) => s === 'closed')).toHaveLength(999);
    expect(states.get(22)).toBe('open');
    expect(host.connects).toHaveLength(1000);
    expect(stats.window).toEqual({ initial: 16, peak: 200, final: 200 });
    expect(stats.retried).toBe(0);
  });

  it('shrinks its window on a host that drops bursts, and still finds every open port', async () => {
    // Prepare: a SYN backlog of 24: a SYN arriving while 24 others are being answered is dropped.
    const open = [21, 22, 25, 80, 110, 143, 443, 3306, 8080, 8443];
    let answering = 0;
    const host = simulate({
      open,
      rttMs: 5,
      lose: () => {
        if (answering >= 24) return true;
        answering++;
        setTimeout(() => answering--, 5);
        return false;
      },
    });

    // Act
    const { states, stats } = await sweepPorts(host, '203.0.113.7', portsToScan(300), signal(), { ...FAST, window: { initial: 128, min: 4, max: 256 } });

    // Assess
    expect([...states].filter(([, s]) => s === 'open').map(([p]) => p).sort((a, b) => a - b)).toEqual([...open].sort((a, b) => a - b));
    expect([...states.values()].filter((s) => s === 'filtered')).toEqual([]);
    expect(stats.losses).toBeGreaterThan(0);
    expect(stats.window.final).toBeLessThan(128);
  });

  it('stops when its signal aborts and returns what it had', async () => {
    // Prepare
    const controller = new AbortController();
    const host = simulate({ open: [80], filtered: (port) => port !== 80, rttMs: 1 });
    setTimeout(() => controller.abort(), 60);

    // Act
    const started = performance.now();
    const { states } = await sweepPorts(host, '203.0.113.7', portsToScan(1000), controller.signal, { ...FAST, window: { initial: 8, min: 8, max: 8 } });

    // Assess
    expect(performance.now() - started).toBeLessThan(200);
    expect(states.get(80)).toBe('open');
    expect(states.size).toBeLessThan(1000);
  });

  it('rejects when the client refuses the address, without connecting further', async () => {
    // Prepare
    const refusing: TcpClient = { probe: () => Promise.reject(Object.assign(new Error('not public'), { code: 'target_not_allowed' })) };

    // Act + Assess
    await expect(sweepPorts(refusing, '10.0.0.1', portsToScan(100), signal(), FAST)).rejects.toMatchObject({ code: 'target_not_allowed' });
  });
});
