import { z } from 'zod';
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
  agreedToTerms: 'You must agree to the terms and conditions',
  agreedToDataCollection: 'You must agree to the privacy policy and data collection',
} as const;

const requiredText = (message: string, max = 200) =>
  z.string({ error: message }).trim().min(1, message).max(max, `At most ${max} characters`);

const mustAgree = (message: string) => z.literal(true, { error: message });

/** The free-scan lead: what the form sends to POST /api/leads. */
export const leadInputSchema = z.object({
  firstName: requiredText(leadMessages.firstName, 100),
  lastName: requiredText(leadMessages.lastName, 100),
  businessName: requiredText(leadMessages.businessName),
  webUrl: webUrlSchema(leadMessages.webUrl),
  email: z
    .string({ error: leadMessages.email })
    .trim()
    .toLowerCase()
    .pipe(z.email({ error: leadMessages.email }).max(254, leadMessages.email)),
  mobileNumber: requiredText(leadMessages.mobileNumber, 32),
  agreedToTerms: mustAgree(leadMessages.agreedToTerms),
  agreedToDataCollection: mustAgree(leadMessages.agreedToDataCollection),
  createAccount: z.boolean().default(false),
  sendLoginCredentials: z.boolean().default(false),
  emailVerified: z.boolean().default(false),
});

export type LeadInput = z.input<typeof leadInputSchema>;
export type Lead = z.output<typeof leadInputSchema>;

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
