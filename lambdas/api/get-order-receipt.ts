import { orderReceipt } from '../use-cases/payments.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** The paid order's receipt as a PDF. */
export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async (request) => {
    const receipt = await orderReceipt(deps, request.path('checkoutSessionId'));
    return {
      status: 200,
      binary: receipt.bytes,
      headers: { 'content-type': 'application/pdf', 'content-disposition': `inline; filename="${receipt.fileName}"` },
    };
  });

