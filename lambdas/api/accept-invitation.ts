import { acceptInvitation, personFrom } from '../use-cases/organisations.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** The invitee, signed in with the invited address, joins the organisation: 200 with it. */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => ({ status: 200, body: { organisation: await acceptInvitation(deps, personFrom(request.claims), request.json()) } }));
