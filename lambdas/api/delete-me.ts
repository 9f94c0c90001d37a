import { callerFrom, deleteAccount } from '../use-cases/account.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** Deletes the signed-in account and the person's data (Settings → Security); 204 again when repeated. */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => {
    await deleteAccount(deps, callerFrom(request.claims));
    return { status: 204 };
  });

