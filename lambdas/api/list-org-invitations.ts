import { actingOf, listInvitations } from '../use-cases/organisations.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** Settings → Team: the pending invitations (the tokens are never shown again). */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => ({ status: 200, body: { invitations: await listInvitations(deps, actingOf(request.claims)) } }));
