import { actingOf, leaveOrganisation } from '../use-cases/organisations.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** A member leaves the organisation the request acts on (X-Rampart-Org). */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => {
    await leaveOrganisation(deps, actingOf(request.claims));
    return { status: 204 };
  });
