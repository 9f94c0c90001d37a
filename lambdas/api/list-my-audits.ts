import { callerFrom, listHistory } from '../use-cases/account.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** The caller's audit history, newest first (`limit` ≤ 100, opaque `cursor`). */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => {
    const caller = callerFrom(request.claims);
    return { status: 200, body: await listHistory(deps, caller, request.event.queryStringParameters ?? {}) };
  });

