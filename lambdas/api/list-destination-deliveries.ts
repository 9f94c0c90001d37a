import { callerFrom } from '../use-cases/account.js';
import { listDeliveries } from '../use-cases/alert-destinations.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** The delivery log of one of the caller's destinations: newest first, at most 50, 30 days. */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => ({ status: 200, body: await listDeliveries(deps, callerFrom(request.claims), request.path('destinationId')) }));
