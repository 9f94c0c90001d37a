import { handleWebhook } from '../use-cases/payments.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** Stripe's events, verified over the raw body with the Stripe-Signature header; 200 once processed (or a replay). */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => ({ status: 200, body: await handleWebhook(deps, request.rawBody(), request.header('stripe-signature')) }));

