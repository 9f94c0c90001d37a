import { callerFrom } from '../use-cases/account.js';
import { rescanPaidAudit } from '../use-cases/paid-rescan.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** The Pro Audit's free re-scan: 202 once queued; the report's own progress follows on GET /api/audits/{id}. */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => ({ status: 202, body: await rescanPaidAudit(deps, callerFrom(request.claims), request.path('auditId')) }));

