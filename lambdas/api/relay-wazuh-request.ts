import { userIdOf } from '../use-cases/domains.js';
import { relayWazuhRequest } from '../use-cases/wazuh-relay.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** The Wazuh tester's relay for managers without CORS: signed-in users only, public targets only. */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => ({ status: 200, body: await relayWazuhRequest(deps, userIdOf(request.claims), request.json()) }));

