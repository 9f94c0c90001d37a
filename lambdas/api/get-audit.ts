import { getAuditReport } from '../use-cases/audit-reports.js';
import { httpHandler, lambdaEntry, type HandlerFactory } from './http.js';

export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => {
    // Public route: claims are present only once a route verifies the owner's token (accounts), and
    // only then does the reply carry the owner's contact block.
    const userId = typeof request.claims?.sub === 'string' ? request.claims.sub : undefined;
    return { status: 200, body: await getAuditReport(deps, request.path('auditId'), { userId }) };
  });

export const handler = lambdaEntry('get-audit', make);
