import { callerFrom } from '../use-cases/account.js';
import { unlockScan } from '../use-cases/unlock-scan.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** A passive report's full scan, once the caller verified the domain: 202 once queued; progress follows on GET /api/audits/{id}. */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => ({ status: 202, body: await unlockScan(deps, callerFrom(request.claims), request.path('auditId')) }));
