import { callerFrom } from '../use-cases/account.js';
import { removeAgent } from '../use-cases/agents.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** Removes one of the account's agents: 204; 404 when there is no such agent. The machine may then enrol anew. */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => {
    await removeAgent(deps, callerFrom(request.claims), request.path('agentId'));
    return { status: 204 };
  });
