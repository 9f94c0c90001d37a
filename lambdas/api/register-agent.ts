import { registerAgent } from '../use-cases/agents.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** An installer registers its machine with the account's enrollment secret: 201 with the agent's own id and token. */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => ({
    status: 201,
    body: await registerAgent(deps, { authorization: request.header('authorization'), body: request.json(), sourceIp: request.sourceIp }),
  }));

