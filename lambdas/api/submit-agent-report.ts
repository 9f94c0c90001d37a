import { submitAgentReport } from '../use-cases/agents.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** An agent's report (SPEC §3 payload) with its own token; the use case reads the body once the token is good (up to 1 MB). */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => ({
    status: 200,
    body: await submitAgentReport(deps, { authorization: request.header('authorization'), rawBody: request.rawBody() }),
  }));

