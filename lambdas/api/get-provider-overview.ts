import { providerOverview } from '../use-cases/it-providers.js';
import { actingOf } from '../use-cases/organisations.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** The IT provider's overview: each client's domains, latest grades and overdue issues. */
export const make: HandlerFactory = (deps) => httpHandler(deps, async (request) => ({ status: 200, body: await providerOverview(deps, actingOf(request.claims)) }));
