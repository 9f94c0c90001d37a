import { auditIdSchema } from '../domain/audit.js';
import { NotFoundError } from '../domain/errors.js';
import { httpHandler, lambdaEntry, type HandlerFactory } from './http.js';

export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => {
    const id = auditIdSchema.safeParse(request.path('auditId'));
    // A malformed id cannot name an audit: answer as for an unknown one, without a lookup.
    if (!id.success) throw new NotFoundError('audit_not_found', 'Audit not found');
    const audit = await deps.audits.getAudit(id.data);
    if (!audit) throw new NotFoundError('audit_not_found', 'Audit not found');
    return { status: 200, body: { audit } };
  });

export const handler = lambdaEntry('get-audit', make);
