import { callerFrom, getNotifications } from '../use-cases/account.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** Settings → Notifications: the four preferences (SPEC §3). */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => ({ status: 200, body: await getNotifications(deps, callerFrom(request.claims)) }));

