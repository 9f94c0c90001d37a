import { callerFrom } from '../use-cases/account.js';
import { myAgentsSummary } from '../use-cases/agents.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** SPEC §3 Agent summary, for all the user's agents or one domain's (`?domain=`). */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => ({
    status: 200,
    body: await myAgentsSummary(deps, callerFrom(request.claims).userId, request.event.queryStringParameters ?? {}),
  }));

