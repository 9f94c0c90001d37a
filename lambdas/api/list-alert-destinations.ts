import { callerFrom } from '../use-cases/account.js';
import { listDestinations } from '../use-cases/alert-destinations.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** Settings → Alert destinations: the caller's destinations (addresses masked, no secret) and whether the plan includes them. */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => ({ status: 200, body: await listDestinations(deps, callerFrom(request.claims)) }));
