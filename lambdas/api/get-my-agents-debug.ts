import { callerFrom } from '../use-cases/account.js';
import { myAgentsDebug } from '../use-cases/agents.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** The Local Agents page's API check (SPEC §3 Debug API response): reports received, the last one, five recent. */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => ({ status: 200, body: await myAgentsDebug(deps, callerFrom(request.claims).userId) }));

