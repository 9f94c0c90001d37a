import { emailReport } from '../use-cases/audit-reports.js';
import { httpHandler, type HandlerFactory } from './http.js';

export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => ({ status: 200, body: await emailReport(deps, request.path('auditId'), request.json()) }));

