import { DomainError } from '../domain/errors.js';
import { openShare } from '../use-cases/audit-reports.js';
import { httpHandler, statusFor, type HandlerFactory } from './http.js';

export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => {
    try {
      return { status: 200, body: { success: true, ...(await openShare(deps, request.path('shareToken'))) } };
    } catch (error) {
      // The shared page reads `success` (SPEC §3 "Shared audit response"), on failures too.
      if (error instanceof DomainError) return { status: statusFor(error), body: { success: false, error: error.code, message: error.message } };
      throw error;
    }
  });

