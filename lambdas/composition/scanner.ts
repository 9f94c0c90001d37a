import { DynamoDbRateLimiter } from '../adapters/dynamodb-rate-limits.adapter.js';
import { scannerUserAgent } from '../domain/product.js';
import type { RateLimiter } from '../domain/ports.js';
import type { CheckDefinition } from '../scanner/check.js';
import { checksWith } from '../scanner/checks/index.js';
import { createHibpClient, type SharedRateLimit } from '../scanner/net/hibp-client.js';
import { documentClient } from './aws.js';
import type { Provider } from './core.js';

/** The table counter every scanner process shares for the HIBP key's rate. */
export const HIBP_SHARED_LIMIT_KEY = 'hibp:lookups';

/**
 * HIBP's plan rate (HIBP_REQUESTS_PER_MINUTE) as one counter in the table for every scanner process
 * (issue 30 item 6: up to ten workers at once, each pacing itself, could send ten times the plan).
 * A fixed window of a minute, as the plan states its rate: at most the plan's number in each clock
 * minute across all processes (a burst at a minute's end and the next minute's start can still meet
 * HIBP's own limit, whose 429 the client waits out).
 */
export function tableHibpLimit(rateLimits: RateLimiter, requestsPerMinute: number): SharedRateLimit {
  return {
    async take() {
      const decision = await rateLimits.consume(HIBP_SHARED_LIMIT_KEY, requestsPerMinute, 60);
      return decision.allowed ? { allowed: true } : { allowed: false, retryAfterMs: Math.max(1, decision.retryAfterSeconds) * 1000 };
    },
  };
}

/** The checks every scan runs, bound to this deployment's breach lookup (one HIBP client per process: it paces itself per key, and shares the key's rate through the table when there is one). */
export const provide: Provider = ({ config, clock }) => ({
  scanChecks: (): readonly CheckDefinition[] =>
    checksWith({
      breaches: config.HIBP_API_KEY
        ? createHibpClient({
            apiKey: config.HIBP_API_KEY,
            baseUrl: config.HIBP_BASE_URL,
            passwordsBaseUrl: config.PWNED_PASSWORDS_URL,
            userAgent: scannerUserAgent(config.PRODUCT_NAME, config.SITE_URL),
            rateLimit: { requests: config.HIBP_REQUESTS_PER_MINUTE, windowMs: 60_000 },
            ...(config.TABLE_NAME
              ? { sharedLimit: tableHibpLimit(new DynamoDbRateLimiter(documentClient(config), config.TABLE_NAME, clock), config.HIBP_REQUESTS_PER_MINUTE) }
              : {}),
          })
        : undefined,
    }),
});
