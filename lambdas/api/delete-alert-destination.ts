import { callerFrom } from '../use-cases/account.js';
import { deleteDestination } from '../use-cases/alert-destinations.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** Deletes one of the caller's destinations: 204; 404 when there is no such destination. */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => {
    await deleteDestination(deps, callerFrom(request.claims), request.path('destinationId'));
    return { status: 204 };
  });
