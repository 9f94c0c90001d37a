import { callerFrom } from '../use-cases/account.js';
import { listSupportRequests } from '../use-cases/support-requests.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** The signed-in user's own support requests, newest first, and the support their plan gives. */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => ({ status: 200, body: await listSupportRequests(deps, callerFrom(request.claims)) }));

