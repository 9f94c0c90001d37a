import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { apiGet, apiPost } from '../../../../lib/api-client';
import { routePath, type BillingPortalResponse, type BillingView } from '../../../../lib/contracts';
import { accountKeys } from '../../../account/api/account';

/** Under the account's keys, so whatever refreshes the account (a Quick Scan's usage) refreshes billing too. */
export const billingKey = () => [...accountKeys.all, 'billing'] as const;

/** `GET /api/me/billing`: the subscription, its invoices, one-off orders and whether the portal can open. */
export const billingQueryOptions = () =>
  queryOptions({ queryKey: billingKey(), queryFn: ({ signal }) => apiGet<BillingView>(routePath('get-billing'), { signal }) });

export function useBilling() {
  return useQuery(billingQueryOptions());
}

/** `POST /api/me/billing-portal`: the payment provider's customer portal (or the local one); 409 without a customer yet. */
export const createBillingPortalSession = (): Promise<BillingPortalResponse> =>
  apiPost<BillingPortalResponse>(routePath('create-billing-portal-session'), {});

export function useBillingPortal() {
  return useMutation({
    mutationFn: createBillingPortalSession,
    // The browser leaves for the portal; coming back reloads the page and its data.
    onSuccess: ({ url }) => window.location.assign(url),
  });
}
