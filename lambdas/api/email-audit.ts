import { emailReport } from '../use-cases/audit-reports.js';
import { clientAddress } from './client-address.js';
import { httpHandler, type HandlerFactory } from './http.js';

export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => {
    // Public route with an optional token (routes.ts `optionalAuth`): the audit's owner is known by it;
    // anyone else needs a share link's token in the body.
    const userId = typeof request.claims?.sub === 'string' ? request.claims.sub : undefined;
    const caller = { userId, sourceIp: clientAddress(request) };
    return { status: 200, body: await emailReport(deps, request.path('auditId'), request.json(), caller) };
  });
