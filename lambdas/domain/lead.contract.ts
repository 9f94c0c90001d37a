import * as z from 'zod';
import { toE164Mobile } from './phone.js';
import { singleLineText } from './single-line-text.js';
import { webUrlSchema } from './target.js';

/** Messages the spec quotes for the lead form (SPEC §5, DECISIONS "Field messages"). */
export const leadMessages = {
  allRequired: 'All fields are required',
  agreeRequired: 'Please agree to the terms and privacy policy',
  firstName: 'First name is required',
  lastName: 'Last name is required',
  businessName: 'Business name is required',
  webUrl: 'Please enter a valid URL',
  email: 'Please enter a valid email address',
  mobileNumber: 'Mobile number is required',
  mobileNumberInvalid: 'Please enter a valid mobile number',
  agreedToTerms: 'You must agree to the terms and conditions',
  agreedToDataCollection: 'You must agree to the privacy policy and data collection',
} as const;

/** The honeypot field's name: a plausible one, so form-filling bots fill it. */
export const HONEYPOT_FIELD = 'website';

/** Faster than this from showing the form to sending it, nobody typed six fields and ticked two boxes. */
export const MIN_FILL_MS = 3000;

const requiredText = (message: string, max = 200) =>
  z.string({ error: message }).trim().min(1, message).max(max, `At most ${max} characters`);

/** Names reach emails (the report email greets the lead): one line, no control or text-direction characters. */
const nameText = (message: string, max = 200) => singleLineText({ max, min: 1, required: message });

const mustAgree = (message: string) => z.literal(true, { error: message });

/** The free-scan lead: what the form sends to POST /api/leads. */
export const leadInputSchema = z.object({
  firstName: nameText(leadMessages.firstName, 100),
  lastName: nameText(leadMessages.lastName, 100),
  businessName: nameText(leadMessages.businessName),
  webUrl: webUrlSchema(leadMessages.webUrl),
  email: z
    .string({ error: leadMessages.email })
    .trim()
    .toLowerCase()
    .pipe(z.email({ error: leadMessages.email }).max(254, leadMessages.email)),
  /** DECISIONS "Mobile numbers": normalised to E.164; a number without "+" is read as Australian. */
  mobileNumber: requiredText(leadMessages.mobileNumber, 40).transform((value, ctx) => {
    const e164 = toE164Mobile(value);
    if (!e164) {
      ctx.addIssue({ code: 'custom', message: leadMessages.mobileNumberInvalid });
      return z.NEVER;
    }
    return e164;
  }),
  agreedToTerms: mustAgree(leadMessages.agreedToTerms),
  agreedToDataCollection: mustAgree(leadMessages.agreedToDataCollection),
  createAccount: z.boolean().default(false),
  sendLoginCredentials: z.boolean().default(false),
  /** Informational only: the server checks its own verification record, never this flag. */
  emailVerified: z.boolean().default(false),
  /** Honeypot: a field people never see, so it stays empty; anything in it marks a bot. */
  [HONEYPOT_FIELD]: z.string().max(2000).optional(),
  /** When the form was shown (ms since the epoch): a submission faster than a person can type marks a bot. */
  submittedAt: z.number().int().nonnegative().optional(),
});

export type LeadInput = z.input<typeof leadInputSchema>;
export type Lead = z.output<typeof leadInputSchema>;

/**
 * True when the submission was made by a form-filling bot: the honeypot holds something, or the
 * form was sent less than MIN_FILL_MS after it was shown, or "shown" in the future. A lead without
 * `submittedAt` (an API client, not the form) is judged by the other signals only.
 */
export function looksAutomated(lead: Pick<Lead, 'website' | 'submittedAt'>, now: Date): boolean {
  if (lead.website !== undefined && lead.website.trim() !== '') return true;
  if (lead.submittedAt === undefined) return false;
  const elapsed = now.getTime() - lead.submittedAt;
  return elapsed < MIN_FILL_MS;
}

const textFields = ['firstName', 'lastName', 'businessName', 'webUrl', 'email', 'mobileNumber'] as const;

/**
 * The form-level message: 'All fields are required' when a text field is missing or empty,
 * else the consent message when a box is unticked, else the first field's own message.
 */
export function summarizeLeadErrors(fields: Record<string, string>, input: unknown): string {
  const record = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  const missing = textFields.some((f) => typeof record[f] !== 'string' || (record[f] as string).trim() === '');
  if (missing) return leadMessages.allRequired;
  if (fields.agreedToTerms || fields.agreedToDataCollection) return leadMessages.agreeRequired;
  return Object.values(fields)[0] ?? leadMessages.allRequired;
}
