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

/**
 * The audit's owner is known by the session's token (the API client sends it); someone the report
 * was shared with sends the share link's token instead.
 */
export const emailReport = (auditId: string, email: string, shareToken?: string): Promise<SentReportEmail> =>
  apiPost<SentReportEmail>(routePath('email-audit', { auditId }), shareToken ? { email, shareToken } : { email });

export const emailReportMutationOptions = (auditId: string, shareToken?: string) => ({
  mutationKey: ['audits', auditId, 'email'],
  mutationFn: (email: string) => emailReport(auditId, email, shareToken),
});

export function useEmailReport(auditId: string, shareToken?: string) {
  return useMutation(emailReportMutationOptions(auditId, shareToken));
}
