import { actingOf, removeMember } from '../use-cases/organisations.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** The owner removes a member: their access ends with this answer. */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => {
    await removeMember(deps, actingOf(request.claims), request.path('memberId'));
    return { status: 204 };
  });
