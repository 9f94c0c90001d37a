import { apiPost } from '../../../lib/api-client';
import type { CheckoutRequest, CheckoutSessionResponse } from '../../../lib/contracts';
import { routePath } from '../../../lib/route-path';

/**
 * `POST /api/checkout-sessions` (signed in): the payment provider's checkout for one plan, or the
 * local test checkout when no provider key is configured. Either way the answer is a URL to leave for.
 */
export const createCheckoutSession = (request: CheckoutRequest): Promise<CheckoutSessionResponse> =>
  apiPost<CheckoutSessionResponse>(routePath('create-checkout-session'), request);
