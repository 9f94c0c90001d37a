import { removeMemberEndingAccess } from '../use-cases/access-ends.js';
import { actingOf, personFrom } from '../use-cases/organisations.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** The owner removes a member: their access ends with this answer, and their tokens and destinations with it (issue 28). */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => {
    await removeMemberEndingAccess(deps, actingOf(request.claims), personFrom(request.claims).email, request.path('memberId'));
    return { status: 204 };
  });
