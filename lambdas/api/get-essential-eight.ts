import { userIdOf } from '../use-cases/domains.js';
import { essentialEightOf } from '../use-cases/essential-eight.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** Issue 21: the Essential Eight readiness view (Maturity Level One) of one of the user's domains. */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => ({ status: 200, body: await essentialEightOf(deps, userIdOf(request.claims), request.path('domain')) }));
