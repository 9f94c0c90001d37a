import * as z from 'zod';
import { verificationMessages } from './verification.contract.js';

export { addressProofMessages } from './address-proof-messages.js';

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
