import { createHash, randomUUID } from 'node:crypto';
import type { Deps } from '../composition.js';
import type { Audit, ScanDepth, ScanMode } from '../domain/audit.js';
import { isBotUserAgent } from '../domain/bots.js';
import { parseContract } from '../domain/contract.js';
import type { ConfirmAddressPrompt } from '../domain/address-proof.contract.js';
import { accountCreatedEmail } from '../domain/emails.js';
import { ConflictError, ForbiddenError, RateLimitedError } from '../domain/errors.js';
import { type Lead, leadInputSchema, looksAutomated, summarizeLeadErrors } from '../domain/lead.contract.js';
import { FREE_REPORT_GRANTS } from '../domain/plans.js';
import { mayScanAtOnce, refuseRestrictedPassiveScan } from '../domain/scan-authorization.js';
import { siteKey } from '../domain/target.js';
import { hashSetPasswordToken, newSetPasswordToken, SET_PASSWORD_LINK_HOURS, setPasswordUrl } from '../domain/set-password-link.js';
import { generateTemporaryPassword } from '../domain/temporary-password.js';
import { recordContactInteraction } from './contact-retention.js';
import { countScanAgainstPlan, type CountedScan, deepOnly, isVerifiedDomainOf } from './domains.js';
import { notify, type NotifyDeps } from './notifications.js';
import { enforceLimits } from './rate-limits.js';
import { refuseOptedOutScan } from './scan-opt-outs.js';
import { verificationMessages } from '../domain/verification.contract.js';
import { emailVerificationCode } from './verification-codes.js';

export interface SubmitLeadContext {
  sourceIp: string;
  userAgent: string;
  /** The signed-in caller's verified id (Cognito sub), when the request carried a valid token. */
  userId?: string;
  /** The signed-in caller's own address, when their token says it is verified (lower case). */
  verifiedEmail?: string;
}

export interface SubmitLeadResult {
  auditId: string;
  leadId: string;
  accountCreated: boolean;
  /** False when nothing was scanned (a bot): the caller still answers as if it had been. */
  scanned: boolean;
  /** DECISIONS "Scan modes" [attacker]: the address is at the site's domain but unproven; the scan runs passive until the code mailed to it is confirmed. */
  confirmAddress?: ConfirmAddressPrompt;
}

/** The same lead sent again within this time (a double click, a retry) gets the first answer. */
export const LEAD_IDEMPOTENCY_SECONDS = 60;

export const VERIFICATION_REQUIRED_MESSAGE =
  'Your email address is not at this website’s domain. Please verify it with the code we email you to start the scan.';

type SubmitLeadDeps = Pick<
  Deps,
  'audits' | 'scanJobs' | 'clock' | 'config' | 'log' | 'rateLimits' | 'verifications' | 'idempotency' | 'users' | 'mailer' | 'domains' | 'supportRequests' | 'accounts' | 'billing' | 'scannerOptOuts' | 'metrics' | 'setPasswordLinks'
> &
  NotifyDeps;

type StoredAnswer = { auditId: string; leadId: string; accountCreated: boolean; confirmAddress?: ConfirmAddressPrompt };

/**
 * A visitor asks for a free report. In order: bots get an accepted-looking answer and nothing
 * else; the address's hourly limit; the right to scan the site (same domain, a domain the signed-in
 * caller has verified, or a verified code);
 * an equal lead within a minute gets the first answer; the email's and the site's hourly limits;
 * a signed-in caller's scan of a domain they verified counted against their plan (as Quick Scan's);
 * the account (created, or the existing one found); then the lead and its audit are stored and a
 * scan job is queued. The answer comes at once; the scan runs in the worker.
 */
export async function submitLead(deps: SubmitLeadDeps, input: unknown, context: SubmitLeadContext): Promise<SubmitLeadResult> {
  const lead = parseContract(leadInputSchema, input, (fields) => summarizeLeadErrors(fields, input));
  if (isBotUserAgent(context.userAgent) || looksAutomated(lead, deps.clock.now())) {
    // SPEC §4 "Lead submission": bots get an id that names itself, and nothing is stored or scanned.
    return { auditId: `bot_safe_${randomUUID()}`, leadId: '', accountCreated: false, scanned: false };
  }
  const { config } = deps;
  const site = siteKey(lead.webUrl.host);
  await enforceLimits(deps.rateLimits, [{ scope: 'lead:ip', subject: context.sourceIp, perHour: config.RATE_LIMIT_LEADS_PER_IP }], 'scan requests');
  // DECISIONS "Scanner identity": the site's owner opted out; nobody's request scans it.
  await refuseOptedOutScan(deps, lead.webUrl.host);

  // DECISIONS "Who may scan at once" and "Scan modes". The client's `emailVerified` is never trusted: only our records.
  const { mode, proofPending } = (await scanModeFor(deps, lead, site, context)) ?? {};
  if (!mode) throw new ForbiddenError('verification_required', VERIFICATION_REQUIRED_MESSAGE);
  // A passive scan does what a browser does: a site on a port browsers refuse (http://victim:25/) is refused before anything is stored.
  if (mode === 'passive') refuseRestrictedPassiveScan(lead.webUrl.url);

  const key = idempotencyKey(lead, context.userId);
  const answer: StoredAnswer = { auditId: randomUUID(), leadId: randomUUID(), accountCreated: false };
  const claim = await deps.idempotency.claim(key, answer, LEAD_IDEMPOTENCY_SECONDS);
  if (!claim.claimed) return { ...claim.value, scanned: true };

  let counted: CountedScan | undefined;
  try {
    // Counted only for leads allowed to scan, so nobody can use up another's email or site by trying.
    await enforceLimits(
      deps.rateLimits,
      [
        { scope: 'lead:email', subject: lead.email, perHour: config.RATE_LIMIT_LEADS_PER_EMAIL },
        { scope: 'lead:site', subject: site, perHour: config.RATE_LIMIT_LEADS_PER_SITE },
      ],
      'scan requests',
    );
    // DECISIONS "Scan counting": a scan the signed-in user starts of their verified domain counts, by the same code as Quick Scan.
    if (context.userId && (await isVerifiedDomainOf(deps, context.userId, lead.webUrl.host))) counted = await countScanAgainstPlan(deps, context.userId);
    // A signed-in caller's lead is theirs: the audit goes to their account (their dashboard and history),
    // and no account is made for the form's email, which may be a colleague's.
    // An unproven address gets no account (and no email_verified) until its code is confirmed (confirm-address.ts).
    const account = context.userId
      ? { userId: context.userId, accountCreated: false }
      : lead.createAccount && !proofPending
        ? await ensureAccount(deps, lead)
        : { userId: undefined, accountCreated: false };
    // A scan-pack scan runs as the pack grants (deep); a free lead scan is standard.
    const depth = counted?.depth ?? FREE_REPORT_GRANTS.scanDepth;
    const storedAt = await store(deps, lead, answer, account.userId, context, mode, depth, proofPending ? { pending: true, createAccount: lead.createAccount } : undefined);
    await counted?.record({ auditId: answer.auditId, domain: site, createdAt: deps.clock.now().toISOString() });
    // A free lead's scan goes to the free queue; a signed-in user's counted scan where its plan says.
    await deps.scanJobs.enqueue({ auditId: answer.auditId, kind: 'scan', ...deepOnly(depth) }, counted?.lane ?? 'free');
    // A new lead is an interaction: the person's contact details are kept 3 years from it.
    await recordContactInteraction(deps, { email: lead.email, userId: account.userId }, storedAt);
    const confirmAddress = proofPending ? await mailAddressCode(deps, lead, site, context) : undefined;
    if (account.accountCreated || confirmAddress) await deps.idempotency.update(key, { ...answer, accountCreated: account.accountCreated, ...(confirmAddress ? { confirmAddress } : {}) });
    return { ...answer, accountCreated: account.accountCreated, scanned: true, ...(confirmAddress ? { confirmAddress } : {}) };
  } catch (error) {
    await counted?.giveBack();
    // Nothing answered for this key: an equal lead may try again at once.
    await deps.idempotency.release(key).catch((releaseError: unknown) => deps.log.warn('Could not release an idempotency key', { error: String(releaseError) }));
    throw error;
  }
}

/**
 * DECISIONS "Scan modes" (revised [attacker]): proof of control of the site's domain gets an active
 * scan: the signed-in caller's verified domain, or an email at that domain once the address is
 * proven (a code confirmed for it and the site, or the caller's own token's verified address). An
 * unproven address at the domain starts at once, passive, its proof pending. An emailed code to a
 * foreign address proves only the address: passive. Nothing proven: no scan.
 */
async function scanModeFor(deps: SubmitLeadDeps, lead: Lead, site: string, context: SubmitLeadContext): Promise<{ mode: ScanMode; proofPending: boolean } | undefined> {
  if (context.userId && (await isVerifiedDomainOf(deps, context.userId, lead.webUrl.host))) return { mode: 'active', proofPending: false };
  const addressProven = (context.verifiedEmail !== undefined && context.verifiedEmail === lead.email) || (await deps.verifications.isVerified(lead.email, site));
  if (mayScanAtOnce(lead.email, lead.webUrl.host)) return addressProven ? { mode: 'active', proofPending: false } : { mode: 'passive', proofPending: true };
  return addressProven ? { mode: 'passive', proofPending: false } : undefined;
}

/**
 * The code for a same-domain lead's address, with every limit of POST /api/verification-codes. Not
 * sent (a limit, the mail ceiling, mail refused): the lead still stands, passive, and says so.
 */
async function mailAddressCode(deps: SubmitLeadDeps, lead: Lead, site: string, context: SubmitLeadContext): Promise<ConfirmAddressPrompt> {
  try {
    await emailVerificationCode(deps, { email: lead.email, site, firstName: lead.firstName }, { sourceIp: context.sourceIp });
    return { email: lead.email, codeSent: true };
  } catch (error) {
    // A code sent for this address and site less than a minute ago is still valid: that one is the code to type.
    if (error instanceof RateLimitedError && error.message === verificationMessages.resendTooSoon) return { email: lead.email, codeSent: true };
    deps.log.warn('Could not mail the code of a same-domain lead', { error: String(error) });
    return { email: lead.email, codeSent: false };
  }
}

/** Equal leads: the same normalised fields and choices (the form's timing and honeypot aside), from the same caller. */
function idempotencyKey(lead: Lead, userId: string | undefined): string {
  const fields = [
    userId ?? null,
    lead.email,
    siteKey(lead.webUrl.host),
    lead.webUrl.url,
    lead.firstName,
    lead.lastName,
    lead.businessName,
    lead.mobileNumber,
    lead.createAccount,
    lead.sendLoginCredentials,
  ];
  return `lead:${createHash('sha256').update(JSON.stringify(fields)).digest('base64url')}`;
}

async function store(
  deps: SubmitLeadDeps,
  lead: Lead,
  answer: StoredAnswer,
  userId: string | undefined,
  context: SubmitLeadContext,
  mode: ScanMode,
  depth: ScanDepth,
  addressProof: Audit['addressProof'],
): Promise<Date> {
  const now = deps.clock.now().toISOString();
  const audit: Audit = {
    id: answer.auditId,
    leadId: answer.leadId,
    ownerId: userId,
    businessName: lead.businessName,
    targetUrl: lead.webUrl.url,
    host: lead.webUrl.host,
    status: 'queued',
    createdAt: now,
    checks: [],
    mode,
    ...deepOnly(depth),
    ...(addressProof ? { addressProof } : {}),
  };
  await deps.audits.createLeadWithAudit(
    {
      id: answer.leadId,
      firstName: lead.firstName,
      lastName: lead.lastName,
      businessName: lead.businessName,
      email: lead.email,
      mobileNumber: lead.mobileNumber,
      webUrl: lead.webUrl.url,
      host: lead.webUrl.host,
      sourceIp: context.sourceIp || undefined,
      userId,
      createdAt: now,
    },
    audit,
  );
  return new Date(now);
}

/**
 * `createAccount`: an existing user gets the audit attached and nothing else; a new email gets a
 * confirmed Cognito user and an email with a one-time link to choose its password (always — without
 * it the account could not be used, whatever `sendLoginCredentials` says).
 */
export async function ensureAccount(
  deps: Pick<SubmitLeadDeps, 'users' | 'accounts' | 'setPasswordLinks' | 'config' | 'clock' | 'log'> & NotifyDeps,
  lead: Pick<Lead, 'email' | 'firstName' | 'lastName' | 'businessName'>,
): Promise<{ userId: string; accountCreated: boolean }> {
  const existing = await deps.users.findUserIdByEmail(lead.email);
  if (existing) return { userId: existing, accountCreated: false };
  let userId: string;
  try {
    ({ userId } = await deps.users.createUser(
      { email: lead.email, givenName: lead.firstName, familyName: lead.lastName, company: lead.businessName },
      generateTemporaryPassword(),
    ));
  } catch (error) {
    // Another request created it a moment ago: attach to that one.
    if (!(error instanceof ConflictError)) throw error;
    const raced = await deps.users.findUserIdByEmail(lead.email);
    if (!raced) throw error;
    return { userId: raced, accountCreated: false };
  }
  // Issue 29 item 4: no password travels by email. The account is confirmed with a password nobody
  // knows (so "Forgot password" reaches it once the link has expired), and its owner gets a one-time
  // link to choose their own.
  await deps.users.setPermanentPassword(userId, generateTemporaryPassword());
  // The profile starts with what the lead told us, so the organisation has its company's name from the first sign-in on.
  await deps.accounts.getOrCreateProfile({ userId, email: lead.email, firstName: lead.firstName, lastName: lead.lastName, company: lead.businessName });
  try {
    const token = newSetPasswordToken();
    const now = deps.clock.now();
    await deps.setPasswordLinks.put({
      tokenHash: hashSetPasswordToken(token),
      userId,
      email: lead.email,
      createdAt: now.toISOString(),
      expiresAt: Math.floor(now.getTime() / 1000) + SET_PASSWORD_LINK_HOURS * 3600,
    });
    const brand = { productName: deps.config.PRODUCT_NAME, siteUrl: deps.config.SITE_URL };
    const email = accountCreatedEmail(brand, { to: lead.email, firstName: lead.firstName, setPasswordUrl: setPasswordUrl(deps.config.SITE_URL, token), validHours: SET_PASSWORD_LINK_HOURS });
    // Refused now, the notification outbox retries it; the answer does not wait for it either way.
    await notify(deps, { id: randomUUID(), kind: 'account-created', message: { channel: 'email', email }, about: { userId } });
  } catch (error) {
    // Not even stored (the table failing): the account exists either way; its owner can still choose a password with "Forgot password".
    deps.log.error('Could not store the set-password link of a new account', { userId, error: String(error) });
  }
  return { userId, accountCreated: true };
}
