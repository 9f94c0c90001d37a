import { useMutation } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api-client';
import { routePath } from '../../../lib/route-path';

/** `POST /api/audits/{id}/shares`: a link that opens the report read-only for 24 hours. */
export interface CreatedShare {
  shareToken: string;
  url: string;
  expiresAt: string;
  maxUses?: number;
}

/**
 * The API client sends the session's token when someone is signed in: a link the report's owner makes
 * that way may also email the report (`canEmail` on the shared page); one made signed out only opens it.
 */
export const createShare = (auditId: string): Promise<CreatedShare> =>
  apiPost<CreatedShare>(routePath('create-share', { auditId }), {});

export const createShareMutationOptions = (auditId: string) => ({
  mutationKey: ['audits', auditId, 'shares'],
  mutationFn: () => createShare(auditId),
});

export function useCreateShare(auditId: string) {
  return useMutation(createShareMutationOptions(auditId));
}
