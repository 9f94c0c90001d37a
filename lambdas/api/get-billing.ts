import { callerFrom } from '../use-cases/account.js';
import { getBilling } from '../use-cases/payments.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** The subscription page: plan and usage, invoices, one-off orders, whether the portal can open, the subscriber discount. */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => ({ status: 200, body: await getBilling(deps, callerFrom(request.claims)) }));

