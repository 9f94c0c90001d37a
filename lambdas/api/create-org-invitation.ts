import { actingOf, inviteMember, personFrom } from '../use-cases/organisations.js';
import { clientAddress } from './client-address.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** The owner invites someone by email with a role: 201; the link goes to the invitee's mailbox only. */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => ({
    status: 201,
    body: { invitation: await inviteMember(deps, actingOf(request.claims), personFrom(request.claims).email, request.json(), clientAddress(request)) },
  }));
