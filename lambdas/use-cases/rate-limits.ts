import { RateLimitedError } from '../domain/errors.js';
import type { RateLimiter } from '../domain/ports.js';

export const HOUR_SECONDS = 3600;

export interface Limit {
  /** What is counted, e.g. `lead:ip:203.0.113.7`; an empty subject (no address known) is not counted. */
  scope: string;
  subject: string;
  perHour: number;
}

function waitText(seconds: number): string {
  if (seconds < 90) return `${seconds} seconds`;
  return `${Math.ceil(seconds / 60)} minutes`;
}

/**
 * Counts one request against each limit in order and stops at the first one exceeded: a
 * RateLimitedError whose retry-after is when that window ends.
 */
export async function enforceLimits(limiter: RateLimiter, limits: readonly Limit[], what: string): Promise<void> {
  for (const limit of limits) {
    if (!limit.subject) continue;
    const decision = await limiter.consume(`${limit.scope}:${limit.subject}`, limit.perHour, HOUR_SECONDS);
    if (!decision.allowed) {
      throw new RateLimitedError(`Too many ${what}. Please try again in ${waitText(decision.retryAfterSeconds)}.`, decision.retryAfterSeconds);
    }
  }
}
