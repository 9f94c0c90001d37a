import { requestOptOut } from '../use-cases/scanner-identity.js';
import { clientAddress } from './client-address.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** A site owner asks to opt out: a token and where to publish it (nothing is mailed). */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => ({ status: 201, body: await requestOptOut(deps, request.json(), clientAddress(request)) }));
