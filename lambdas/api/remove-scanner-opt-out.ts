import { scannerProbes } from '../use-cases/domains.js';
import { OptOutProofNotFoundError, removeOptOut } from '../use-cases/scanner-identity.js';
import { clientAddress } from './client-address.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** Withdraws an opt-out while its proof is still published (so only the domain's controller can). */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => {
    try {
      await removeOptOut(deps, scannerProbes(deps.scanSettings), request.path('domain'), clientAddress(request));
      return { status: 204 };
    } catch (error) {
      if (error instanceof OptOutProofNotFoundError) return { status: 422, body: { error: error.code, message: error.message } };
      throw error;
    }
  });
