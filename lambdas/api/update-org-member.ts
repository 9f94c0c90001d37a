import { actingOf, changeMemberRole } from '../use-cases/organisations.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** The owner changes a member's role (admin or viewer). */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => ({ status: 200, body: { member: await changeMemberRole(deps, actingOf(request.claims), request.path('memberId'), request.json()) } }));
