import { callerFrom } from '../use-cases/account.js';
import { revokeApiToken } from '../use-cases/api-tokens.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** Revokes one of the caller's API tokens: it stops working at once; 404 when there is no such token. */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => {
    await revokeApiToken(deps, callerFrom(request.claims), request.path('tokenId'));
    return { status: 204 };
  });

