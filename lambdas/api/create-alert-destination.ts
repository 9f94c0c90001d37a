import { callerFrom } from '../use-cases/account.js';
import { createDestination } from '../use-cases/alert-destinations.js';
import { personFrom } from '../use-cases/organisations.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** A new Slack, Teams or webhook destination (Monitor Plus): 201, with a webhook's signing secret shown this once. */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => ({ status: 201, body: await createDestination(deps, callerFrom(request.claims), request.json(), personFrom(request.claims).userId) }));
