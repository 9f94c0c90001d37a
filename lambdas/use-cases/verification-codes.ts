import { randomUUID } from 'node:crypto';
import type { Deps } from '../composition.js';
import { parseContract } from '../domain/contract.js';
import { verificationCodeEmail } from '../domain/emails.js';
import { RateLimitedError } from '../domain/errors.js';
import { siteKey } from '../domain/target.js';
import { generateVerificationCode, hashVerificationCode, matchesVerificationCode, VerificationFailedError } from '../domain/verification-code.js';
import { sendVerificationCodeSchema, VERIFICATION, verificationMessages, verifyCodeSchema } from '../domain/verification.contract.js';
import { enforceLimits, mailCeiling } from './rate-limits.js';

export interface RequestContext {
  sourceIp: string;
}

type VerificationDeps = Pick<Deps, 'verifications' | 'rateLimits' | 'mailer' | 'clock' | 'config' | 'log' | 'metrics'>;

/**
 * Emails a six-digit code bound to the email and the site (SPEC §9 "Verification"): stored hashed,
 * valid 10 minutes, a new one for the same pair only after 60 s (which also resets the attempts).
 */
export async function sendVerificationCode(deps: VerificationDeps, input: unknown, context: RequestContext): Promise<{ verificationId: string }> {
  const request = parseContract(sendVerificationCodeSchema, input);
  return emailVerificationCode(deps, { email: request.email, site: siteKey(request.webUrl.host), firstName: request.firstName }, context);
}

/** The address and site a code is bound to (the email lower case, the site its site key). */
export interface CodeSubject {
  email: string;
  site: string;
  firstName?: string;
}

/**
 * Emails a code for `email` and `site` with every limit of POST /api/verification-codes (the resend
 * wait, the per-IP and per-email hourly limits, the mail ceiling). Also used by a lead whose address
 * is at the site's domain (DECISIONS "Scan modes" [attacker]): the same code, the same limits.
 */
export async function emailVerificationCode(deps: VerificationDeps, request: CodeSubject, context: RequestContext): Promise<{ verificationId: string }> {
  const site = request.site;
  const now = deps.clock.now();

  // The resend wait is answered before any counting, so pressing Resend early costs nothing.
  const current = await deps.verifications.getCode(request.email, site);
  if (current) {
    const waited = (now.getTime() - new Date(current.sentAt).getTime()) / 1000;
    if (waited < VERIFICATION.resendAfterSeconds) {
      throw new RateLimitedError(verificationMessages.resendTooSoon, Math.max(1, Math.ceil(VERIFICATION.resendAfterSeconds - waited)));
    }
  }
  await enforceLimits(
    deps.rateLimits,
    [
      { scope: 'code:ip', subject: context.sourceIp, perHour: deps.config.RATE_LIMIT_CODES_PER_IP },
      { scope: 'code:email', subject: request.email, perHour: deps.config.RATE_LIMIT_CODES_PER_EMAIL },
      mailCeiling(deps),
    ],
    'verification codes',
  );

  const code = generateVerificationCode();
  const { hash, salt } = await hashVerificationCode(code);
  const verificationId = randomUUID();
  const saved = await deps.verifications.saveCode(
    {
      verificationId,
      email: request.email,
      site,
      codeHash: hash,
      codeSalt: salt,
      attempts: 0,
      sentAt: now.toISOString(),
      expiresAt: Math.floor(now.getTime() / 1000) + VERIFICATION.validitySeconds,
    },
    VERIFICATION.resendAfterSeconds,
  );
  // Another send for the same pair won the race a moment ago.
  if (!saved.saved) throw new RateLimitedError(verificationMessages.resendTooSoon, saved.retryAfterSeconds);

  const brand = { productName: deps.config.PRODUCT_NAME, siteUrl: deps.config.SITE_URL };
  try {
    await deps.mailer.send(
      verificationCodeEmail(brand, {
        to: request.email,
        firstName: request.firstName || undefined,
        code,
        site,
        validMinutes: VERIFICATION.validitySeconds / 60,
      }),
    );
  } catch (error) {
    // A code nobody received must not block the next send for a minute.
    await deps.verifications.deleteCode(request.email, site, verificationId).catch(() => undefined);
    throw error;
  }
  return { verificationId };
}

/**
 * Checks a typed code. Every check counts (3 at most per code), wrong or right; the third wrong
 * one voids the code. A right one records that this email may start scans of this site for 24 h
 * (POST /api/leads reads that record) and uses the code up.
 */
export async function verifyCode(deps: VerificationDeps, input: unknown, context: RequestContext): Promise<{ verified: true }> {
  const request = parseContract(verifyCodeSchema, input);
  await checkVerificationCode(deps, { email: request.email, site: siteKey(request.webUrl.host) }, request.verificationCode, context);
  return { verified: true };
}

/**
 * The check behind POST /api/verification-codes/verify, for a code bound to `subject` (its limits,
 * attempts and expiry): throws VerificationFailedError unless `code` is that pair's current code;
 * a right one is recorded as verified and used up.
 */
export async function checkVerificationCode(
  deps: Pick<VerificationDeps, 'verifications' | 'rateLimits' | 'clock' | 'config'>,
  subject: Omit<CodeSubject, 'firstName'>,
  code: string,
  context: RequestContext,
): Promise<void> {
  const request = { email: subject.email, verificationCode: code };
  const site = subject.site;
  await enforceLimits(
    deps.rateLimits,
    [{ scope: 'verify:ip', subject: context.sourceIp, perHour: deps.config.RATE_LIMIT_CODE_CHECKS_PER_IP }],
    'verification attempts',
  );

  const stored = await deps.verifications.getCode(request.email, site);
  if (!stored) throw new VerificationFailedError('verification_expired', verificationMessages.missing, 0);
  if (stored.expiresAt * 1000 <= deps.clock.now().getTime()) {
    throw new VerificationFailedError('verification_expired', verificationMessages.expired, 0);
  }
  if (stored.attempts >= VERIFICATION.maxAttempts) throw new VerificationFailedError('verification_locked', verificationMessages.locked, 0);

  // Counted before comparing, with a condition, so parallel guesses cannot exceed the limit.
  const attempts = await deps.verifications.countAttempt(request.email, site, stored.verificationId, VERIFICATION.maxAttempts);
  if (attempts === undefined) throw new VerificationFailedError('verification_locked', verificationMessages.locked, 0);

  const remainingAttempts = VERIFICATION.maxAttempts - attempts;
  if (!(await matchesVerificationCode(request.verificationCode, { hash: stored.codeHash, salt: stored.codeSalt }))) {
    if (remainingAttempts === 0) throw new VerificationFailedError('verification_locked', verificationMessages.locked, 0);
    throw new VerificationFailedError('verification_failed', verificationMessages.failed, remainingAttempts);
  }
  await deps.verifications.markVerified(request.email, site, deps.clock.now().toISOString(), VERIFICATION.verifiedForSeconds);
  await deps.verifications.deleteCode(request.email, site, stored.verificationId);
}
