import { personFrom } from '../use-cases/organisations.js';
import { twoStepStatus } from '../use-cases/two-step.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** Settings → Security: whether two-step sign-in is on and whether the caller must keep it on. */
export const make: HandlerFactory = (deps) => httpHandler(deps, async (request) => ({ status: 200, body: await twoStepStatus(deps, personFrom(request.claims).userId) }));
