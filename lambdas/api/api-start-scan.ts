import { startScanRequestSchema } from '../domain/api-v1.contract.js';
import { parseContract } from '../domain/contract.js';
import { apiStartScan } from '../use-cases/api-tokens.js';
import { apiTokenHandler } from './api-token-auth.js';
import { type HandlerFactory } from './http.js';

/**
 * `POST /api/v1/scans {domain}` with an API token: the Quick Scan of a verified domain, counted
 * against the plan. The body is held to the contract the OpenAPI document publishes (no other field).
 */
export const make: HandlerFactory = (deps) =>
  apiTokenHandler(deps, async (caller, request) => ({
    status: 201,
    body: await apiStartScan(deps, caller, parseContract(startScanRequestSchema, request.json())),
  }));
