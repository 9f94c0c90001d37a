import { callerFrom, updateAccount } from '../use-cases/account.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** Settings → Profile: first and last name, company, mobile number (E.164). */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => {
    const caller = callerFrom(request.claims);
    return { status: 200, body: await updateAccount(deps, caller, request.json()) };
  });

