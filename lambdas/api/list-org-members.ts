import { actingOf, listMembers } from '../use-cases/organisations.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** Settings → Team: the acting organisation's owner and members, and the caller's role. */
export const make: HandlerFactory = (deps) => httpHandler(deps, async (request) => ({ status: 200, body: await listMembers(deps, actingOf(request.claims)) }));
