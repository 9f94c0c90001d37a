import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, apiGet } from '../../../lib/api-client';
import { routePath, type OrderView } from '../../../lib/contracts';

/** Our code for an order the payment provider's webhook has not confirmed yet (the API answers it with `status: 'pending'`). */
export const ORDER_PENDING = 'order_pending';
/** How long the payment pages wait for the webhook before giving up (issue 8: "up to ~20 s"). */
export const ORDER_WAIT_MS = 20_000;
export const ORDER_RETRY_MS = 2_000;

/**
 * `GET /api/orders/{checkoutSessionId}`: the stored order, the server's own record of the payment,
 * never the address bar's word for it. An order still `pending` (an asynchronous payment method)
 * is not confirmed yet either, so it is treated like the webhook's not having arrived.
 */
export async function getOrder(checkoutSessionId: string, signal?: AbortSignal): Promise<OrderView> {
  const order = await apiGet<OrderView>(routePath('get-order', { checkoutSessionId }), { signal });
  if (order.status !== 'paid') throw new ApiError(404, ORDER_PENDING, 'The payment is not confirmed yet.');
  return order;
}

const isPending = (error: unknown): boolean => error instanceof ApiError && error.code === ORDER_PENDING;

export const orderQueryOptions = (checkoutSessionId: string) =>
  queryOptions({
    queryKey: ['orders', checkoutSessionId],
    queryFn: ({ signal }) => getOrder(checkoutSessionId, signal),
    // Only the webhook's delay is worth waiting for; any other failure answers the same next time.
    retry: (failureCount, error) => isPending(error) && failureCount < ORDER_WAIT_MS / ORDER_RETRY_MS,
    retryDelay: ORDER_RETRY_MS,
    staleTime: Infinity,
  });

/** The order behind a checkout session; `enabled` false without a session id. */
export function useOrder(checkoutSessionId: string | null) {
  return useQuery({ ...orderQueryOptions(checkoutSessionId ?? ''), enabled: Boolean(checkoutSessionId) });
}
