import { sendVerificationCode } from '../use-cases/verification-codes.js';
import { clientAddress } from './client-address.js';
import { httpHandler, type HandlerFactory } from './http.js';

export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => {
    const result = await sendVerificationCode(deps, request.json(), { sourceIp: clientAddress(request) });
    return { status: 201, body: { verificationId: result.verificationId } };
  });

