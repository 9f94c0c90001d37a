import { apiListAudits } from '../use-cases/api-tokens.js';
import { apiTokenHandler } from './api-token-auth.js';
import { type HandlerFactory } from './http.js';

/** `GET /api/v1/audits` with an API token: the owner's audits as `GET /api/me/audits` lists them. */
export const make: HandlerFactory = (deps) =>
  apiTokenHandler(deps, async (caller, request) => ({ status: 200, body: await apiListAudits(deps, caller, request.event.queryStringParameters ?? {}) }));

