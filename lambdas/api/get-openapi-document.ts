import { openApiV1Document } from '../domain/openapi-v1.js';
import { httpHandler, type HandlerFactory } from './http.js';

/** `GET /api/v1/openapi.json`: the public API's OpenAPI 3.1 document; built once, as it changes only with a deploy. */
export const make: HandlerFactory = (deps) => {
  const document = openApiV1Document({
    productName: deps.config.PRODUCT_NAME,
    siteUrl: deps.config.SITE_URL,
    requestsPerMinute: deps.config.API_TOKEN_REQUESTS_PER_MINUTE,
  });
  return httpHandler(deps, async () => ({ status: 200, body: document, headers: { 'cache-control': 'public, max-age=300' } }));
};
