import { setPasswordWithLink } from '../use-cases/set-password.js';
import { clientAddress } from './client-address.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** A lead-created account's owner chooses their password with the emailed one-time link. */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => ({ status: 200, body: await setPasswordWithLink(deps, request.json(), { sourceIp: clientAddress(request) }) }));
