import { actingOf, removeProvider } from '../use-cases/organisations.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** The owner ends an IT provider's access: its people stop acting in the organisation with this answer. */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => {
    await removeProvider(deps, actingOf(request.claims), request.path('providerId'));
    return { status: 204 };
  });
