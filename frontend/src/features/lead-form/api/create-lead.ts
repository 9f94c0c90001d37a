import { useMutation } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api-client';
import type { ConfirmAddressPrompt } from '../../../lib/contracts';
import { routePath } from '../../../lib/route-path';

/** What the form sends to `POST /api/leads`: the lead fields, the choices and the bot signals. */
export interface CreateLeadPayload {
  firstName: string;
  lastName: string;
  businessName: string;
  webUrl: string;
  email: string;
  mobileNumber: string;
  agreedToTerms: boolean;
  agreedToDataCollection: boolean;
  createAccount: boolean;
  sendLoginCredentials: boolean;
  emailVerified: boolean;
  /** The honeypot (HONEYPOT_FIELD): empty unless a bot filled it. */
  website: string;
  /** When the form was shown, ms since the epoch. */
  submittedAt: number;
}

export interface CreateLeadResponse {
  auditId: string;
  accountCreated: boolean;
  leadId: string;
  /** DECISIONS "Scan modes" [attacker]: the address is at the site's domain but unproven: the scan runs passive until the code mailed to it is typed. */
  confirmAddress?: ConfirmAddressPrompt;
}

export const createLead = (payload: CreateLeadPayload): Promise<CreateLeadResponse> =>
  apiPost<CreateLeadResponse>(routePath('create-lead'), payload);

export const createLeadMutationOptions = () => ({ mutationKey: ['leads', 'create'], mutationFn: createLead });

export function useCreateLead() {
  return useMutation(createLeadMutationOptions());
}
