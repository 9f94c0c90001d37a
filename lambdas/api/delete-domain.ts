import { deleteDomain, userIdOf } from '../use-cases/domains.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** Removes one of the user's own domains (404 for anyone else's). */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => {
    await deleteDomain(deps, userIdOf(request.claims), request.path('domain'));
    return { status: 204 };
  });

