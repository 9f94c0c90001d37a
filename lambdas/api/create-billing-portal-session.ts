import { callerFrom } from '../use-cases/account.js';
import { createBillingPortal } from '../use-cases/payments.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** Manage Billing: Stripe's customer portal (or the local one) → {url}; 409 before the first purchase. */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => ({ status: 200, body: await createBillingPortal(deps, callerFrom(request.claims)) }));

