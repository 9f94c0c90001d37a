import { callerFrom } from '../use-cases/account.js';
import { sendTestAlert } from '../use-cases/alert-destinations.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** "Send test": one test alert posted now to one of the caller's destinations; 200 with the delivery, whatever the receiver answered. */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => ({ status: 200, body: await sendTestAlert(deps, callerFrom(request.claims), request.path('destinationId')) }));
