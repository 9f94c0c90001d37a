import type { Deps } from '../composition.js';
import type { Caller } from '../use-cases/account.js';
import { authenticateApiToken } from '../use-cases/api-tokens.js';
import { type ApiHandler, type ApiRequest, httpHandler, type Reply } from './http.js';

/**
 * The one door of the `api-token` routes (lambdas/routes.ts): no JWT authorizer runs before them,
 * so the handler authenticates `Authorization: Bearer rmp_…` here (401 `invalid_token`, 429, 403
 * `plan_required`) and hands the use case the token's owner.
 */
export function apiTokenHandler(deps: Deps, run: (caller: Caller, request: ApiRequest) => Promise<Reply>): ApiHandler {
  return httpHandler(deps, async (request) => run(await authenticateApiToken(deps, request.header('authorization')), request));
}
