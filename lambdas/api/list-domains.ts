import { listDomains, userIdOf } from '../use-cases/domains.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** Settings → Domains: the signed-in user's own domains. */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => ({ status: 200, body: { domains: await listDomains(deps, userIdOf(request.claims)) } }));

