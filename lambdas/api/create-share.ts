import { createShare } from '../use-cases/audit-reports.js';
import { httpHandler, type HandlerFactory } from './http.js';

export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => {
    // Public route with an optional token (routes.ts `optionalAuth`): a link the audit's signed-in owner
    // makes may also email the report; anyone else's only opens it.
    const userId = typeof request.claims?.sub === 'string' ? request.claims.sub : undefined;
    return { status: 201, body: await createShare(deps, request.path('auditId'), { userId }) };
  });
