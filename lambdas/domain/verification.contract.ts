import * as z from 'zod';
import { singleLineText } from './single-line-text.js';
import { webUrlSchema } from './target.js';

/** SPEC §9 "Verification": the constants both the modal and the API follow. */
export const VERIFICATION = {
  codeLength: 6,
  /** A code is valid for 600 s (the modal counts it down as m:ss). */
  validitySeconds: 600,
  /** A new code for the same email and site only after 60 s. */
  resendAfterSeconds: 60,
  maxAttempts: 3,
  /** How long a verified email may start scans of the site without a new code. */
  verifiedForSeconds: 24 * 3600,
} as const;

/** Texts the spec quotes (SPEC §5 "Verification code", §8 "Verification"), and Rampart's own. */
export const verificationMessages = {
  codeFormat: 'Verification code must be 6 digits',
  failed: 'Verification failed',
  locked: 'Too many incorrect attempts. Please request a new code.',
  expired: 'This verification code has expired. Please request a new code.',
  missing: 'No verification code was sent for this email address and website. Please request a new code.',
  resendTooSoon: 'A code was sent less than a minute ago. Please wait before asking for another.',
  email: 'Please enter a valid email address',
  webUrl: 'Please enter a valid URL',
  required: 'Verification required',
} as const;

/** '2 attempts remaining', '1 attempt remaining'. */
export const attemptsRemainingText = (remaining: number): string => `${remaining} ${remaining === 1 ? 'attempt' : 'attempts'} remaining`;

/**
 * A wrong code, said so that the person knows what is left and what to do (the API's
 * `remainingAttempts`): the spec's 'Verification failed' first, then the attempts left and the way
 * on; none left is the locked message (a new code is the only way).
 */
export function wrongCodeMessage(remainingAttempts: number): string {
  if (remainingAttempts <= 0) return verificationMessages.locked;
  return `${verificationMessages.failed}: that is not the code we sent. ${attemptsRemainingText(remainingAttempts)}. Check the newest email from us for the ${VERIFICATION.codeLength}-digit code, or ask for a new code.`;
}

const email = z
  .string({ error: verificationMessages.email })
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: verificationMessages.email }).max(254, verificationMessages.email));

/** A name given with the request: one line, no control or text-direction characters (issue 28 finding 9). */
const optionalText = (max: number) => singleLineText({ max }).optional().default('');

/** POST /api/verification-codes: what the modal sends to have a code emailed. */
export const sendVerificationCodeSchema = z.object({
  email,
  webUrl: webUrlSchema(verificationMessages.webUrl),
  firstName: optionalText(100),
  businessName: optionalText(200),
});

/** POST /api/verification-codes/verify: the code the visitor typed. */
export const verifyCodeSchema = z.object({
  email,
  webUrl: webUrlSchema(verificationMessages.webUrl),
  verificationCode: z
    .string({ error: verificationMessages.codeFormat })
    .trim()
    .regex(/^\d{6}$/, verificationMessages.codeFormat),
});

export type SendVerificationCodeInput = z.input<typeof sendVerificationCodeSchema>;
export type VerifyCodeInput = z.input<typeof verifyCodeSchema>;

/** The answers. A failed check answers `{error, message, remainingAttempts}`. */
export interface SendVerificationCodeResponse {
  verificationId: string;
}
export interface VerifyCodeResponse {
  verified: true;
}
