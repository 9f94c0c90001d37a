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
 * Which report to send: the audit's own (its owner, known by the session's token the API client sends)
 * or a shared one, by the share link's token alone: the shared page never knows the audit's id (issue 28 finding 11).
 */
export type ReportEmailTarget = { auditId: string } | { shareToken: string };

export const emailReport = (target: ReportEmailTarget, email: string): Promise<SentReportEmail> =>
  'shareToken' in target
    ? apiPost<SentReportEmail>(routePath('email-shared-audit', { shareToken: target.shareToken }), { email })
    : apiPost<SentReportEmail>(routePath('email-audit', { auditId: target.auditId }), { email });

export const emailReportMutationOptions = (target: ReportEmailTarget) => ({
  mutationKey: 'shareToken' in target ? ['shared-audits', target.shareToken, 'email'] : ['audits', target.auditId, 'email'],
  mutationFn: (email: string) => emailReport(target, email),
});

export function useEmailReport(target: ReportEmailTarget) {
  return useMutation(emailReportMutationOptions(target));
}
