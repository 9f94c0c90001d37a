import { callerFrom } from '../use-cases/account.js';
import { listApiTokens } from '../use-cases/api-tokens.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** Settings → API: the caller's tokens (never a secret or a hash) and whether their plan includes API access. */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => ({ status: 200, body: await listApiTokens(deps, callerFrom(request.claims)) }));

