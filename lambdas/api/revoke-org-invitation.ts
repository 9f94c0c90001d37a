import { actingOf, revokeInvitation } from '../use-cases/organisations.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** The owner withdraws a pending invitation: its link stops working. */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => {
    await revokeInvitation(deps, actingOf(request.claims), request.path('invitationId'));
    return { status: 204 };
  });
