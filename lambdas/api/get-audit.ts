import { getAuditReport } from '../use-cases/audit-reports.js';
import { httpHandler, type HandlerFactory } from './http.js';

export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => {
    // Public route with an optional token (routes.ts `optionalAuth`): claims only for a valid one, and
    // the reply carries the contact block only when that user owns the audit.
    const userId = typeof request.claims?.sub === 'string' ? request.claims.sub : undefined;
    return { status: 200, body: await getAuditReport(deps, request.path('auditId'), { userId }) };
  });

