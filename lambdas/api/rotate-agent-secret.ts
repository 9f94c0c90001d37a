import { callerFrom } from '../use-cases/account.js';
import { rotateAgentSecret } from '../use-cases/agents.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** A new enrollment secret: the old one registers nothing from now on; registered agents keep reporting. */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => ({ status: 200, body: await rotateAgentSecret(deps, callerFrom(request.claims)) }));

