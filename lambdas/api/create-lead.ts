import { submitLead } from '../use-cases/submit-lead.js';
import { clientAddress } from './client-address.js';
import { httpHandler, type HandlerFactory } from './http.js';

export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => {
    // Public route with an optional token (routes.ts `optionalAuth`): a signed-in caller's verified domains count.
    const userId = typeof request.claims?.sub === 'string' ? request.claims.sub : undefined;
    // DECISIONS "Scan modes" [attacker]: the token's own address proves itself only when Cognito says it is verified.
    const claims = request.claims;
    const verifiedEmail =
      userId && typeof claims?.email === 'string' && (claims.email_verified === true || claims.email_verified === 'true') ? claims.email.trim().toLowerCase() : undefined;
    const result = await submitLead(deps, request.json(), { sourceIp: clientAddress(request), userAgent: request.userAgent, userId, verifiedEmail });
    return {
      status: result.scanned ? 201 : 200,
      body: { auditId: result.auditId, leadId: result.leadId, accountCreated: result.accountCreated, ...(result.confirmAddress ? { confirmAddress: result.confirmAddress } : {}) },
    };
  });

