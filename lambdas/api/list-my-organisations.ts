import { listMyOrganisations, personFrom } from '../use-cases/organisations.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** The dashboard's organisation switcher: the person's own organisation and the ones they are a member of. */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => ({ status: 200, body: { organisations: await listMyOrganisations(deps, personFrom(request.claims)) } }));
