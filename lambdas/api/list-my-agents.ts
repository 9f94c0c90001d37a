import { callerFrom } from '../use-cases/account.js';
import { listMyAgents } from '../use-cases/agents.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** The signed-in user's agents, scored (SPEC §3 Agent). */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => ({ status: 200, body: await listMyAgents(deps, callerFrom(request.claims).userId) }));

