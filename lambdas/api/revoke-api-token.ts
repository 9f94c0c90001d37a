import { callerFrom } from '../use-cases/account.js';
import { recordTokenEvent } from '../use-cases/access-ends.js';
import { revokeApiToken } from '../use-cases/api-tokens.js';
import { actingOf, personFrom } from '../use-cases/organisations.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** Revokes one of the caller's API tokens: it stops working at once; 404 when there is no such token. Logged (issue 28). */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => {
    await revokeApiToken(deps, callerFrom(request.claims), request.path('tokenId'));
    await recordTokenEvent(deps, actingOf(request.claims), personFrom(request.claims).email, 'api-token-revoked', request.path('tokenId') ?? '');
    return { status: 204 };
  });
