import * as z from 'zod';
import { verificationMessages } from './verification.contract.js';

/**
 * DECISIONS "Scan modes" [attacker]: a lead whose address is at the site's domain proves it with
 * the code mailed to it; until then its report is passive. Shared by the API and the results page.
 */
export const addressProofMessages = {
  prompt: (email: string | undefined) => `We emailed a code to ${email ?? 'your address'}: type it to run the full scan`,
  started: 'Address confirmed: the full scan has started, and the report updates as each check finishes.',
  notPending: 'This report is not waiting for an address to be confirmed.',
  running: 'This report is being scanned right now. Type the code once the report is ready.',
} as const;

/** `POST /api/audits/{auditId}/confirm-address`: the code mailed to the lead's address. */
export const confirmAddressSchema = z.object({
  verificationCode: z
    .string({ error: verificationMessages.codeFormat })
    .trim()
    .regex(/^\d{6}$/, verificationMessages.codeFormat),
});

export type ConfirmAddressInput = z.input<typeof confirmAddressSchema>;

export interface ConfirmAddressResponse {
  auditId: string;
  status: 'queued';
  mode: 'active';
  /** True when the lead asked for an account and it was created now (for the proven address). */
  accountCreated: boolean;
  message: string;
}

/** In the 201 answer of POST /api/leads when the address must still be proven: where the code went. */
export interface ConfirmAddressPrompt {
  email: string;
  /** False when no code could be sent now (a limit, the mail ceiling): the report stays passive until one is. */
  codeSent: boolean;
}
