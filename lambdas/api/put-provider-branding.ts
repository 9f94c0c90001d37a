import { saveBranding } from '../use-cases/it-providers.js';
import { actingOf } from '../use-cases/organisations.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** Sets the name, colour and PNG logo its clients' reports carry. */
export const make: HandlerFactory = (deps) => httpHandler(deps, async (request) => ({ status: 200, body: { branding: await saveBranding(deps, actingOf(request.claims), request.json()) } }));
