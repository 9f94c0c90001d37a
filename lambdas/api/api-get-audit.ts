import { apiGetAudit } from '../use-cases/api-tokens.js';
import { apiTokenHandler } from './api-token-auth.js';
import { type HandlerFactory } from './http.js';

/** `GET /api/v1/audits/{auditId}` with an API token: the owner's view of their audit; 404 for anyone else's. */
export const make: HandlerFactory = (deps) =>
  apiTokenHandler(deps, async (caller, request) => ({ status: 200, body: await apiGetAudit(deps, caller, request.path('auditId')) }));

