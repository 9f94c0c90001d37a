import { useMutation, useQueryClient } from '@tanstack/react-query';
import { scanModeContent } from '../../../config/scan-modes';
import { ApiError, apiPost } from '../../../lib/api-client';
import type { UnlockResponse } from '../../../lib/contracts';
import { unlockMessages } from '../../../lib/report-contract';
import { routePath } from '../../../lib/route-path';

/** `POST /api/audits/{id}/unlock` (signed in): re-runs the owner's passive report as a full scan, once they verified its domain. */
export const unlockScan = (auditId: string): Promise<UnlockResponse> => apiPost<UnlockResponse>(routePath('unlock-scan', { auditId }), {});

/** Why an unlock was refused, by the API's stable code; `other` is anything else (a network failure, a 5xx). */
export type UnlockRefusal =
  | { code: 'signed_out' | 'domain_not_verified' | 'audit_forbidden' | 'already_active' | 'audit_scan_running' | 'audit_superseded'; message: string }
  | { code: 'other'; message: string };

/** The contract's words for each refusal (the API sends the same), so both pages say the same thing. */
export function unlockRefusal(error: unknown, domain: string): UnlockRefusal {
  if (!(error instanceof ApiError)) return { code: 'other', message: scanModeContent.unlock.failed };
  switch (error.code) {
    case 'domain_not_verified':
      // The server's words: not verified, or verified once and lapsed (with the date it was looked for).
      return { code: error.code, message: error.message || unlockMessages.notVerified(domain) };
    case 'proof_check_unavailable':
      // A proof due for a re-check whose DNS did not answer: nothing changed, try again later.
      return { code: 'other', message: error.message };
    case 'audit_forbidden':
      return { code: error.code, message: unlockMessages.notYours };
    case 'already_active':
      return { code: error.code, message: unlockMessages.alreadyActive };
    case 'audit_scan_running':
      return { code: error.code, message: unlockMessages.running };
    case 'audit_superseded':
      return { code: error.code, message: unlockMessages.superseded };
    default:
      if (error.status === 401) return { code: 'signed_out', message: error.message };
      return { code: 'other', message: error.status < 500 ? error.message : scanModeContent.unlock.failed };
  }
}

/**
 * Once queued, the full scan is a new report (issue 29 item 6; the caller goes there) and the partial
 * one is read afresh (it now links to it). A refusal that means the report changed (already active,
 * a scan running, replaced by a full scan) reads it again too.
 */
export function useUnlockScan(auditId: string) {
  const queryClient = useQueryClient();
  const reread = () => queryClient.invalidateQueries({ queryKey: ['audits', auditId], exact: true });
  return useMutation({
    mutationKey: ['audits', auditId, 'unlock'],
    mutationFn: () => unlockScan(auditId),
    // Reset, not invalidated: a page opened later must not show the copy without the link while it reads the new state.
    onSuccess: () => queryClient.resetQueries({ queryKey: ['audits', auditId], exact: true }),
    onError: (error) => {
      if (error instanceof ApiError && (error.code === 'already_active' || error.code === 'audit_scan_running' || error.code === 'audit_superseded')) void reread();
    },
  });
}
