import { removeProviderEndingAccess } from '../use-cases/access-ends.js';
import { actingOf, personFrom } from '../use-cases/organisations.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** The owner ends an IT provider's access: its people stop acting in the organisation, and what they made there ends (issue 28). */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => {
    await removeProviderEndingAccess(deps, actingOf(request.claims), personFrom(request.claims).email, request.path('providerId'));
    return { status: 204 };
  });
