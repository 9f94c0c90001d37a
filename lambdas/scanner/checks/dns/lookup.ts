/**
 * Probe helpers over the scanner's DnsClient, shared by the dns, email and subdomains checks:
 * a query that reports failure as a value (one slow name must not sink a check), CNAME-aware
 * address resolution, and bounded concurrency.
 */
import { isIP } from 'node:net';
import type dnsPacket from 'dns-packet';
import type { DnsClient } from '../../net/dns-client.js';
import { type AnswerOf, normalizeName, ofType } from './records.js';

export type QueryOutcome =
  | { ok: true; rcode: string; answers: dnsPacket.Answer[]; authorities: dnsPacket.Answer[]; ad: boolean }
  | { ok: false; error: string };

/** A query whose failure (timeout, refusal, abort) is returned, not thrown. */
export async function tryQuery(
  dns: DnsClient,
  name: string,
  type: dnsPacket.RecordType,
  options: { dnssec?: boolean; checkingDisabled?: boolean; signal?: AbortSignal } = {},
): Promise<QueryOutcome> {
  try {
    const answer = await dns.query(name, type, options);
    return { ok: true, rcode: answer.rcode, answers: answer.answers, authorities: answer.authorities, ad: answer.ad };
  } catch (error) {
    const err = error as NodeJS.ErrnoException;
    return { ok: false, error: [err.code, err.message].filter(Boolean).join(': ') || String(error) };
  }
}

/** Answers of `type` owned by `name` (a response may also carry CNAMEs and RRSIGs for other owners). */
export function answersAt<T extends dnsPacket.Answer['type']>(outcome: QueryOutcome, type: T): AnswerOf<T>[] {
  return outcome.ok ? ofType(outcome.answers, type) : [];
}

export interface NameResolution {
  name: string;
  /** The rcode of the name's own A query (or the error that stopped it). */
  rcode: string;
  addresses: string[];
  /** The CNAME chain, first hop first. */
  cnames: string[];
  /** The rcode for the last name of the chain: NXDOMAIN there is what makes a CNAME dangle. */
  finalRcode: string;
  error?: string;
}

const MAX_CNAME_HOPS = 8;

/** Follows a CNAME chain through an answer, from `name`. */
function chainFrom(name: string, answers: readonly dnsPacket.Answer[]): string[] {
  const chain: string[] = [];
  let current = normalizeName(name);
  for (let hop = 0; hop < MAX_CNAME_HOPS; hop++) {
    const next = ofType(answers, 'CNAME').find((c) => normalizeName(c.name) === current);
    if (!next) break;
    current = normalizeName(next.data);
    if (chain.includes(current)) break;
    chain.push(current);
  }
  return chain;
}

/**
 * A name's IPv4 and IPv6 addresses and CNAME chain. AAAA is asked only when the name exists.
 * When an authoritative-only server stops at a CNAME into another zone, the chain's target is
 * asked about directly, so a dangling target is seen as NXDOMAIN rather than as "no data".
 */
export async function resolveName(dns: DnsClient, name: string, signal?: AbortSignal): Promise<NameResolution> {
  const literal = name.replace(/^\[|\]$/g, '');
  if (isIP(literal)) return { name, rcode: 'NOERROR', addresses: [literal], cnames: [], finalRcode: 'NOERROR' };
  const a = await tryQuery(dns, name, 'A', { signal });
  if (!a.ok) return { name, rcode: 'ERROR', addresses: [], cnames: [], finalRcode: 'ERROR', error: a.error };
  const cnames = chainFrom(name, a.answers);
  const ipv4 = ofType(a.answers, 'A').map((r) => r.data);
  let ipv6: string[] = [];
  if (a.rcode === 'NOERROR') {
    const aaaa = await tryQuery(dns, name, 'AAAA', { signal });
    if (aaaa.ok) ipv6 = ofType(aaaa.answers, 'AAAA').map((r) => r.data);
  }
  const last = cnames.at(-1);
  if (last && ipv4.length === 0 && ipv6.length === 0 && a.rcode === 'NOERROR') {
    const target = await resolveName(dns, last, signal);
    return { name, rcode: a.rcode, addresses: target.addresses, cnames: [...cnames, ...target.cnames.filter((c) => !cnames.includes(c))], finalRcode: target.finalRcode, error: target.error };
  }
  return { name, rcode: a.rcode, addresses: [...new Set([...ipv4, ...ipv6])], cnames, finalRcode: a.rcode };
}

/** Runs `fn` over `items` with at most `limit` in flight, results in input order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** A random label no zone has, to tell a wildcard from real names. */
export function randomLabel(): string {
  return `rampart-${Math.random().toString(36).slice(2, 10)}${Date.now().toString(36).slice(-4)}`;
}

/** A semaphore: `run(task)` starts the task when fewer than `limit` are in flight. */
export function limiter(limit: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const queue: (() => void)[] = [];
  const release = () => {
    active--;
    queue.shift()?.();
  };
  return <T>(task: () => Promise<T>) =>
    new Promise<T>((resolve, reject) => {
      const start = () => {
        active++;
        task().then(resolve, reject).finally(release);
      };
      if (active < limit) start();
      else queue.push(start);
    });
}
