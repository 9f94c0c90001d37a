import { scannerUserAgent } from '../domain/product.js';
import type { CheckDefinition } from '../scanner/check.js';
import { checksWith } from '../scanner/checks/index.js';
import { createHibpClient } from '../scanner/net/hibp-client.js';
import type { Provider } from './core.js';

/** The checks every scan runs, bound to this deployment's breach lookup (one HIBP client per process: it paces itself per key). */
export const provide: Provider = ({ config }) => ({
  scanChecks: (): readonly CheckDefinition[] =>
    checksWith({
      breaches: config.HIBP_API_KEY
        ? createHibpClient({
            apiKey: config.HIBP_API_KEY,
            baseUrl: config.HIBP_BASE_URL,
            passwordsBaseUrl: config.PWNED_PASSWORDS_URL,
            userAgent: scannerUserAgent(config.PRODUCT_NAME, config.SITE_URL),
            rateLimit: { requests: config.HIBP_REQUESTS_PER_MINUTE, windowMs: 60_000 },
          })
        : undefined,
    }),
});
