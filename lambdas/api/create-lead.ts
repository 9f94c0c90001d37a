import { submitLead } from '../use-cases/submit-lead.js';
import { clientAddress } from './client-address.js';
import { httpHandler, lambdaEntry, type HandlerFactory } from './http.js';

export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => {
    const result = await submitLead(deps, request.json(), { sourceIp: clientAddress(request), userAgent: request.userAgent });
    return {
      status: result.scanned ? 201 : 200,
      body: { auditId: result.auditId, leadId: result.leadId, accountCreated: result.accountCreated },
    };
  });

export const handler = lambdaEntry('create-lead', make);
