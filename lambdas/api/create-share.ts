import { createShare } from '../use-cases/audit-reports.js';
import { httpHandler, lambdaEntry, type HandlerFactory } from './http.js';

export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => ({ status: 201, body: await createShare(deps, request.path('auditId')) }));

export const handler = lambdaEntry('create-share', make);
