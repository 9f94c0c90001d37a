import { callerFrom, updateNotifications } from '../use-cases/account.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** Settings → Notifications: replaces the four preferences. */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => {
    const caller = callerFrom(request.claims);
    return { status: 200, body: await updateNotifications(deps, caller, request.json()) };
  });

