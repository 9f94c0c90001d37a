import { userIdOf } from '../use-cases/domains.js';
import { relayWazuhRequest } from '../use-cases/wazuh-relay.js';
import { httpHandler, lambdaEntry, type HandlerFactory } from './http.js';

/** The Wazuh tester's relay for managers without CORS: signed-in users only, public targets only. */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => ({ status: 200, body: await relayWazuhRequest(deps, userIdOf(request.claims), request.json()) }));

export const handler = lambdaEntry('relay-wazuh-request', make);
