import { httpHandler, type HandlerFactory } from './http.js';

export const make: HandlerFactory = (deps) =>
  httpHandler(deps, async () => ({ status: 200, body: { status: 'ok', product: deps.config.PRODUCT_NAME } }));

