import { actingOf, listProvidersOf } from '../use-cases/organisations.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** Settings → Team: the IT providers that manage the acting organisation. */
export const make: HandlerFactory = (deps) => httpHandler(deps, async (request) => ({ status: 200, body: { providers: await listProvidersOf(deps, actingOf(request.claims)) } }));
