import { recordContactInteraction } from './contact-retention.js';
import { rescanTargetOf } from './rescan-target.js';
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Deps } from '../composition.js';
import { productSlug } from '../config.js';
import { allowancePlanOf, baseScansLimit, scansLimitOf } from '../domain/account.js';
import type { Audit, ScanDepth, ScanLane } from '../domain/audit.js';
import {
  type DomainRecord,
  fileProves,
  MAX_DOMAINS_PER_USER,
  lapsedMessage,
  newVerificationToken,
  NOT_VERIFIED_MESSAGE,
  parseDomainInput,
  proofIsCurrent,
  proofSeenAt,
  proofUnansweredMessage,
  SCAN_LIMIT_MESSAGE,
  txtRecordsProve,
  verificationFileUrls,
  verificationInstructions,
  verificationNotFoundMessage,
} from '../domain/domains.js';
import { DomainError, ForbiddenError, NotFoundError, UnauthorizedError, UpstreamUnavailableError } from '../domain/errors.js';
import { withDeadline } from '../domain/deadline.js';
import { startedScanDepth } from '../domain/plans.js';
import { registrableDomainOf } from '../domain/scanner-opt-out.js';
import { siteKey } from '../domain/target.js';
import type { ScanSettings } from '../scanner/check.js';
import { createDnsClient } from '../scanner/net/dns-client.js';
import { createHttpClient } from '../scanner/net/http-client.js';
import { createResolver } from '../scanner/resolver.js';
import { refusedAddress } from '../scanner/target-guard.js';
import { refuseOptedOutScan } from './scan-opt-outs.js';

type DomainDeps = Pick<Deps, 'domains' | 'clock' | 'config'>;

/** The signed-in user's id: the verified token's `sub`, never anything the client sends. */
export function userIdOf(claims: Record<string, unknown> | undefined): string {
  if (!claims || typeof claims.sub !== 'string' || claims.sub === '') throw new UnauthorizedError();
  return claims.sub;
}

export function domainView(slug: string, record: DomainRecord, now: Date) {
  const seen = proofSeenAt(record);
  return {
    id: record.id,
    domain: record.domain,
    verified: record.verified,
    verificationToken: record.verificationToken,
    addedAt: record.addedAt,
    ...(record.verifiedAt ? { verifiedAt: record.verifiedAt, verifiedBy: record.verifiedBy } : {}),
    status: record.verified ? 'verified' : record.lapsedAt ? 'lapsed' : 'pending',
    // DECISIONS "Scan modes": when the proof was last seen, and whether it is looked for again before the next active scan.
    ...(record.verified && seen ? { proofCheckedAt: seen, proofRecheckDue: !proofIsCurrent(record, now) } : {}),
    ...(!record.verified && record.lapsedAt ? { lapsedAt: record.lapsedAt } : {}),
    verification: verificationInstructions(slug, record.domain, record.verificationToken),
  };
}

export async function listDomains(deps: DomainDeps, userId: string) {
  const slug = productSlug(deps.config.PRODUCT_NAME);
  const now = deps.clock.now();
  return (await deps.domains.list(userId)).map((record) => domainView(slug, record, now));
}

export async function addDomain(deps: DomainDeps, userId: string, input: unknown) {
  const body = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  const domain = parseDomainInput(body.domain);
  const record: DomainRecord = {
    id: randomUUID(),
    userId,
    domain,
    verificationToken: newVerificationToken(),
    verified: false,
    addedAt: deps.clock.now().toISOString(),
  };
  await deps.domains.add(record, MAX_DOMAINS_PER_USER);
  return domainView(productSlug(deps.config.PRODUCT_NAME), record, deps.clock.now());
}

/**
 * The path parameter, already URL-decoded by the platform (decoding again threw on a '%'), read by
 * the rules an added domain passed: anything else is a 400, never a key DynamoDB refuses (> 1 KiB).
 */
function domainParam(raw: string | undefined): string {
  return parseDomainInput(raw ?? '');
}

/**
 * Removes one of the user's domains, its custom security policies and its time-to-fix history (a
 * domain added again starts without them). Those go first, so a failure part-way leaves the domain
 * to delete again rather than items no domain lists; a domain that is not the user's changes nothing (404).
 */
export async function deleteDomain(deps: DomainDeps & Pick<Deps, 'policies' | 'issueHistory'>, userId: string, rawDomain: string | undefined): Promise<void> {
  const domain = domainParam(rawDomain);
  if (!(await deps.domains.get(userId, domain))) throw notFound();
  await deps.policies.removeForDomain(userId, domain);
  await deps.issueHistory.remove(userId, domain);
  if (!(await deps.domains.remove(userId, domain))) throw notFound();
}

const notFound = () => new NotFoundError('domain_not_found', 'This domain is not in your domains.');

/** What one URL of the verification file gave: its body (a 200), or what came back in words; `reached`: the site answered over HTTP at all. */
export type FileAnswer = { body: string } | { answer: string; reached: boolean };

/** How ownership is looked for: TXT records of a name, and a file's text (undefined when not there). */
export interface OwnershipProbes {
  txt(name: string): Promise<string[]>;
  fetchText(url: string): Promise<string | undefined>;
  /**
   * The verification file at one URL, following redirects only within `domain`'s registrable domain,
   * with what came back when it is not a 200. Without it (probes that only read opt-out files), the
   * file is read with fetchText and its absence is not described.
   */
  fetchFile?(url: string, domain: string): Promise<FileAnswer>;
}

/** Each URL of the file gets this long (redirects included), so https and http both fit in OWNERSHIP_PROOF_DEADLINE_MS. */
const FILE_FETCH_TIMEOUT_MS = 5_000;
const FILE_FETCH_REDIRECTS = 3;

/** A failed fetch in the words an owner can check: "connection refused", "no answer within 5 s"… */
function describeFetchError(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  if (error instanceof DomainError && code === 'target_not_allowed') return `not fetched: ${message}`;
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      return 'connection reset';
    case 'ETIMEDOUT':
      return `no answer within ${FILE_FETCH_TIMEOUT_MS / 1000} s`;
    case 'ENOTFOUND':
      return 'the name has no address';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'address unreachable';
  }
  if (code?.startsWith('ERR_SSL') || code?.startsWith('ERR_TLS') || code === 'EPROTO') return `TLS handshake failed (${message ?? code})`;
  return message ?? String(error);
}

const statusText = (status: number) => `${status}${STATUS_CODES[status] ? ` ${STATUS_CODES[status]}` : ''}`;

/**
 * The scanner's own network: TXT through its DNS client (SCAN_RESOLVERS), the file through its
 * HTTP client, with the target guard (private addresses refused unless SCAN_ALLOW_PRIVATE_TARGETS).
 */
export function scannerProbes(settings: ScanSettings): OwnershipProbes {
  const dns = createDnsClient({ resolvers: settings.resolvers, timeoutMs: settings.dnsTimeoutMs });
  const resolver = createResolver(settings);
  const resolveAll = async (host: string) => {
    const [v4, v6] = await Promise.all([resolver.resolve4(host), resolver.resolve6(host).catch(() => [])]);
    return [...v4, ...v6];
  };
  return {
    async txt(name) {
      const answer = await dns.query(name, 'TXT');
      // A resolver that could not answer (SERVFAIL, REFUSED) has not said the record is absent.
      if (answer.rcode !== 'NOERROR' && answer.rcode !== 'NXDOMAIN') throw new Error(`DNS answered ${answer.rcode} for the TXT record of ${name}`);
      return answer.answers.filter((a) => a.type === 'TXT').map((a) => txtData(a.data));
    },
    async fetchText(url) {
      const host = new URL(url).hostname.toLowerCase();
      const addresses = await resolveAll(host);
      if (addresses.length === 0 || refusedAddress(addresses, settings.allowPrivateTargets)) return undefined;
      const http = createHttpClient({ pinned: new Map([[host, addresses]]), resolve: resolveAll, allowPrivateTargets: settings.allowPrivateTargets, ...(settings.userAgent ? { userAgent: settings.userAgent } : {}) });
      const response = await http.request(url, { followRedirects: 3, maxBodyBytes: 4096, timeoutMs: 10_000 });
      return response.status === 200 ? response.body : undefined;
    },
    async fetchFile(url, domain) {
      // Redirects are followed here hop by hop (not by the client), so one leaving the domain is named, not followed.
      const within = registrableDomainOf(domain) ?? domain;
      const inside = (host: string) => (registrableDomainOf(host) ?? host) === within;
      let current = new URL(url);
      const deadline = AbortSignal.timeout(FILE_FETCH_TIMEOUT_MS);
      const hops: string[] = [];
      try {
        for (;;) {
          const host = current.hostname.toLowerCase();
          const addresses = await resolveAll(host);
          if (addresses.length === 0) return { answer: 'the name has no address', reached: false };
          const refused = refusedAddress(addresses, settings.allowPrivateTargets);
          if (refused) return { answer: `not fetched: ${host} resolves to ${refused}, a private or reserved address`, reached: false };
          const http = createHttpClient({ pinned: new Map([[host, addresses]]), resolve: resolveAll, allowPrivateTargets: settings.allowPrivateTargets, ...(settings.userAgent ? { userAgent: settings.userAgent } : {}) });
          const response = await http.request(current.href, { maxBodyBytes: 4096, timeoutMs: FILE_FETCH_TIMEOUT_MS, signal: deadline });
          const after = hops.length > 0 ? ` (after redirects to ${hops.join(', ')})` : '';
          const location = response.headers.location?.[0];
          if (response.status >= 300 && response.status < 400 && location) {
            const next = new URL(location, current);
            if (next.protocol !== 'https:' && next.protocol !== 'http:') return { answer: `${statusText(response.status)}, redirected to ${next.href} (not followed)`, reached: true };
            if (!inside(next.hostname.toLowerCase())) return { answer: `${statusText(response.status)}, redirected to ${next.href}, outside ${within} (not followed)${after}`, reached: true };
            if (hops.length >= FILE_FETCH_REDIRECTS) return { answer: `${statusText(response.status)}, more than ${FILE_FETCH_REDIRECTS} redirects${after}`, reached: true };
            hops.push(next.href);
            current = next;
            continue;
          }
          if (response.status === 200) return { body: response.body };
          return { answer: `${statusText(response.status)}${after}`, reached: true };
        }
      } catch (error) {
        return { answer: describeFetchError(deadline.aborted ? Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' }) : error), reached: false };
      }
    },
  };
}

/** A TXT record's character strings joined (long values are split into 255-byte strings). */
export function txtData(data: unknown): string {
  const parts = Array.isArray(data) ? data : [data];
  return parts.map((part) => (Buffer.isBuffer(part) ? part.toString('utf8') : String(part))).join('');
}

export class VerificationNotFoundError extends DomainError {
  constructor(message: string) {
    super('verification_not_found', message);
  }
}

/** DNS first, then the file; either proves ownership. Re-checkable at any time (a verified domain stays verified). */
export async function verifyDomain(
  deps: DomainDeps,
  probes: OwnershipProbes,
  userId: string,
  rawDomain: string | undefined,
): Promise<{ verified: true; method: 'dns' | 'file'; verifiedAt: string }> {
  const domain = domainParam(rawDomain);
  const record = await deps.domains.get(userId, domain);
  if (!record) throw notFound();
  const slug = productSlug(deps.config.PRODUCT_NAME);
  const { found: method, fetched } = await lookForProof(probes, slug, record);
  if (!method) throw new VerificationNotFoundError(verificationNotFoundMessage(slug, domain, record.verificationToken, fetched));
  const verifiedAt = deps.clock.now().toISOString();
  await deps.domains.markVerified(userId, domain, verifiedAt, method);
  return { verified: true, method, verifiedAt };
}

/**
 * The TXT lookup and the file fetch together wait at most this long (DNS retries and redirects
 * included), so verify-domain answers well within its function's timeout (lambdas/routes.ts `account`).
 */
export const OWNERSHIP_PROOF_DEADLINE_MS = 12_000;

/**
 * The proof, or whether its absence was really answered: `answered` is false when the DNS lookup
 * failed (a timeout, SERVFAIL), or, for a domain proven by its file, when the site could not be
 * reached. A re-check only lapses a domain on an answer, never on an outage.
 */
async function lookForProof(probes: OwnershipProbes, slug: string, record: DomainRecord): Promise<{ found: 'dns' | 'file' | undefined; answered: boolean; fetched: string[] }> {
  const deadline = Date.now() + OWNERSHIP_PROOF_DEADLINE_MS;
  let answered = true;
  const txt = await withDeadline(probes.txt(record.domain), deadline).catch(() => {
    answered = false;
    return [] as string[];
  });
  if (txtRecordsProve(txt, slug, record.verificationToken)) return { found: 'dns', answered: true, fetched: [] };
  // What the site serves: https first, then plain http (an http-only site proves itself too).
  const fetched: string[] = [];
  let reached = false;
  for (const url of verificationFileUrls(slug, record.domain)) {
    const got = await withDeadline(fetchFile(probes, url, record.domain), deadline).catch((): FileAnswer => ({ answer: 'no answer in time', reached: false }));
    if ('body' in got) {
      reached = true;
      if (fileProves(got.body, record.verificationToken)) return { found: 'file', answered: true, fetched };
      fetched.push(`${url}: 200 OK, but its first line is not the verification code`);
    } else {
      reached ||= got.reached;
      fetched.push(`${url}: ${got.answer}`);
    }
  }
  // A file proof is only gone when the site answered; both URLs unreachable is an outage.
  if (record.verifiedBy === 'file' && !reached) answered = false;
  return { found: undefined, answered, fetched };
}

/** The probes' own file fetch, or their fetchText where they have none. */
async function fetchFile(probes: OwnershipProbes, url: string, domain: string): Promise<FileAnswer> {
  if (probes.fetchFile) return probes.fetchFile(url, domain);
  try {
    const body = await probes.fetchText(url);
    return body === undefined ? { answer: 'not found', reached: true } : { body };
  } catch (error) {
    return { answer: describeFetchError(error), reached: false };
  }
}

/** The user's verified domain that covers the host: its site key, or a parent domain of it (proving example.com covers shop.example.com). */
async function verifiedRecordFor(deps: Pick<Deps, 'domains'>, userId: string, host: string): Promise<DomainRecord | undefined> {
  const labels = siteKey(host).split('.');
  for (let i = 0; i <= labels.length - 2; i++) {
    const record = await deps.domains.get(userId, labels.slice(i).join('.'));
    if (record?.verified) return record;
  }
  return undefined;
}

/**
 * DECISIONS "Who may scan at once": a domain the signed-in user has verified, whose proof was seen
 * within DOMAIN_PROOF_RECHECK_DAYS. Asks nothing over the network (a public request does not wait for
 * a re-check): a proof due for one counts only once it is seen again (Verify, or a scan the user starts).
 */
export async function isVerifiedDomainOf(deps: Pick<Deps, 'domains' | 'clock'>, userId: string, host: string): Promise<boolean> {
  return (await verifiedDomainState(deps, userId, host)).state === 'current';
}

/** The verified domain covering the host and whether its proof is current, without asking the network. */
export async function verifiedDomainState(deps: Pick<Deps, 'domains' | 'clock'>, userId: string, host: string): Promise<{ state: 'current' | 'recheck-due' | 'none'; domain?: string }> {
  const record = await verifiedRecordFor(deps, userId, host);
  if (!record) return { state: 'none' };
  return { state: proofIsCurrent(record, deps.clock.now()) ? 'current' : 'recheck-due', domain: record.domain };
}

/**
 * What a re-check of a verified domain found: still current (not asked), seen again, gone (the domain
 * lapsed), or no answer (DNS or, for a file proof, the site did not answer: nothing changes; not relied on now).
 */
export type ProofCheck = 'current' | 'confirmed' | 'lapsed' | 'unanswered';

/**
 * A verified domain about to be relied on for an active scan: a proof seen within the re-check period
 * is current; an older one is looked for again (the TXT record, then the file, within
 * OWNERSHIP_PROOF_DEADLINE_MS). Seen: its date moves on. Answered without it: the domain lapses to
 * unverified (the owner proves it again with Verify; the token is unchanged). No answer (an outage):
 * nothing changes, and it is not relied on now.
 */
export async function confirmDomainProof(deps: DomainDeps, probes: OwnershipProbes, record: DomainRecord): Promise<ProofCheck> {
  const now = deps.clock.now();
  if (proofIsCurrent(record, now)) return 'current';
  const { found, answered } = await lookForProof(probes, productSlug(deps.config.PRODUCT_NAME), record);
  const at = now.toISOString();
  if (found) {
    await deps.domains.markChecked(record.userId, record.domain, at);
    return 'confirmed';
  }
  if (!answered) return 'unanswered';
  await deps.domains.markLapsed(record.userId, record.domain, at);
  return 'lapsed';
}

/** The refusal of an active scan whose domain's proof could not be confirmed now ('lapsed' or 'unanswered'). */
function unprovenError(check: 'lapsed' | 'unanswered', domain: string, now: Date): DomainError {
  return check === 'lapsed'
    ? new ForbiddenError('domain_not_verified', lapsedMessage(domain, now.toISOString()))
    : new UpstreamUnavailableError('proof_check_unavailable', proofUnansweredMessage(domain));
}

/**
 * For an active scan the signed-in user starts (Quick Scan, `/api/v1`, an unlock): the verified domain
 * covering the host with its proof current, re-checked now when due. Refused with `domain_not_verified`:
 * `notVerified` when there is none, the lapse's own message when the re-check no longer found the
 * proof; `502 proof_check_unavailable` when the re-check got no answer.
 */
export async function requireProvenDomain(deps: DomainDeps, probes: OwnershipProbes, userId: string, host: string, notVerified: string): Promise<void> {
  const record = await verifiedRecordFor(deps, userId, host);
  if (!record) throw new ForbiddenError('domain_not_verified', notVerified);
  const check = await confirmDomainProof(deps, probes, record);
  if (check === 'lapsed' || check === 'unanswered') throw unprovenError(check, record.domain, deps.clock.now());
}

/** A scan counted against the user's plan: record it once started, or give it back. */
export interface CountedScan {
  /** How deep the scan goes: deep when it came out of a scan pack (the plan's grants, startedScanDepth). */
  depth: ScanDepth;
  /** The queue the scan goes to: paid when a paying plan's scans or a scan pack pay for it, free for a trial's. */
  lane: Extract<ScanLane, 'free' | 'paid'>;
  /** The started scan (`SCAN#` item), for history and usage. */
  record(scan: { auditId: string; domain: string; createdAt: string }): Promise<void>;
  /** The scan could not be started: the plan gets it back. */
  giveBack(): Promise<void>;
}

/**
 * DECISIONS "Scan counting": one scan the user starts, counted atomically against the plan (the
 * trial's 3 scans, or the stored plan's limit, plus scans bought) before anything is stored; at the
 * limit `403 scan_limit_reached` and nothing is counted. The one place scans are counted: Quick Scan,
 * `/api/v1` scans and a signed-in user's landing-form scan of a verified domain. The plan's own scans
 * are drawn first; a scan numbered past them came out of a scan pack and runs as the pack grants (deep).
 */
export async function countScanAgainstPlan(deps: Pick<Deps, 'domains' | 'accounts' | 'billing'>, userId: string): Promise<CountedScan> {
  const [subscription, usage] = await Promise.all([deps.accounts.getSubscription(userId), deps.billing.getScanUsage(userId)]);
  const limit = scansLimitOf(subscription, usage.extraScans);
  const number = await deps.domains.claimScan(userId, limit);
  if (number === undefined) throw new ForbiddenError('scan_limit_reached', SCAN_LIMIT_MESSAGE);
  const plan = allowancePlanOf(subscription);
  const drawnFromPack = number > baseScansLimit(subscription);
  return {
    depth: startedScanDepth(plan, drawnFromPack),
    lane: drawnFromPack || plan !== 'trial' ? 'paid' : 'free',
    record: (scan) => deps.domains.recordScan(userId, scan),
    giveBack: () => deps.domains.uncountScan(userId).catch(() => undefined),
  };
}

/** The audit's and the job's `depth`, written only when deep: absent reads as standard. */
export const deepOnly = (depth: ScanDepth): { depth?: 'deep' } => (depth === 'deep' ? { depth } : {});

type QuickScanDeps = Pick<Deps, 'domains' | 'clock' | 'config' | 'audits' | 'scanJobs' | 'accounts' | 'billing' | 'supportRequests' | 'log' | 'scanSettings' | 'scannerOptOuts'>;

export interface QuickScanUser {
  userId: string;
  email: string;
  firstName: string;
  lastName: string;
}

/**
 * DECISIONS "Quick Scan" and "Scan counting": one of the user's verified domains; counted
 * atomically against the plan (the trial's 3 scans, or the stored plan's limit) before anything is stored; the audit is the
 * user's (owner index item) and queued like a lead's.
 */
export async function startQuickScan(deps: QuickScanDeps, user: QuickScanUser, input: unknown): Promise<{ auditId: string }> {
  const body = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  const domain = parseDomainInput(body.domain);
  await refuseOptedOutScan(deps, domain);
  const record = await deps.domains.get(user.userId, domain);
  if (!record?.verified) throw new ForbiddenError('domain_not_verified', NOT_VERIFIED_MESSAGE);
  const check = await confirmDomainProof(deps, scannerProbes(deps.scanSettings), record);
  if (check === 'lapsed' || check === 'unanswered') throw unprovenError(check, domain, deps.clock.now());
  const counted = await countScanAgainstPlan(deps, user.userId);

  const now = deps.clock.now().toISOString();
  const auditId = randomUUID();
  // DECISIONS "Rescan target": the site the user's last completed scan of the domain reached (an http-only site stays http).
  const targetUrl = await rescanTargetOf(deps, user.userId, domain);
  // A verified domain: active (DECISIONS "Scan modes"); deep when a scan pack pays for it (stored, so a re-queued job stays deep).
  const audit: Audit = { id: auditId, ownerId: user.userId, targetUrl, host: domain, status: 'queued', createdAt: now, checks: [], mode: 'active', ...deepOnly(counted.depth) };
  try {
    await deps.audits.createLeadWithAudit(
      {
        id: randomUUID(),
        firstName: user.firstName,
        lastName: user.lastName,
        businessName: '',
        email: user.email,
        mobileNumber: '',
        webUrl: targetUrl,
        host: domain,
        userId: user.userId,
        createdAt: now,
      },
      audit,
    );
    await counted.record({ auditId, domain, createdAt: now });
    await deps.scanJobs.enqueue({ auditId, kind: 'scan', ...deepOnly(counted.depth) }, counted.lane);
  } catch (error) {
    await counted.giveBack();
    throw error;
  }
  await recordContactInteraction(deps, { email: user.email, userId: user.userId });
  return { auditId };
}
