import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api-client';
import type { ConfirmAddressResponse } from '../../../lib/contracts';
import { routePath } from '../../../lib/route-path';

/** `POST /api/audits/{id}/confirm-address` (public): the code mailed to a same-domain lead's address; the report is rescanned active. */
export const confirmAddress = (auditId: string, verificationCode: string): Promise<ConfirmAddressResponse> =>
  apiPost<ConfirmAddressResponse>(routePath('confirm-address', { auditId }), { verificationCode });

/** As the unlock: once queued, the partial report is read afresh (it links to the new one the full scan makes). */
export function useConfirmAddress(auditId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['audits', auditId, 'confirm-address'],
    mutationFn: (code: string) => confirmAddress(auditId, code),
    onSuccess: () => queryClient.resetQueries({ queryKey: ['audits', auditId], exact: true }),
  });
}
