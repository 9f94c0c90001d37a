import { callerFrom } from '../use-cases/account.js';
import { listAlerts } from '../use-cases/monitoring.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** The alerts sent to the signed-in user, newest first (`limit` ≤ 50, opaque `cursor`). */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => ({ status: 200, body: await listAlerts(deps, callerFrom(request.claims), request.event.queryStringParameters ?? {}) }));

