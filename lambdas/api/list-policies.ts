import { callerFrom } from '../use-cases/account.js';
import { listPolicies } from '../use-cases/security-policies.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** The signed-in user's custom security policies (`?domain=` for one domain's), and whether their plan may add more. */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => ({ status: 200, body: await listPolicies(deps, callerFrom(request.claims), request.event.queryStringParameters ?? {}) }));

