import { apiStartScan } from '../use-cases/api-tokens.js';
import { apiTokenHandler } from './api-token-auth.js';
import { type HandlerFactory } from './http.js';

/** `POST /api/v1/scans {domain}` with an API token: the Quick Scan of a verified domain, counted against the plan. */
export const make: HandlerFactory = (deps) =>
  apiTokenHandler(deps, async (caller, request) => ({ status: 201, body: await apiStartScan(deps, caller, request.json()) }));

