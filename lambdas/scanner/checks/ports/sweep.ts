/**
 * The adaptive port sweep: a TCP connect to each port, paced the way nmap paces a connect scan.
 *
 * - Timeouts come from the round-trip times the target shows (RFC 6298: SRTT + 4·RTTVAR, between a
 *   floor and a ceiling). An open port's handshake and a closed port's reset both measure one.
 * - A port that gives no answer is tried once more, with the learned timeout (a third time only
 *   after some port answered just its retry: then the path loses SYNs, and nmap retries more too).
 * - The number of connects in flight grows with answers and halves on loss (a silent port that
 *   answers its retry; silence from a host that answers nearly everything; a local socket shortage).
 *   Silence on its own is not loss: a firewall that drops 996 ports of 1,000 says nothing about
 *   congestion, and nmap does not slow down for it either.
 */
import type { PortState, TcpClient, TcpProbeResult } from '../../net/tcp-client.js';

export interface RttLimits {
  /** Before any answer (nmap's --initial-rtt-timeout). */
  initialMs: number;
  /** Never wait less (nmap's --min-rtt-timeout). */
  floorMs: number;
  /** Never wait more (a path this slow is not worth more of the check's budget). */
  ceilingMs: number;
}

export const DEFAULT_RTT_LIMITS: RttLimits = { initialMs: 1000, floorMs: 100, ceilingMs: 3000 };

/** Smoothed round-trip time and its variation (RFC 6298 §2, as nmap's adjust_timeouts2). */
export class RttEstimator {
  private srtt: number | undefined;
  private rttvar = 0;

  constructor(private readonly limits: RttLimits = DEFAULT_RTT_LIMITS) {}

  /** One measured round trip, in milliseconds. */
  sample(ms: number): void {
    const rtt = Math.max(0, ms);
    if (this.srtt === undefined) {
      this.srtt = rtt;
      this.rttvar = rtt / 2;
      return;
    }
    const delta = rtt - this.srtt;
    this.srtt += delta / 8;
    this.rttvar += (Math.abs(delta) - this.rttvar) / 4;
  }

  get smoothedMs(): number | undefined {
    return this.srtt;
  }

  /** How long to wait for an answer now: SRTT + 4·RTTVAR, boxed; the initial value until a sample. */
  get timeoutMs(): number {
    if (this.srtt === undefined) return this.limits.initialMs;
    return Math.min(this.limits.ceilingMs, Math.max(this.limits.floorMs, this.srtt + 4 * this.rttvar));
  }
}

export interface WindowLimits {
  initial: number;
  min: number;
  max: number;
}

/** 128 is what the fixed sweep ran with; 256 in flight stays far below a Lambda's 1,024 descriptors. */
export const DEFAULT_WINDOW_LIMITS: WindowLimits = { initial: 128, min: 8, max: 256 };

/**
 * How many connects may be in flight: TCP-style congestion control. Slow start (+1 per answer) up
 * to the threshold, then +1/window per answer; a loss halves it, once per batch (a loss among
 * probes sent before the last decrease belongs to the batch that already caused it).
 */
export class ProbeWindow {
  private size: number;
  private threshold: number;
  private lastDecreaseAt = Number.NEGATIVE_INFINITY;
  /** The largest the window became. */
  peak: number;
  decreases = 0;

  constructor(private readonly limits: WindowLimits = DEFAULT_WINDOW_LIMITS) {
    this.size = limits.initial;
    this.threshold = limits.max;
    this.peak = limits.initial;
  }

  get limit(): number {
    return Math.floor(this.size);
  }

  answered(): void {
    this.size = Math.min(this.limits.max, this.size + (this.size < this.threshold ? 1 : 1 / this.size));
    this.peak = Math.max(this.peak, this.limit);
  }

  /** A probe sent at `sentAt` was lost, seen at `now`. */
  lost(sentAt: number, now: number): void {
    if (sentAt <= this.lastDecreaseAt) return;
    this.size = Math.max(this.limits.min, this.size / 2);
    this.threshold = Math.max(this.limits.min, this.size);
    this.lastDecreaseAt = now;
    this.decreases++;
  }
}

export interface SweepOptions {
  /** Ports to try first (the site's own web port: it answers, so the timeouts are learned at once). */
  first?: readonly number[];
  rtt?: Partial<RttLimits>;
  window?: Partial<WindowLimits>;
}

export interface SweepStats {
  durationMs: number;
  /** Connects made, retries included. */
  connects: number;
  /** Ports tried a second (or third) time after a silence. */
  retried: number;
  /** Smoothed RTT and the timeout the sweep ended with (ms); no RTT when nothing answered. */
  rttMs?: number;
  timeoutMs: number;
  /** Losses that shrank the window, and the window's range. */
  losses: number;
  window: { initial: number; peak: number; final: number };
}

export interface PortSweep {
  /** Each port that got a result, in the order given (ports left when the signal aborted are absent). */
  states: Map<number, PortState>;
  stats: SweepStats;
}

/** Errors that mean this machine ran short (descriptors, buffers, source ports), not that the host said anything. */
const LOCAL_ERRORS = new Set(['EMFILE', 'ENFILE', 'ENOBUFS', 'ENOMEM', 'EADDRNOTAVAIL', 'EAGAIN']);
/** ICMP errors for a port: an answer (from the host or a router on the way), and it means filtered. */
const UNREACHABLE = new Set(['EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'ENETDOWN', 'EACCES', 'EPERM']);
/** Answers to most probes make a silence suspicious: above this share (recent answers), a timeout is a loss. */
const ANSWERING_HOST = 0.5;
const ANSWER_SMOOTHING = 1 / 16;
/** Connects opened in one turn of the event loop, at most (opening one costs this process a fraction of a millisecond). */
const BURST = 16;
/** A first try and two retries at most (nmap allows up to ten; a scan has a budget). */
const MAX_ATTEMPTS = 3;

interface InFlight {
  port: number;
  attempt: number;
  sentAt: number;
  controller: AbortController;
  settled: boolean;
}

/**
 * Connects to each port of `address` and says open (handshake), closed (reset) or filtered (no
 * answer, twice). Resolves early, with what it has, when `signal` aborts; rejects when the client
 * refuses the address.
 */
export function sweepPorts(tcp: TcpClient, address: string, ports: readonly number[], signal: AbortSignal, options: SweepOptions = {}): Promise<PortSweep> {
  const rtt = new RttEstimator({ ...DEFAULT_RTT_LIMITS, ...options.rtt });
  const windowLimits = { ...DEFAULT_WINDOW_LIMITS, ...options.window };
  const window = new ProbeWindow(windowLimits);
  const firstSet = new Set((options.first ?? []).filter((port) => ports.includes(port)));
  const fresh = [...firstSet, ...ports.filter((port) => !firstSet.has(port))];
  const states = new Map<number, PortState>();
  const attempts = new Map<number, number>();
  const retries: number[] = [];
  const inFlight = new Map<InFlight, true>();
  const started = performance.now();
  // A backstop only: the sweep ends each connect itself when its learned timeout passes.
  const connectTimeoutMs = { ...DEFAULT_RTT_LIMITS, ...options.rtt }.ceilingMs + 1000;
  let next = 0;
  let connects = 0;
  let retried = 0;
  let losses = 0;
  let answerShare = 0;
  let mostAttemptsAnswered = 1;
  let timer: NodeJS.Timeout | undefined;
  let expiring = false;
  let pumpQueued = false;
  const seeds = fresh.length > 0 ? firstSet.size : 0;
  let seeding = seeds > 0;
  let failed = false;

  return new Promise<PortSweep>((resolve, reject) => {
    const finishIfDone = () => {
      if (inFlight.size > 0 || failed) return;
      if (!signal.aborted && (retries.length > 0 || next < fresh.length)) return;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      const ordered = new Map(ports.filter((port) => states.has(port)).map((port) => [port, states.get(port)!] as const));
      const smoothed = rtt.smoothedMs;
      resolve({
        states: ordered,
        stats: {
          durationMs: Math.round(performance.now() - started),
          connects,
          retried,
          ...(smoothed === undefined ? {} : { rttMs: Math.round(smoothed * 10) / 10 }),
          timeoutMs: Math.round(rtt.timeoutMs),
          losses,
          window: { initial: windowLimits.initial, peak: window.peak, final: window.limit },
        },
      });
    };

    const onAbort = () => {
      for (const probe of inFlight.keys()) probe.controller.abort();
      finishIfDone();
    };
    signal.addEventListener('abort', onAbort, { once: true });

    const lose = (probe: InFlight, now: number) => {
      losses++;
      window.lost(probe.sentAt, now);
    };

    /** nmap's retry cap: one try more than the most any port needed to answer (one retry at first), at most MAX_ATTEMPTS. */
    const maxAttempts = () => Math.min(MAX_ATTEMPTS, mostAttemptsAnswered + 1);

    const silence = (probe: InFlight) => {
      if (states.get(probe.port) === 'open') return;
      if (probe.attempt < maxAttempts()) {
        retries.push(probe.port);
        retried += probe.attempt === 1 ? 1 : 0;
      } else {
        states.set(probe.port, 'filtered');
      }
    };

    const onResult = (probe: InFlight, result: TcpProbeResult) => {
      const now = performance.now();
      if (probe.settled) {
        // Answered just as its time ran out: an open port is open, however late.
        if (result.state === 'open') states.set(probe.port, 'open');
        return;
      }
      probe.settled = true;
      inFlight.delete(probe);
      seeding = false;
      const answered = result.state !== 'filtered' || (result.error !== undefined && UNREACHABLE.has(result.error));
      if (answered) {
        rtt.sample(now - probe.sentAt);
        window.answered();
        answerShare += (1 - answerShare) * ANSWER_SMOOTHING;
        // nmap's drop rule: an answer to a retry means the first try was lost on the way.
        if (probe.attempt > 1) lose(probe, now);
        mostAttemptsAnswered = Math.max(mostAttemptsAnswered, probe.attempt);
        if (states.get(probe.port) !== 'open') states.set(probe.port, result.state);
      } else if (result.error !== undefined && LOCAL_ERRORS.has(result.error)) {
        lose(probe, now);
        silence(probe);
      } else {
        // Aborted by the scan's own signal, or the backstop: silence, no RTT learned.
        silence(probe);
      }
      pump();
    };

    const expire = (probe: InFlight, now: number) => {
      probe.settled = true;
      inFlight.delete(probe);
      seeding = false;
      if (answerShare > ANSWERING_HOST) lose(probe, now);
      answerShare -= answerShare * ANSWER_SMOOTHING;
      silence(probe);
      probe.controller.abort();
    };

    const expireDue = () => {
      expiring = false;
      const now = performance.now();
      const timeout = rtt.timeoutMs;
      for (const probe of inFlight.keys()) {
        if (probe.sentAt + timeout > now) break; // in order of sending
        expire(probe, now);
      }
      pump();
    };

    const arm = () => {
      clearTimeout(timer);
      const oldest = inFlight.keys().next();
      if (oldest.done || expiring) return;
      const wait = Math.max(0, oldest.value.sentAt + rtt.timeoutMs - performance.now());
      timer = setTimeout(() => {
        // After the poll phase: answers that arrived while the event loop was busy count first.
        expiring = true;
        setImmediate(expireDue);
      }, wait);
    };

    const take = (): { port: number; attempt: number } | undefined => {
      while (retries.length > 0) {
        const port = retries.shift()!;
        if (states.get(port) === 'open') continue;
        return { port, attempt: (attempts.get(port) ?? 1) + 1 };
      }
      if (next < fresh.length) return { port: fresh[next++]!, attempt: 1 };
      return undefined;
    };

    const pump = () => {
      pumpQueued = false;
      // Until the first answer (or timeout) only the seed ports go out: their RTT is the host's
      // alone, not the host's plus the time this process takes to open a hundred sockets.
      const limit = seeding ? Math.min(window.limit, seeds) : window.limit;
      let burst = 0;
      while (!signal.aborted && !failed && inFlight.size < limit) {
        if (burst === BURST) {
          // The rest after the event loop has read what arrived meanwhile (fair RTTs, timely expiry).
          if (!pumpQueued) setImmediate(pump);
          pumpQueued = true;
          break;
        }
        const work = take();
        if (!work) break;
        burst++;
        attempts.set(work.port, work.attempt);
        const probe: InFlight = { port: work.port, attempt: work.attempt, sentAt: performance.now(), controller: new AbortController(), settled: false };
        inFlight.set(probe, true);
        connects++;
        tcp.probe(address, work.port, { timeoutMs: connectTimeoutMs, signal: probe.controller.signal }).then(
          (result) => onResult(probe, result),
          (error: unknown) => {
            if (failed) return;
            failed = true;
            clearTimeout(timer);
            for (const other of inFlight.keys()) other.controller.abort();
            signal.removeEventListener('abort', onAbort);
            reject(error);
          },
        );
      }
      arm();
      finishIfDone();
    };

    if (signal.aborted) return finishIfDone();
    pump();
  });
}
