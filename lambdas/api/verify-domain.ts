import { scannerProbes, userIdOf, VerificationNotFoundError, verifyDomain } from '../use-cases/domains.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** Looks for the DNS TXT record, then the /.well-known file, through the scanner's network. */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => {
    const userId = userIdOf(request.claims);
    try {
      return { status: 200, body: await verifyDomain(deps, scannerProbes(deps.scanSettings), userId, request.path('domain')) };
    } catch (error) {
      // Not a missing resource: the request was understood, the proof is not there (yet).
      if (error instanceof VerificationNotFoundError) return { status: 422, body: { error: error.code, message: error.message } };
      throw error;
    }
  });

