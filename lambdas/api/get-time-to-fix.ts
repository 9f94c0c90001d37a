import { callerFrom } from '../use-cases/account.js';
import { timeToFixOf } from '../use-cases/time-to-fix.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** The signed-in user's time-to-fix figures over their own domains (`?domain=` narrows to one). */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => ({ status: 200, body: await timeToFixOf(deps, callerFrom(request.claims), request.event.queryStringParameters ?? {}) }));
