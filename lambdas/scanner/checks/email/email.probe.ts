/**
 * Probe for the email check: SPF tree, DMARC record (and the authorisation of external report
 * addresses), DKIM selectors, MX servers with one SMTP STARTTLS conversation each (their TLSA
 * records and presented chain kept for DANE, the TLSA records validated with the dns check's
 * DNSSEC chain from the trust anchor), the MTA-STS record and policy file, TLS-RPT and BIMI
 * records, all at once. DNS and HTTP failures are recorded in the snapshot, never thrown; the
 * SMTP conversations go only to addresses that pass the target guard, the policy fetch through
 * the scanner's guarded HTTP client (what a sending mail server fetches: passive).
 */
import { isIP } from 'node:net';
import type { DnsClient } from '../../net/dns-client.js';
import { headerValue, type HttpClient } from '../../net/http-client.js';
import type { SmtpClient } from '../../net/smtp-client.js';
import { refusedAddress } from '../../target-guard.js';
import type { BimiObservation } from './bimi.js';
import { chainNames, type DnssecMaterial, validateDnssec } from '../dns/dnssec-chain.js';
import { canonicalName, isAtOrBelow, signaturesFor } from '../dns/dnssec-validate.js';
import { answersAt, limiter, mapLimit, type QueryOutcome, resolveName, tryQuery } from '../dns/lookup.js';
import { parseTrustAnchor, ROOT_TRUST_ANCHORS, type TrustAnchor } from '../dns/trust-anchors.js';
import { normalizeName, ofType, txtValues } from '../dns/records.js';
import type { TlsaDnssec } from './dane.js';
import { DKIM_SELECTORS, type DkimObservation, parseDkimKey } from './dkim.js';
import { type DmarcEvaluation, evaluateDmarc, isDmarcRecord } from './dmarc.js';
import { type MtaStsFetch, type MtaStsObservation, parseMtaStsRecord } from './mta-sts.js';
import { type MxContext, type MxObservation, summarizeCertificate } from './mx.js';
import type { TlsRptObservation } from './tls-rpt.js';
import { evaluateSpf, type SpfDns, type SpfDnsResult, type SpfEvaluation } from './spf.js';

export interface EmailSnapshot {
  domain: string;
  spf: SpfEvaluation;
  dmarc: DmarcEvaluation;
  dkim: DkimObservation;
  mx: MxContext;
  mtaSts: MtaStsObservation;
  tlsRpt: TlsRptObservation;
  bimi: BimiObservation;
  /** How many DNS queries were asked and answered (none answered = the check cannot judge). */
  queries: { asked: number; answered: number };
}

export interface EmailProbeInput {
  dns: DnsClient;
  smtp: SmtpClient;
  /** The scanner's guarded HTTP client, for the MTA-STS policy file. */
  http: HttpClient;
  domain: string;
  allowPrivateTargets: boolean;
  smtpPort: number;
  /** Bound on one SMTP conversation, handshake included. */
  smtpTimeoutMs: number;
  ehloName: string;
  /** Time for the DKIM selectors (default DKIM_BUDGET_MS). */
  dkimBudgetMs?: number;
  /** Where DNSSEC validation of the TLSA records starts (default the root's, as in the dns check). */
  trustAnchors?: readonly TrustAnchor[];
  signal?: AbortSignal;
  now?: Date;
}

/** internet.nl tests at most 10 MX; so do we. */
const MAX_MX = 10;
/** Each MX gets at most this many addresses tried, in case the first does not answer. */
const ADDRESSES_PER_MX = 2;
/** DKIM questions in flight at once: the selector list is long, the domain's name servers are not ours. */
const DKIM_CONCURRENCY = 12;
/** The selectors get this long in all; the ones not asked by then are left out of selectorsTried. */
const DKIM_BUDGET_MS = 4_000;
/** The MTA-STS policy fetch: RFC 8461 §3.3 suggests senders wait about a minute; a scan cannot. */
const MTA_STS_TIMEOUT_MS = 5_000;
/** RFC 8461 §3.3: a policy file is at most 64 KiB. */
const MTA_STS_MAX_BYTES = 64 * 1024;

export async function probeEmail(input: EmailProbeInput): Promise<EmailSnapshot> {
  const { dns, domain, signal } = input;
  const queries = { asked: 0, answered: 0 };
  const ask = async (name: string, type: AskType, options: AskOptions = {}) => {
    queries.asked++;
    const outcome = await tryQuery(dns, name, type, { ...options, signal });
    if (outcome.ok) queries.answered++;
    return outcome;
  };

  const [spf, dmarc, dkim, mx, mtaSts, tlsRpt, bimi] = await Promise.all([
    evaluateSpf(domain, spfDns(ask)),
    probeDmarc(domain, ask),
    probeDkim(domain, ask, input.dkimBudgetMs ?? DKIM_BUDGET_MS, signal),
    probeMx(input, ask),
    probeMtaSts(input, ask),
    probeTxt(`_smtp._tls.${domain}`, /^v=TLSRPTv1\s*(;|$)/, ask),
    probeTxt(`default._bimi.${domain}`, /^v=BIMI1\s*(;|$)/, ask),
  ]);
  mx.mtaSts = mtaSts.record.records.length > 0;
  return {
    domain,
    spf,
    dmarc,
    dkim,
    mx,
    mtaSts: { ...mtaSts, mx: mx.mx.map((m) => ({ host: m.host, ...(m.tls && !('failed' in m.tls) && m.tls.certificate ? { certificate: m.tls.certificate } : {}) })) },
    tlsRpt: { domain, ...tlsRpt },
    bimi: { domain, ...bimi },
    queries,
  };
}

type AskType = 'TXT' | 'MX' | 'A' | 'AAAA' | 'TLSA' | 'SOA' | 'DNSKEY' | 'DS';
interface AskOptions {
  dnssec?: boolean;
  checkingDisabled?: boolean;
}
/** One DNS question of the email probe, its failure returned as a value. */
export type Ask = (name: string, type: AskType, options?: AskOptions) => ReturnType<typeof tryQuery>;

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

/** The TXT records at `name` that `pattern` picks out (TLS-RPT, BIMI), the lookup's failure kept. */
async function probeTxt(name: string, pattern: RegExp, ask: Ask): Promise<{ records: string[]; lookupError?: string }> {
  const outcome = await ask(name, 'TXT');
  if (!outcome.ok) return { records: [], lookupError: outcome.error };
  return { records: txtValues(outcome.answers).map((t) => t.trim()).filter((t) => pattern.test(t)) };
}

/**
 * `_domainkey.<domain>` and every selector, at most DKIM_CONCURRENCY questions at once and no new
 * one after the budget: the longer list costs the same time as the old one on a live server.
 */
async function probeDkim(domain: string, ask: Ask, budgetMs: number, signal?: AbortSignal): Promise<DkimObservation> {
  const run = limiter(DKIM_CONCURRENCY);
  const deadline = Date.now() + budgetMs;
  const asked = (selector: string) =>
    run(async () => (Date.now() > deadline || signal?.aborted ? undefined : { selector, outcome: await ask(`${selector}._domainkey.${domain}`, 'TXT') }));
  const [parent, ...selectors] = await Promise.all([ask(`_domainkey.${domain}`, 'TXT'), ...DKIM_SELECTORS.map(asked)]);
  const tried = selectors.filter((s) => s !== undefined);
  const selectorsFound = tried.flatMap(({ selector, outcome }) => {
    const key = outcome.ok ? txtValues(outcome.answers).map((txt) => parseDkimKey(selector, txt)).find((k) => k !== undefined) : undefined;
    return key ? [key] : [];
  });
  return {
    domain,
    domainkey: parent.ok ? parent.rcode : 'ERROR',
    selectorsTried: tried.map((s) => s.selector),
    selectorsFound,
  };
}

/** The `_mta-sts` record and, when it announces a policy, the policy file as a sender fetches it. */
async function probeMtaSts(input: EmailProbeInput, ask: Ask): Promise<Omit<MtaStsObservation, 'mx'>> {
  const { domain } = input;
  const outcome = await ask(`_mta-sts.${domain}`, 'TXT');
  const record = parseMtaStsRecord(outcome.ok ? txtValues(outcome.answers) : []);
  if (record.records.length === 0) return { domain, record };
  return { domain, record, fetch: await fetchPolicy(input) };
}

async function fetchPolicy(input: EmailProbeInput): Promise<MtaStsFetch> {
  const url = `https://mta-sts.${input.domain}/.well-known/mta-sts.txt`;
  try {
    // No redirects: senders do not follow them (RFC 8461 §3.3).
    const response = await input.http.request(url, { maxBodyBytes: MTA_STS_MAX_BYTES, timeoutMs: MTA_STS_TIMEOUT_MS, signal: input.signal });
    const location = headerValue(response.headers, 'location');
    const contentType = headerValue(response.headers, 'content-type');
    return {
      url,
      status: response.status,
      ...(contentType ? { contentType } : {}),
      ...(response.certificateTrusted !== undefined ? { certificateTrusted: response.certificateTrusted } : {}),
      ...(response.certificateError ? { certificateError: response.certificateError } : {}),
      ...(response.status >= 300 && response.status < 400 && location ? { redirect: location } : {}),
      ...(response.status === 200 ? { body: response.body } : {}),
    };
  } catch (error) {
    const err = error as NodeJS.ErrnoException;
    return { url, error: [err.code, err.message].filter(Boolean).join(': ') || String(error) };
  }
}

async function probeMx(input: EmailProbeInput, ask: Ask): Promise<MxContext> {
  const { domain, dns, signal } = input;
  // mtaSts is filled in by probeEmail, from the MTA-STS probe that runs beside this one.
  const announcesMtaSts = false;
  const outcome = await ask(domain, 'MX');
  if (!outcome.ok) return { domain, mx: [], nullMx: false, mtaSts: announcesMtaSts, lookupError: outcome.error };
  const records = answersAt(outcome, 'MX')
    .map((r) => ({ host: normalizeName(r.data.exchange), preference: r.data.preference ?? 0 }))
    .sort((a, b) => a.preference - b.preference || a.host.localeCompare(b.host));
  // RFC 7505: a single MX "0 ." says the domain accepts no mail at all.
  const nullMx = records.length === 1 && records[0]!.host === '';
  if (nullMx) return { domain, mx: [], nullMx, mtaSts: announcesMtaSts };

  // DNSKEY and DS answers are shared by the MX hosts of one zone (and the zones above them).
  const chainAsk = cachedDnssecAsk(ask);
  const anchors = input.trustAnchors ?? ROOT_TRUST_ANCHORS.map(parseTrustAnchor);
  const now = input.now ?? new Date();
  const mx = await mapLimit(records.slice(0, MAX_MX), MAX_MX, async ({ host, preference }): Promise<MxObservation> => {
    // DO for the signatures, CD so a validating resolver hands over a bogus answer too: the
    // validation below says what senders make of it.
    const [resolved, tlsa] = await Promise.all([resolveName(dns, host, signal), ask(`_25._tcp.${host}`, 'TLSA', { dnssec: true, checkingDisabled: true })]);
    const tlsaAnswers = answersAt(tlsa, 'TLSA');
    const tlsaRecords = tlsaAnswers.map((r) => ({ usage: r.data.usage, selector: r.data.selector, matchingType: r.data.matchingType, data: Buffer.from(r.data.certificate).toString('hex') }));
    const tlsaSigned = answersAt(tlsa, 'RRSIG').some((r) => r.data.typeCovered === 'TLSA');
    // Senders use TLSA records only when DNSSEC-validated (RFC 7672 §2.2). The chain's questions
    // run beside the SMTP conversation below, so they cost the check no time of their own.
    const dnssec = tlsa.ok && tlsaAnswers.length > 0 ? validateTlsa(tlsa, tlsaAnswers[0]!.name, chainAsk, anchors, now) : undefined;
    const base: MxObservation = { host, preference, addresses: resolved.addresses, dane: tlsaRecords.length > 0, ...(tlsaRecords.length > 0 ? { tlsa: tlsaRecords, tlsaSigned } : {}) };
    const observed = await observeMx(input, host, resolved, base);
    return dnssec ? { ...observed, ...(await dnssec) } : observed;
  });
  // Which versions the primary MX still accepts (the negotiation only shows its best): one short
  // conversation per version, on the first MX that completed TLS, as testssl does with STARTTLS.
  const primary = mx.find((m) => m.address && m.tls && !('failed' in m.tls));
  if (primary?.address && primary.tls && !('failed' in primary.tls)) {
    primary.tlsVersionsOffered = await versionsOffered(input, primary.host, primary.address, primary.tls.version);
  }
  return { domain, mx, nullMx, mtaSts: announcesMtaSts };
}

/** The SMTP side of one MX: its addresses tried in turn, unless there is none the scanner may reach. */
async function observeMx(input: EmailProbeInput, host: string, resolved: Awaited<ReturnType<typeof resolveName>>, base: MxObservation): Promise<MxObservation> {
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
}

type ChainAsk = (name: string, type: 'DNSKEY' | 'DS' | 'SOA') => Promise<QueryOutcome>;

/** DNSSEC questions (DO and CD, as the dns check asks them), each asked once per probe. */
function cachedDnssecAsk(ask: Ask): ChainAsk {
  const cache = new Map<string, Promise<QueryOutcome>>();
  return (name, type) => {
    const key = `${type} ${canonicalName(name)}`;
    if (!cache.has(key)) cache.set(key, ask(name || '.', type, { dnssec: true, checkingDisabled: true }));
    return cache.get(key)!;
  };
}

/**
 * The TLSA RRset at `owner` validated as a DANE sender's resolver validates it, by the dns
 * check's validator: the zone that signs it (the RRSIG's signer; without one, the zone whose SOA
 * answers for the name), that zone's DNSKEY and DS sets from the trust anchor down, and the
 * RRset's signature under the zone's keys, judged at `now`.
 */
export async function validateTlsa(tlsa: QueryOutcome & { ok: true }, owner: string, ask: ChainAsk, anchors: readonly TrustAnchor[], now: Date): Promise<{ tlsaDnssec: TlsaDnssec; tlsaDnssecReason: string }> {
  const name = canonicalName(owner);
  const signer = signaturesFor(tlsa.answers, name, 'TLSA')
    .map((sig) => canonicalName(sig.data.signersName))
    .find((zone) => isAtOrBelow(name, zone));
  const zone = signer ?? (await zoneOf(name, ask));
  if (zone === undefined) return { tlsaDnssec: 'indeterminate', tlsaDnssecReason: `The zone of ${name} could not be found (its SOA query had no answer)` };
  const names = chainNames(zone, anchors);
  const [dnskey, ds] = await Promise.all([
    Promise.all(names.dnskey.map(async (n) => [n, await ask(n, 'DNSKEY')] as const)),
    Promise.all(names.ds.map(async (n) => [n, await ask(n, 'DS')] as const)),
  ]);
  const material: DnssecMaterial = { domain: zone, anchors, dnskey: Object.fromEntries(dnskey), ds: Object.fromEntries(ds), data: [{ name, type: 'TLSA', outcome: tlsa }] };
  const validation = validateDnssec(material, now);
  return { tlsaDnssec: validation.result, tlsaDnssecReason: validation.reason };
}

/** The apex of the zone `name` is in: the owner of the SOA its SOA query returns (answer or authority). */
async function zoneOf(name: string, ask: ChainAsk): Promise<string | undefined> {
  const outcome = await ask(name, 'SOA');
  if (!outcome.ok) return undefined;
  const soa = [...outcome.answers, ...outcome.authorities].find((r) => r.type === 'SOA' && isAtOrBelow(name, canonicalName(r.name)));
  return soa ? canonicalName(soa.name) : undefined;
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
      // The presented chain, for DANE: only when the host publishes TLSA records.
      ...(base.tlsa ? { chain: result.tls.certificates.map((c) => c.raw.toString('base64')) } : {}),
    };
  } catch (error) {
    const err = error as NodeJS.ErrnoException;
    return { ...base, address, error: [err.code, err.message].filter(Boolean).join(': ') };
  }
}
