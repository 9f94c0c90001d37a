import { callerFrom, exportAccount } from '../use-cases/account.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** "Download my data" (DECISIONS "Retention and rights"): the caller's profile, leads and audits. */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => {
    const caller = callerFrom(request.claims);
    const body = await exportAccount(deps, caller);
    return { status: 200, body, headers: { 'content-disposition': `attachment; filename="my-data-${body.exportedAt.slice(0, 10)}.json"` } };
  });

