import { callerFrom } from '../use-cases/account.js';
import { deletePolicy } from '../use-cases/security-policies.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** Removes one of the user's own policies (404 for anyone else's). */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => {
    await deletePolicy(deps, callerFrom(request.claims), request.path('domain'), request.path('findingId'));
    return { status: 204 };
  });

