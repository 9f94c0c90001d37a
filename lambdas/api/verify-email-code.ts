import { VerificationFailedError } from '../domain/verification-code.js';
import { verifyCode } from '../use-cases/verification-codes.js';
import { clientAddress } from './client-address.js';
import { httpHandler, statusFor, type HandlerFactory } from './http.js';

export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => {
    try {
      const result = await verifyCode(deps, request.json(), { sourceIp: clientAddress(request) });
      return { status: 200, body: result };
    } catch (error) {
      // SPEC §7: a failed check answers {error, message, remainingAttempts}, which the modal shows.
      if (!(error instanceof VerificationFailedError)) throw error;
      return {
        status: statusFor(error),
        body: { error: error.code, message: error.message, remainingAttempts: error.remainingAttempts },
      };
    }
  });

