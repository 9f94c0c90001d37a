/**
 * The scanner is polite to the sites it scans: however many checks ask at once, one site (by host)
 * gets at most `maxInFlight` requests in flight and at most `perSecond` started in any one-second
 * window (a sliding window over the last second's starts). README "What the scanner does to your site" and the public
 * /scanner page state these numbers; they come from here.
 *
 * DECISIONS "Blocked is a result": a site that answers 429 (or 503) with `Retry-After` is waited
 * out once per scan — every request to it holds until then, and the ones that got the 429 are asked
 * once more — when the wait ends before `retryAfterUntil` (the scan's deadline less the time the
 * checks still need). Past that, or the second time, the 429 is the answer: the check that got it
 * reports "not checked" (rate_limited), never "not exposed".
 */
import { retryAfterSeconds } from '../site-access/block.js';
import type { HttpClient, HttpResponse } from './http-client.js';

export interface Politeness {
  maxInFlight: number;
  perSecond: number;
}

/**
 * Per site: 4 requests in flight, 20 started a second at most. Below what shared hosts' flood guards
 * act on (Apache's mod_evasive blocks a client past 50 requests a second to one site by default),
 * so the scan itself never trips the rate limit it would then have to report; a full scan's ~75
 * page requests take about 4 s at this pace, well inside its 40 s deadline.
 */
export const SCANNER_POLITENESS: Politeness = { maxInFlight: 4, perSecond: 20 };

export interface PoliteOptions {
  politeness?: Politeness;
  /** performance.now() past which no Retry-After is waited for (undefined: never wait). */
  retryAfterUntil?: number;
  now?: () => number;
}

interface HostGate {
  /** The one Retry-After wait of this host: until when requests hold (undefined: not used yet). */
  pausedUntil?: number;
  inFlight: number;
  /** When the requests of the last second started (oldest first). */
  started: number[];
  waiting: (() => void)[];
  timer?: NodeJS.Timeout;
}

/** Wraps an HTTP client so that each host it reaches is asked no faster than `politeness` allows. */
export function politeHttp(client: HttpClient, options: PoliteOptions = {}): HttpClient {
  const politeness = options.politeness ?? SCANNER_POLITENESS;
  const now = options.now ?? (() => performance.now());
  const gates = new Map<string, HostGate>();

  const gateOf = (host: string): HostGate => {
    let gate = gates.get(host);
    if (!gate) {
      gate = { inFlight: 0, started: [], waiting: [] };
      gates.set(host, gate);
    }
    return gate;
  };

  /** Lets waiting requests go while a slot is free and the last second has room; else wakes up when it will. */
  const pump = (gate: HostGate) => {
    const paused = (gate.pausedUntil ?? 0) - now();
    if (paused > 0) {
      if (!gate.timer && gate.waiting.length > 0) {
        gate.timer = setTimeout(() => {
          gate.timer = undefined;
          pump(gate);
        }, Math.ceil(paused));
        gate.timer.unref?.();
      }
      return;
    }
    const at = now();
    while (gate.started.length > 0 && gate.started[0]! <= at - 1000) gate.started.shift();
    while (gate.waiting.length > 0 && gate.inFlight < politeness.maxInFlight && gate.started.length < politeness.perSecond) {
      gate.started.push(at);
      gate.inFlight += 1;
      gate.waiting.shift()!();
    }
    if (gate.waiting.length > 0 && gate.inFlight < politeness.maxInFlight && !gate.timer) {
      // The next start is allowed once the oldest of the last second's starts is a second old.
      const dueMs = gate.started[0]! + 1000 - at;
      gate.timer = setTimeout(() => {
        gate.timer = undefined;
        pump(gate);
      }, Math.max(1, dueMs));
      gate.timer.unref?.();
    }
  };

  /** Waits for a slot and a token of the host's gate (or until the signal aborts). */
  const admitted = (gate: HostGate, signal: AbortSignal | undefined) =>
    new Promise<void>((resolve, reject) => {
        const go = () => {
          signal?.removeEventListener('abort', abandon);
          resolve();
        };
        const abandon = () => {
          const index = gate.waiting.indexOf(go);
          if (index >= 0) gate.waiting.splice(index, 1);
          reject(signal?.reason instanceof Error ? signal.reason : new Error('The request was abandoned before it was sent'));
        };
        if (signal?.aborted) return abandon();
        signal?.addEventListener('abort', abandon, { once: true });
        gate.waiting.push(go);
        pump(gate);
      });

  const send = async (gate: HostGate, url: string, requestOptions: Parameters<HttpClient['request']>[1]): Promise<HttpResponse> => {
    await admitted(gate, requestOptions?.signal);
    try {
      return await client.request(url, requestOptions);
    } finally {
      gate.inFlight -= 1;
      pump(gate);
    }
  };

  /** Whether this 429/503 is waited out: the host's one wait, taken now or already under way, ending in time. */
  const waitsOut = (gate: HostGate, response: HttpResponse): boolean => {
    if (response.status !== 429 && response.status !== 503) return false;
    if (gate.pausedUntil !== undefined) return gate.pausedUntil > now();
    const seconds = retryAfterSeconds(response.headers);
    if (seconds === undefined || options.retryAfterUntil === undefined) return false;
    const until = now() + seconds * 1000;
    if (until > options.retryAfterUntil) return false;
    gate.pausedUntil = until;
    return true;
  };

  return {
    async request(url, requestOptions = {}) {
      const gate = gateOf(new URL(url).host.toLowerCase());
      const response = await send(gate, url, requestOptions);
      return waitsOut(gate, response) ? send(gate, url, requestOptions) : response;
    },
  };
}
