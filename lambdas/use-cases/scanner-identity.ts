import { randomBytes } from 'node:crypto';
import type { Deps } from '../composition.js';
import { productSlug, scannerAbuseMailbox } from '../config.js';
import { parseContract } from '../domain/contract.js';
import { withDeadline } from '../domain/deadline.js';
import { DomainError, NotFoundError } from '../domain/errors.js';
import { scannerUserAgent } from '../domain/product.js';
import {
  OPT_OUT_LIMITS,
  optOutFileProves,
  optOutFileUrl,
  optOutInstructions,
  optOutMessages,
  optOutRecordName,
  optOutRecordValue,
  optOutFilePath,
  parseOptOutDomain,
  PENDING_OPT_OUT_SECONDS,
  txtRecordsProveOptOut,
} from '../domain/scanner-opt-out.js';
import { optOutConfirmSchema, optOutRequestSchema, type OptOutConfirmView, type OptOutRequestView, type ScannerInfoView } from '../domain/scanner.contract.js';
import { SCANNER_POLITENESS } from '../scanner/net/polite-http.js';
import { OWNERSHIP_PROOF_DEADLINE_MS, type OwnershipProbes } from './domains.js';
import { enforceLimits } from './rate-limits.js';

/**
 * DECISIONS "Scanner identity": what the public /scanner page says about the scanner, and the
 * opt-out. Anyone may ask (site owners are not customers); what they can make us do is bounded:
 * a request stores one item that expires, a check looks up one TXT record and at most one file at
 * the domain itself, each limited per source address and the checks per domain too, and nothing is
 * ever mailed. Only a proof published at the domain opts it out, or withdraws the opt-out.
 */

/** `GET /api/scanner`. */
export function scannerInfo(deps: Pick<Deps, 'config'>): ScannerInfoView {
  const { config } = deps;
  const slug = productSlug(config.PRODUCT_NAME);
  return {
    productName: config.PRODUCT_NAME,
    userAgent: scannerUserAgent(config.PRODUCT_NAME, config.SITE_URL),
    egressAddresses: config.SCANNER_EGRESS_ADDRESSES.length > 0 ? config.SCANNER_EGRESS_ADDRESSES : null,
    abuseEmail: scannerAbuseMailbox(config),
    politeness: {
      maxInFlightPerSite: SCANNER_POLITENESS.maxInFlight,
      maxRequestsPerSecondPerSite: SCANNER_POLITENESS.perSecond,
      activeScansPerSitePerHour: config.SCAN_ACTIVE_PER_TARGET_PER_HOUR,
    },
    optOut: {
      dnsRecordName: optOutRecordName(slug, '{domain}'),
      dnsRecordValuePrefix: optOutRecordValue(slug, ''),
      filePath: optOutFilePath(slug),
      requestValidDays: PENDING_OPT_OUT_SECONDS / 86_400,
    },
  };
}

type OptOutDeps = Pick<Deps, 'scannerOptOuts' | 'rateLimits' | 'clock' | 'config'>;

/** `POST /api/scanner/opt-outs {domain}` (201): a token and where to publish it. Nothing is sent anywhere. */
export async function requestOptOut(deps: OptOutDeps, input: unknown, sourceIp: string): Promise<OptOutRequestView> {
  const domain = parseOptOutDomain(parseContract(optOutRequestSchema, input).domain);
  await enforceLimits(deps.rateLimits, [{ scope: 'optout:request:ip', subject: sourceIp, perHour: OPT_OUT_LIMITS.requestsPerIp }], 'opt-out requests');
  const now = deps.clock.now();
  const token = randomBytes(16).toString('base64url');
  const expiresAt = Math.floor(now.getTime() / 1000) + PENDING_OPT_OUT_SECONDS;
  await deps.scannerOptOuts.putPending({ domain, token, requestedAt: now.toISOString(), expiresAt });
  return { domain, token, expiresAt: new Date(expiresAt * 1000).toISOString(), ...optOutInstructions(productSlug(deps.config.PRODUCT_NAME), domain, token) };
}

export class OptOutProofNotFoundError extends DomainError {
  constructor(message: string) {
    super('opt_out_proof_not_found', message);
  }
}

/**
 * `POST /api/scanner/opt-outs/{domain}/confirm {token}`: the request's record or file is published →
 * the domain is opted out (a new proof replaces an older opt-out's token, so a new owner of the
 * domain can take it over and withdraw it).
 */
export async function confirmOptOut(deps: OptOutDeps, probes: OwnershipProbes, rawDomain: string | undefined, input: unknown, sourceIp: string): Promise<OptOutConfirmView> {
  const domain = parseOptOutDomain(rawDomain);
  const { token } = parseContract(optOutConfirmSchema, input);
  const pending = await deps.scannerOptOuts.getPending(domain, token);
  if (!pending) throw new NotFoundError('opt_out_request_not_found', optOutMessages.requestNotFound);
  await limitChecks(deps, domain, sourceIp);
  const slug = productSlug(deps.config.PRODUCT_NAME);
  const method = await lookForProof(probes, slug, domain, token);
  if (!method) throw new OptOutProofNotFoundError(optOutMessages.proofNotFound(slug, domain, token));
  const optedOutAt = deps.clock.now().toISOString();
  await deps.scannerOptOuts.confirm({ domain, token, optedOutAt, method });
  return { domain, optedOut: true, optedOutAt, method };
}

/** `DELETE /api/scanner/opt-outs/{domain}`: withdrawn only while the opt-out's own proof is still published. */
export async function removeOptOut(deps: OptOutDeps, probes: OwnershipProbes, rawDomain: string | undefined, sourceIp: string): Promise<void> {
  const domain = parseOptOutDomain(rawDomain);
  const optOut = await deps.scannerOptOuts.get(domain);
  if (!optOut) throw new NotFoundError('opt_out_not_found', optOutMessages.notOptedOut(domain));
  await limitChecks(deps, domain, sourceIp);
  const slug = productSlug(deps.config.PRODUCT_NAME);
  if (!(await lookForProof(probes, slug, domain, optOut.token))) throw new OptOutProofNotFoundError(optOutMessages.removalProofNotFound(slug, domain));
  await deps.scannerOptOuts.remove(domain);
}

/** Each check costs a DNS lookup and perhaps a fetch from the site: limited per caller and per domain. */
async function limitChecks(deps: OptOutDeps, domain: string, sourceIp: string): Promise<void> {
  await enforceLimits(
    deps.rateLimits,
    [
      { scope: 'optout:check:ip', subject: sourceIp, perHour: OPT_OUT_LIMITS.checksPerIp },
      { scope: 'optout:check:domain', subject: domain, perHour: OPT_OUT_LIMITS.checksPerDomain },
    ],
    'opt-out checks',
  );
}

/** The TXT record first, then the file at the domain itself; both within OWNERSHIP_PROOF_DEADLINE_MS. A failed lookup finds nothing. */
async function lookForProof(probes: OwnershipProbes, slug: string, domain: string, token: string): Promise<'dns' | 'file' | undefined> {
  const deadline = Date.now() + OWNERSHIP_PROOF_DEADLINE_MS;
  const txt = await withDeadline(probes.txt(optOutRecordName(slug, domain)), deadline).catch(() => [] as string[]);
  if (txtRecordsProveOptOut(txt, slug, token)) return 'dns';
  const body = await withDeadline(probes.fetchText(optOutFileUrl(slug, domain)), deadline).catch(() => undefined);
  return body !== undefined && optOutFileProves(body, token) ? 'file' : undefined;
}
