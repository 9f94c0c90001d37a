import { callerFrom } from '../use-cases/account.js';
import { updateDestination } from '../use-cases/alert-destinations.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** Renames, readdresses, re-chooses the events of, enables or disables one of the caller's destinations. */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => ({ status: 200, body: await updateDestination(deps, callerFrom(request.claims), request.path('destinationId'), request.json()) }));
