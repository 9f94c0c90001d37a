import { leaveEndingAccess } from '../use-cases/access-ends.js';
import { actingOf, personFrom } from '../use-cases/organisations.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** A member leaves the organisation the request acts on (X-Rampart-Org); their tokens and destinations there end with it (issue 28). */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => {
    await leaveEndingAccess(deps, actingOf(request.claims), personFrom(request.claims).email);
    return { status: 204 };
  });
