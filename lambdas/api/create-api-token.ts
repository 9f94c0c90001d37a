import { callerFrom } from '../use-cases/account.js';
import { createApiToken } from '../use-cases/api-tokens.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** A new personal API token (Monitor Plus): 201 with the secret, shown this once. */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => ({ status: 201, body: await createApiToken(deps, callerFrom(request.claims), request.json()) }));

