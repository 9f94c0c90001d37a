import * as z from 'zod';
import { passwordPolicyProblems } from './password-policy.js';

/** The words of POST /api/account/password's answers, shared with the set-password page. */
export const setPasswordMessages = {
  tokenFormat: 'This link is not complete. Open the link from your email again, or copy all of it into the address bar.',
  linkNotValid: 'This link has been used already or is not valid. Sign in with your password, or choose a new one with "Forgot password".',
  linkExpired: 'This link has expired. Choose a password with "Forgot password" on the sign-in page: we email you a code.',
  passwordSet: 'Your password is set. You are signing in now.',
} as const;

/**
 * `POST /api/account/password`: the token from the emailed link and the password chosen. The
 * password is checked against the policy here, before the link is used, so a weak one never spends it.
 */
export const setPasswordSchema = z.object({
  token: z
    .string({ error: setPasswordMessages.tokenFormat })
    .regex(/^[A-Za-z0-9_-]{43}$/, setPasswordMessages.tokenFormat),
  password: z.string({ error: 'Choose a password.' }).superRefine((password, context) => {
    const problems = passwordPolicyProblems(password);
    if (problems.length > 0) context.addIssue({ code: 'custom', message: problems.join('. ') });
  }),
});

export type SetPasswordInput = z.input<typeof setPasswordSchema>;

export interface SetPasswordResponse {
  /** The account's address, so the page can sign in with it and the new password. */
  email: string;
  message: string;
}
