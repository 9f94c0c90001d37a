import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiPost } from '../../../lib/api-client';
import type { BillingView, FreeRescanResponse } from '../../../lib/contracts';
import { routePath } from '../../../lib/route-path';

/** `POST /api/audits/{id}/rescans`: the Pro Audit's free re-scan (owner only, once, within 30 days). */
export const rescanPaidAudit = (auditId: string): Promise<FreeRescanResponse> =>
  apiPost<FreeRescanResponse>(routePath('rescan-paid-audit', { auditId }), {});

/** Once queued, the report is read again: its status turns to queued and the page shows the scan's progress. */
export function useRescanPaidAudit(auditId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['audits', auditId, 'rescans'],
    mutationFn: () => rescanPaidAudit(auditId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['audits', auditId], exact: true }),
  });
}

/**
 * Whether the signed-in user bought this report's Pro Audit, from their own orders (`GET /api/me/billing`):
 * the report is public and does not name its owner, and checkout sells an audit only to its owner.
 */
export function useBoughtProAudit(auditId: string, enabled: boolean) {
  return useQuery({
    queryKey: ['audits', auditId, 'pro-purchase'],
    queryFn: ({ signal }) => apiGet<BillingView>(routePath('get-billing'), { signal }),
    select: (billing) => billing.orders.some((order) => order.auditId === auditId && order.planId === 'pro-audit' && order.status === 'paid'),
    enabled,
    staleTime: Infinity,
  });
}
