import { getOrder } from '../use-cases/payments.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** The paid order for the payment pages; `status: 'pending'` until the webhook has recorded the payment. */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => ({ status: 200, body: await getOrder(deps, request.path('checkoutSessionId')) }));

