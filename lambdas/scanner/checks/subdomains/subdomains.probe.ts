/**
 * Probe for the subdomains check: candidate names from the zone transfer (reusing the dns
 * check's when it ran), certificate transparency and a wordlist; each resolved through the
 * scanner's resolver (CNAME chains included), wildcard answers set aside, every address that
 * passes the guard tried on 443 then 80 to measure which subdomains answer, and (active scans) the
 * page of each name whose CNAME leads into a takeover-prone service that shows a deleted resource in
 * the page itself (its fingerprint, ./fingerprints.ts).
 */
import { isIP } from 'node:net';
import { getDomain } from 'tldts';
import type { CheckResult } from '../../../domain/audit.js';
import type { DnsClient, DnsServer } from '../../net/dns-client.js';
import type { HttpClient } from '../../net/http-client.js';
import type { TcpClient } from '../../net/tcp-client.js';
import { refusedAddress } from '../../target-guard.js';
import { answersAt, limiter, mapLimit, type NameResolution, randomLabel, resolveName, tryQuery } from '../dns/lookup.js';
import { normalizeName } from '../dns/records.js';
import { nameServerPort, summarizeTransfer } from '../dns/zone.probe.js';
import { ctQueryUrl, parseCtNames } from './ct.js';
import { hasPageSign, serviceOfChain, serviceOfName } from './fingerprints.js';
import { SUBDOMAIN_WORDLIST } from './wordlist.js';

export type SubdomainSource = 'axfr' | 'ct' | 'wordlist';

export interface SubdomainEntry {
  name: string;
  addresses: string[];
  cnames: string[];
  finalRcode: string;
  /** The rcode of the CNAME target's registrable domain, asked only for chains that end in NXDOMAIN. */
  targetDomainRcode?: string;
  sources: SubdomainSource[];
  /** A TCP connection to 443 or 80 succeeded on one of its public addresses. */
  answers: boolean;
  answeredOn?: number;
  /** The name's own page (active scans), fetched when its service shows a deleted resource in the page: for the takeover analysis, not the report. */
  page?: { url: string; status: number; body: string };
}

export type CtStatus = 'not-configured' | 'unreachable' | 'ok';

export interface SubdomainsSnapshot {
  domain: string;
  /** Names that exist: they resolve to an address or are a CNAME. */
  entries: SubdomainEntry[];
  ct: { status: CtStatus; count: number; error?: string };
  axfr: { from: 'dns-check' | 'own-transfer' | 'none'; count: number };
  wildcard: { addresses: string[]; cnames: string[] };
  /** Candidate names resolved. */
  tried: number;
  errors: string[];
}

export interface SubdomainsProbeInput {
  dns: DnsClient;
  tcp: TcpClient;
  http: HttpClient;
  domain: string;
  resolvers: readonly DnsServer[];
  allowPrivateTargets: boolean;
  excludePorts: readonly number[];
  certificateTransparencyUrl?: string;
  /** A passive scan (DECISIONS "Scan modes"): certificate-transparency names only, resolved; no wordlist guessing, zone transfer or connections to the names. */
  passive?: boolean;
  /** The dns check's result, whose zone transfer this check reuses; undefined when it did not run. */
  dnsResult: Promise<CheckResult | undefined>;
  signal?: AbortSignal;
}

const RESOLVE_CONCURRENCY = 20;
const PROBE_CONCURRENCY = 20;
/** CT logs list thousands of names for big domains; the freshest few hundred are enough for a scan. */
const MAX_CT_NAMES = 300;
const MAX_CANDIDATES = 500;
const CT_TIMEOUT_MS = 6_000;
const CT_MAX_BODY_BYTES = 8 * 1024 * 1024;
const ANSWER_PORTS = [443, 80];
const TCP_TIMEOUT_MS = 1_500;
/** Pages fetched for takeover fingerprints, at most, and at once; each answer's head is enough. */
const MAX_FINGERPRINT_PAGES = 20;
const PAGE_CONCURRENCY = 10;
const PAGE_TIMEOUT_MS = 2_500;
/** All the fingerprint pages together, so a slow service cannot take the check's budget. */
const PAGES_BUDGET_MS = 6_000;
const PAGE_MAX_BYTES = 64 * 1024;

export async function probeSubdomains(input: SubdomainsProbeInput): Promise<SubdomainsSnapshot> {
  const { dns, domain, signal } = input;
  const errors: string[] = [];
  const suffix = `.${domain}`;
  // Host names only: not the apex, not wildcards, not service labels (_dmarc, _tcp …).
  const isCandidate = (name: string) => name.endsWith(suffix) && !name.split('.').some((label) => label === '*' || label.startsWith('_'));

  // A resolver that does not answer the wildcard probe will not answer a hundred names either.
  const wildcard = await resolveName(dns, `${randomLabel()}.${domain}`, signal);
  if (wildcard.error) throw new Error(`The DNS server did not answer about ${domain}: ${wildcard.error}`);

  const sources = new Map<string, Set<SubdomainSource>>();
  const resolutions = new Map<string, Promise<NameResolution>>();
  const limit = limiter(RESOLVE_CONCURRENCY);
  // Each name is resolved as soon as it becomes a candidate: the wordlist does not wait for CT.
  const addCandidates = (names: readonly string[], source: SubdomainSource) => {
    for (const raw of names) {
      const name = normalizeName(raw);
      if (!isCandidate(name)) continue;
      if (!sources.has(name) && sources.size >= MAX_CANDIDATES) continue;
      (sources.get(name) ?? sources.set(name, new Set()).get(name)!).add(source);
      if (!resolutions.has(name)) resolutions.set(name, limit(() => resolveName(dns, name, signal)));
    }
  };

  if (!input.passive) {
    addCandidates(
      SUBDOMAIN_WORDLIST.map((word) => `${word}.${domain}`),
      'wordlist',
    );
  }
  const noTransfer = { from: 'none' as const, names: [] };
  const [axfr, ct] = await Promise.all([input.passive ? noTransfer : transferNames(input, errors), certificateTransparency(input)]);
  addCandidates(axfr.names, 'axfr');
  addCandidates(ct.names.slice(0, MAX_CT_NAMES), 'ct');

  const names = [...sources.keys()];
  const resolved = await Promise.all(names.map((name) => resolutions.get(name)!));
  for (const r of resolved) if (r.error) errors.push(`${r.name}: ${r.error}`);

  const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && [...a].sort().join() === [...b].sort().join();
  const wildcardHit = (addresses: string[], cnames: string[]) =>
    (wildcard.addresses.length > 0 || wildcard.cnames.length > 0) && sameSet(addresses, wildcard.addresses) && sameSet(cnames, wildcard.cnames);

  const existing = resolved.filter((r) => {
    if (r.addresses.length === 0 && r.cnames.length === 0) return false;
    // A wordlist guess that only matched the wildcard is not a real name.
    const from = sources.get(r.name)!;
    return !(from.size === 1 && from.has('wordlist') && wildcardHit(r.addresses, r.cnames));
  });

  // Dangling chains outside known services: is the target's own domain registered at all?
  const entries = await mapLimit(existing, RESOLVE_CONCURRENCY, async (r): Promise<SubdomainEntry> => {
    const entry: SubdomainEntry = {
      name: r.name,
      addresses: r.addresses,
      cnames: r.cnames,
      finalRcode: r.finalRcode,
      sources: (['axfr', 'ct', 'wordlist'] as const).filter((s) => sources.get(r.name)!.has(s)),
      answers: false,
    };
    const target = r.cnames.at(-1);
    if (target && r.finalRcode === 'NXDOMAIN' && !r.cnames.some((c) => serviceOfName(c))) {
      const registrable = getDomain(target) ?? target;
      const outcome = await tryQuery(dns, registrable, 'SOA', { signal });
      if (outcome.ok) entry.targetDomainRcode = outcome.rcode;
    }
    return entry;
  });

  if (!input.passive) await Promise.all([measureAnswers(input, entries), fetchFingerprintPages(input, entries)]);
  entries.sort((a, b) => a.name.localeCompare(b.name));
  return {
    domain,
    entries,
    ct: { status: ct.status, count: ct.names.length, ...(ct.error ? { error: ct.error } : {}) },
    axfr: { from: axfr.from, count: axfr.names.filter(isCandidate).length },
    wildcard: { addresses: wildcard.addresses, cnames: wildcard.cnames },
    tried: names.length,
    errors,
  };
}

/**
 * The page of each name that resolves into a takeover-prone service whose sign is in the page (its
 * "no such site" text or status): https first, then http; redirects not followed (a status can be the
 * sign). What a browser asking for that name would get; only in active scans (subdomain probing).
 */
async function fetchFingerprintPages(input: SubdomainsProbeInput, entries: SubdomainEntry[]): Promise<void> {
  const candidates = entries
    // Only names with an address the guard lets through, as for the answer measurement.
    .filter((entry) => entry.finalRcode !== 'NXDOMAIN' && entry.addresses.some((a) => !refusedAddress([a], input.allowPrivateTargets)))
    .filter((entry) => {
      const service = serviceOfChain(entry.cnames, entry.addresses);
      return service !== undefined && service.status !== 'not-vulnerable' && hasPageSign(service);
    })
    .slice(0, MAX_FINGERPRINT_PAGES);
  const stopAt = performance.now() + PAGES_BUDGET_MS;
  await mapLimit(candidates, PAGE_CONCURRENCY, async (entry) => {
    for (const [scheme, port] of [['https', 443], ['http', 80]] as const) {
      const left = stopAt - performance.now();
      if (input.signal?.aborted || left < 200) return;
      if (input.excludePorts.includes(port)) continue;
      const url = `${scheme}://${entry.name}/`;
      const response = await input.http
        .request(url, { timeoutMs: Math.min(PAGE_TIMEOUT_MS, left), maxBodyBytes: PAGE_MAX_BYTES, signal: input.signal, headers: { accept: 'text/html,*/*' } })
        .catch(() => undefined);
      if (response) {
        entry.page = { url, status: response.status, body: response.body };
        return;
      }
    }
  });
}

/** Names from the zone transfer: the dns check's when it ran, otherwise one transfer of our own. */
async function transferNames(input: SubdomainsProbeInput, errors: string[]): Promise<{ from: SubdomainsSnapshot['axfr']['from']; names: string[] }> {
  const dnsResult = await input.dnsResult;
  if (dnsResult) {
    const attempts = (dnsResult.data?.axfr ?? []) as { allowed?: unknown; names?: unknown }[];
    const names = attempts.flatMap((a) => (a.allowed === true && Array.isArray(a.names) ? a.names.filter((n): n is string => typeof n === 'string') : []));
    return { from: 'dns-check', names };
  }
  const { dns, domain, signal } = input;
  const ns = await tryQuery(dns, domain, 'NS', { signal });
  if (!ns.ok) {
    errors.push(`NS ${domain}: ${ns.error}`);
    return { from: 'none', names: [] };
  }
  const servers = answersAt(ns, 'NS').map((r) => normalizeName(r.data)).slice(0, 4);
  for (const server of servers) {
    const { addresses } = await resolveName(dns, server, signal);
    const address = addresses.find((a) => isIP(a) === 4) ?? addresses[0];
    if (!address || refusedAddress([address], input.allowPrivateTargets)) continue;
    const result = await dns.axfr(domain, { host: address, port: nameServerPort(address, input.resolvers) }, { signal }).catch(() => undefined);
    if (result?.allowed) return { from: 'own-transfer', names: summarizeTransfer(result.records).names };
  }
  return { from: 'own-transfer', names: [] };
}

async function certificateTransparency(input: SubdomainsProbeInput): Promise<{ status: CtStatus; names: string[]; error?: string }> {
  if (!input.certificateTransparencyUrl) return { status: 'not-configured', names: [] };
  try {
    const response = await input.http.request(ctQueryUrl(input.certificateTransparencyUrl, input.domain), {
      timeoutMs: CT_TIMEOUT_MS,
      maxBodyBytes: CT_MAX_BODY_BYTES,
      headers: { accept: 'application/json' },
      signal: input.signal,
    });
    if (response.status !== 200) return { status: 'unreachable', names: [], error: `HTTP ${response.status}` };
    const names = parseCtNames(response.body, input.domain);
    if (!names) return { status: 'unreachable', names: [], error: 'The answer was not crt.sh JSON' };
    return { status: 'ok', names };
  } catch (error) {
    const err = error as NodeJS.ErrnoException;
    return { status: 'unreachable', names: [], error: [err.code, err.message].filter(Boolean).join(': ') };
  }
}

/**
 * Tries 443, then 80, on the first public address of each subdomain. Subdomains often share a
 * server, so each address is tried once and the answer shared.
 */
async function measureAnswers(input: SubdomainsProbeInput, entries: SubdomainEntry[]): Promise<void> {
  const ports = ANSWER_PORTS.filter((p) => !input.excludePorts.includes(p));
  const byAddress = new Map<string, Promise<number | undefined>>();
  const probe = (address: string) => {
    if (!byAddress.has(address)) {
      byAddress.set(
        address,
        (async () => {
          for (const port of ports) {
            if (input.signal?.aborted) return undefined;
            const result = await input.tcp.probe(address, port, { timeoutMs: TCP_TIMEOUT_MS, signal: input.signal }).catch(() => undefined);
            if (result?.state === 'open') return port;
          }
          return undefined;
        })(),
      );
    }
    return byAddress.get(address)!;
  };
  await mapLimit(entries, PROBE_CONCURRENCY, async (entry) => {
    const address = [...entry.addresses].sort((a, b) => isIP(a) - isIP(b)).find((a) => !refusedAddress([a], input.allowPrivateTargets));
    if (!address) return;
    const port = await probe(address);
    if (port !== undefined) {
      entry.answers = true;
      entry.answeredOn = port;
    }
  });
}
