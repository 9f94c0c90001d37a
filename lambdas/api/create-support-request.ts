import { callerFrom } from '../use-cases/account.js';
import { createSupportRequest } from '../use-cases/support-requests.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** The Support page's form: stored, sent to the support mailbox marked with the plan, acknowledged to the user. */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => ({ status: 201, body: await createSupportRequest(deps, callerFrom(request.claims), request.json()) }));

