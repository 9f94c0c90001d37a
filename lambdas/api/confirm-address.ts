import { VerificationFailedError } from '../domain/verification-code.js';
import { confirmAddress } from '../use-cases/confirm-address.js';
import { clientAddress } from './client-address.js';
import { httpHandler, statusFor, type HandlerFactory } from './http.js';

export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => {
    try {
      return { status: 202, body: await confirmAddress(deps, request.path('auditId'), request.json(), { sourceIp: clientAddress(request) }) };
    } catch (error) {
      // As POST /api/verification-codes/verify: a failed check answers {error, message, remainingAttempts}.
      if (!(error instanceof VerificationFailedError)) throw error;
      return { status: statusFor(error), body: { error: error.code, message: error.message, remainingAttempts: error.remainingAttempts } };
    }
  });
