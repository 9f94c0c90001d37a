import { callerFrom } from '../use-cases/account.js';
import { createCheckoutSession } from '../use-cases/payments.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** A plan (and for an audit plan, the report it deepens) → 201 {url, sessionId}: Stripe Checkout or the local test checkout. */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => ({ status: 201, body: await createCheckoutSession(deps, callerFrom(request.claims), request.json()) }));

