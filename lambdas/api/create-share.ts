import { createShare } from '../use-cases/audit-reports.js';
import { httpHandler, type HandlerFactory } from './http.js';

export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => ({ status: 201, body: await createShare(deps, request.path('auditId')) }));

