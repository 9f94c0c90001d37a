import { emailSharedReport } from '../use-cases/audit-reports.js';
import { clientAddress } from './client-address.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** The shared page's 'Email Report': the link's token is the only key (issue 28 finding 11). */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => ({
    status: 200,
    body: await emailSharedReport(deps, request.path('shareToken'), request.json(), { sourceIp: clientAddress(request) }),
  }));
