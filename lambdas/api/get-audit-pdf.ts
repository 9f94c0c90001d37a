import { pdfReportUrl } from '../use-cases/audit-reports.js';
import { httpHandler, type HandlerFactory } from './http.js';

export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => ({ status: 302, headers: { location: await pdfReportUrl(deps, request.path('auditId')) } }));

