import { useMutation } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api-client';
import { reportEmailMessages, routePath } from '../../../lib/contracts';

/** `POST /api/audits/{id}/email` answers with the address it sent to (lower-cased) and a sentence to show. */
export interface SentReportEmail {
  sent: boolean;
  email: string;
  message: string;
}

/** SPEC §8 alert for an empty address: the API's own message. */
export const EMPTY_EMAIL_MESSAGE = reportEmailMessages.empty;

export const emailReport = (auditId: string, email: string): Promise<SentReportEmail> =>
  apiPost<SentReportEmail>(routePath('email-audit', { auditId }), { email });

export const emailReportMutationOptions = (auditId: string) => ({
  mutationKey: ['audits', auditId, 'email'],
  mutationFn: (email: string) => emailReport(auditId, email),
});

export function useEmailReport(auditId: string) {
  return useMutation(emailReportMutationOptions(auditId));
}
