import { callerFrom, getAccount } from '../use-cases/account.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** The signed-in user's profile (created on first read) and subscription. */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => ({ status: 200, body: await getAccount(deps, callerFrom(request.claims)) }));

