/**
 * Probe for the email check: SPF tree, DMARC record (and the authorisation of external report
 * addresses), DKIM selectors, MX servers with one SMTP STARTTLS conversation each, all at once.
 * DNS failures are recorded in the snapshot, never thrown; the SMTP conversations go only to
 * addresses that pass the target guard.
 */
import { isIP } from 'node:net';
import type { DnsClient } from '../../net/dns-client.js';
import type { SmtpClient } from '../../net/smtp-client.js';
import { refusedAddress } from '../../target-guard.js';
import { answersAt, mapLimit, resolveName, tryQuery } from '../dns/lookup.js';
import { normalizeName, ofType, txtValues } from '../dns/records.js';
import { COMMON_DKIM_SELECTORS, type DkimObservation, parseDkimKey } from './dkim.js';
import { type DmarcEvaluation, evaluateDmarc, isDmarcRecord } from './dmarc.js';
import { type MxContext, type MxObservation, summarizeCertificate } from './mx.js';
import { evaluateSpf, type SpfDns, type SpfDnsResult, type SpfEvaluation } from './spf.js';

export interface EmailSnapshot {
  domain: string;
  spf: SpfEvaluation;
  dmarc: DmarcEvaluation;
  dkim: DkimObservation;
  mx: MxContext;
  /** How many DNS queries were asked and answered (none answered = the check cannot judge). */
  queries: { asked: number; answered: number };
}

export interface EmailProbeInput {
  dns: DnsClient;
  smtp: SmtpClient;
  domain: string;
  allowPrivateTargets: boolean;
  smtpPort: number;
  /** Bound on one SMTP conversation, handshake included. */
  smtpTimeoutMs: number;
  ehloName: string;
  signal?: AbortSignal;
  now?: Date;
}

/** internet.nl tests at most 10 MX; so do we. */
const MAX_MX = 10;
/** Each MX gets at most this many addresses tried, in case the first does not answer. */
const ADDRESSES_PER_MX = 2;

export async function probeEmail(input: EmailProbeInput): Promise<EmailSnapshot> {
  const { dns, domain, signal } = input;
  const queries = { asked: 0, answered: 0 };
  const ask = async (name: string, type: 'TXT' | 'MX' | 'A' | 'AAAA' | 'TLSA') => {
    queries.asked++;
    const outcome = await tryQuery(dns, name, type, { signal });
    if (outcome.ok) queries.answered++;
    return outcome;
  };

  const [spf, dmarc, dkim, mx] = await Promise.all([
    evaluateSpf(domain, spfDns(ask)),
    probeDmarc(domain, ask),
    probeDkim(domain, ask),
    probeMx(input, ask),
  ]);
  return { domain, spf, dmarc, dkim, mx, queries };
}

/** One DNS question of the email probe, its failure returned as a value. */
export type Ask = (name: string, type: 'TXT' | 'MX' | 'A' | 'AAAA' | 'TLSA') => ReturnType<typeof tryQuery>;

/** SPF's DNS port over the scanner's client; answers are cached, as a receiver's resolver would. */
export function spfDns(ask: Ask): SpfDns {
  const cache = new Map<string, Promise<SpfDnsResult>>();
  const cached = (key: string, run: () => Promise<SpfDnsResult>) => {
    if (!cache.has(key)) cache.set(key, run());
    return cache.get(key)!;
  };
  const result = (outcome: Awaited<ReturnType<Ask>>, values: (answers: typeof outcome & { ok: true }) => string[]): SpfDnsResult => {
    if (!outcome.ok) return { error: outcome.error };
    // SERVFAIL, REFUSED …: a temporary error for SPF, not a void lookup.
    if (outcome.rcode !== 'NOERROR' && outcome.rcode !== 'NXDOMAIN') return { error: outcome.rcode };
    return { rcode: outcome.rcode, values: values(outcome) };
  };
  return {
    txt: (name) => cached(`TXT ${name}`, async () => result(await ask(name, 'TXT'), (o) => txtValues(o.answers))),
    mx: (name) => cached(`MX ${name}`, async () => result(await ask(name, 'MX'), (o) => ofType(o.answers, 'MX').map((r) => normalizeName(r.data.exchange)))),
    addresses: (name) =>
      cached(`A ${name}`, async () => {
        const [a, aaaa] = await Promise.all([ask(name, 'A'), ask(name, 'AAAA')]);
        const v4 = result(a, (o) => ofType(o.answers, 'A').map((r) => r.data));
        const v6 = result(aaaa, (o) => ofType(o.answers, 'AAAA').map((r) => r.data));
        if ('error' in v4) return v4;
        return { rcode: v4.rcode, values: [...v4.values, ...('error' in v6 ? [] : v6.values)] };
      }),
  };
}

async function probeDmarc(domain: string, ask: Ask): Promise<DmarcEvaluation> {
  const outcome = await ask(`_dmarc.${domain}`, 'TXT');
  if (!outcome.ok) return { ...evaluateDmarc(domain, []), lookupError: outcome.error };
  const evaluation = evaluateDmarc(domain, txtValues(outcome.answers));
  // Reports to another organisation count only if it authorises them (RFC 7489 §7.1).
  const reporting = await Promise.all(
    evaluation.reporting.map(async (destination) => {
      if (!destination.external || !destination.domain) return destination;
      const authorization = await ask(`${domain}._report._dmarc.${destination.domain}`, 'TXT');
      if (!authorization.ok || (authorization.rcode !== 'NOERROR' && authorization.rcode !== 'NXDOMAIN')) return destination;
      return { ...destination, authorized: txtValues(authorization.answers).some(isDmarcRecord) };
    }),
  );
  return { ...evaluation, reporting };
}

async function probeDkim(domain: string, ask: Ask): Promise<DkimObservation> {
  const [parent, ...selectors] = await Promise.all([
    ask(`_domainkey.${domain}`, 'TXT'),
    ...COMMON_DKIM_SELECTORS.map((selector) => ask(`${selector}._domainkey.${domain}`, 'TXT')),
  ]);
  const selectorsFound = COMMON_DKIM_SELECTORS.flatMap((selector, i) => {
    const outcome = selectors[i]!;
    const key = outcome.ok ? txtValues(outcome.answers).map((txt) => parseDkimKey(selector, txt)).find((k) => k !== undefined) : undefined;
    return key ? [key] : [];
  });
  return {
    domain,
    domainkey: parent.ok ? parent.rcode : 'ERROR',
    selectorsTried: [...COMMON_DKIM_SELECTORS],
    selectorsFound,
  };
}

async function probeMx(input: EmailProbeInput, ask: Ask): Promise<MxContext> {
  const { domain, dns, signal } = input;
  const [outcome, mtaSts] = await Promise.all([ask(domain, 'MX'), ask(`_mta-sts.${domain}`, 'TXT')]);
  const announcesMtaSts = mtaSts.ok && txtValues(mtaSts.answers).some((t) => /^v=STSv1\s*(;|$)/i.test(t.trim()));
  if (!outcome.ok) return { domain, mx: [], nullMx: false, mtaSts: announcesMtaSts, lookupError: outcome.error };
  const records = answersAt(outcome, 'MX')
    .map((r) => ({ host: normalizeName(r.data.exchange), preference: r.data.preference ?? 0 }))
    .sort((a, b) => a.preference - b.preference || a.host.localeCompare(b.host));
  // RFC 7505: a single MX "0 ." says the domain accepts no mail at all.
  const nullMx = records.length === 1 && records[0]!.host === '';
  if (nullMx) return { domain, mx: [], nullMx, mtaSts: announcesMtaSts };

  const mx = await mapLimit(records.slice(0, MAX_MX), MAX_MX, async ({ host, preference }): Promise<MxObservation> => {
    const [resolved, tlsa] = await Promise.all([resolveName(dns, host, signal), ask(`_25._tcp.${host}`, 'TLSA')]);
    const base: MxObservation = { host, preference, addresses: resolved.addresses, dane: answersAt(tlsa, 'TLSA').length > 0 };
    if (resolved.addresses.length === 0) {
      return { ...base, skipped: 'no-address', ...(resolved.error ? { resolveError: resolved.error } : resolved.rcode !== 'NOERROR' ? { resolveError: resolved.rcode } : {}) };
    }
    // IPv4 first: IPv6 egress is the one more often missing on the scanner's side.
    const candidates = [...resolved.addresses]
      .sort((a, b) => isIP(a) - isIP(b))
      .filter((address) => !refusedAddress([address], input.allowPrivateTargets))
      .slice(0, ADDRESSES_PER_MX);
    if (candidates.length === 0) return { ...base, skipped: 'not-public' };
    let last: MxObservation = base;
    for (const address of candidates) {
      last = await converse(input, host, address, base);
      // Only a quick refusal earns a second address: after a timeout there is no time left for one.
      if (last.error === undefined || /^(ETIMEOUT|ABORT_ERR)/.test(last.error)) break;
    }
    return last;
  });
  // Which versions the primary MX still accepts (the negotiation only shows its best): one short
  // conversation per version, on the first MX that completed TLS, as testssl does with STARTTLS.
  const primary = mx.find((m) => m.address && m.tls && !('failed' in m.tls));
  if (primary?.address && primary.tls && !('failed' in primary.tls)) {
    primary.tlsVersionsOffered = await versionsOffered(input, primary.host, primary.address, primary.tls.version);
  }
  return { domain, mx, nullMx, mtaSts: announcesMtaSts };
}

const TLS_VERSIONS = ['TLSv1', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'] as const;

/** One polite SMTP conversation with an MX (optionally offering a single TLS version). */
const starttls = (input: EmailProbeInput, host: string, address: string, tlsVersion?: (typeof TLS_VERSIONS)[number]) =>
  input.smtp.starttls(address, input.smtpPort, {
    servername: host,
    ehloName: input.ehloName,
    timeoutMs: input.smtpTimeoutMs,
    signal: input.signal,
    ...(tlsVersion ? { tlsVersion } : {}),
  });

async function versionsOffered(input: EmailProbeInput, host: string, address: string, negotiated: string | null): Promise<string[]> {
  const tried = await Promise.all(
    TLS_VERSIONS.filter((version) => version !== negotiated).map(async (version) => {
      try {
        const result = await starttls(input, host, address, version);
        return result.tls && !('failed' in result.tls) && result.tls.protocol === version ? version : undefined;
      } catch {
        return undefined;
      }
    }),
  );
  const offered = new Set<string>(tried.filter((v): v is (typeof TLS_VERSIONS)[number] => v !== undefined));
  if (negotiated) offered.add(negotiated);
  return TLS_VERSIONS.filter((version) => offered.has(version));
}

async function converse(input: EmailProbeInput, host: string, address: string, base: MxObservation): Promise<MxObservation> {
  try {
    const result = await starttls(input, host, address);
    const observation: MxObservation = { ...base, address, banner: result.banner, starttls: result.starttlsOffered };
    if (!result.tls) return observation;
    if ('failed' in result.tls) return { ...observation, tls: { failed: result.tls.failed } };
    const leaf = result.tls.certificates[0];
    return {
      ...observation,
      tls: {
        version: result.tls.protocol,
        cipher: result.tls.cipher?.standardName ?? result.tls.cipher?.name ?? null,
        ...(leaf ? { certificate: summarizeCertificate(leaf, host, result.tls, input.now ?? new Date()) } : {}),
      },
    };
  } catch (error) {
    const err = error as NodeJS.ErrnoException;
    return { ...base, address, error: [err.code, err.message].filter(Boolean).join(': ') };
  }
}
