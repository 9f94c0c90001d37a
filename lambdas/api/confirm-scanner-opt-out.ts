import { scannerProbes } from '../use-cases/domains.js';
import { confirmOptOut, OptOutProofNotFoundError } from '../use-cases/scanner-identity.js';
import { clientAddress } from './client-address.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** Looks for the request's TXT record, then its file, through the scanner's network; found → opted out. */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => {
    try {
      return { status: 200, body: await confirmOptOut(deps, scannerProbes(deps.scanSettings), request.path('domain'), request.json(), clientAddress(request)) };
    } catch (error) {
      // Understood, but the proof is not published (yet): as verify-domain answers.
      if (error instanceof OptOutProofNotFoundError) return { status: 422, body: { error: error.code, message: error.message } };
      throw error;
    }
  });
