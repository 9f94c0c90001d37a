import { callerFrom } from '../use-cases/account.js';
import { getAgentEnrollment } from '../use-cases/agents.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** The Install Agent tab: the enrollment secret (issued on first use), the installers, the API base. */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => ({ status: 200, body: await getAgentEnrollment(deps, callerFrom(request.claims)) }));

