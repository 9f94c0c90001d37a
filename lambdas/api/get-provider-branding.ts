import { getBranding } from '../use-cases/it-providers.js';
import { actingOf } from '../use-cases/organisations.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** The acting organisation's branding of its clients' reports (null: none). */
export const make: HandlerFactory = (deps) => httpHandler(deps, async (request) => ({ status: 200, body: { branding: await getBranding(deps, actingOf(request.claims)) } }));
