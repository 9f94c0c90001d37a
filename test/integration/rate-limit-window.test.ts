import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDbRateLimiter } from '../../lambdas/adapters/dynamodb-rate-limits.adapter.js';
import { documentClient } from '../../lambdas/composition/aws.js';
import { startTestStack, type TestStack } from '../support/local-stack.js';

/**
 * The fixed-window limiter over the local table, on a clock the test sets: a refusal's Retry-After is
 * the seconds left in the window, never the whole window (a client told to wait an hour at 10:59
 * waits 59 minutes longer than it must; the lead-abuse test checks the same over HTTP).
 */
let t: TestStack;
let now: Date;
let limiter: DynamoDbRateLimiter;
const HOUR = 3600;
// 10:16:40 UTC: 1000 s into the window that starts at 10:00 and ends at 11:00.
const AT = Date.UTC(2026, 0, 15, 10, 16, 40);

beforeAll(async () => {
  t = await startTestStack();
  const config = t.stack.deps.config;
  limiter = new DynamoDbRateLimiter(documentClient(config), config.TABLE_NAME!, { now: () => now });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('the rate limiter', () => {
  it('allows the limit, then refuses with the seconds left in the window, down to 1, and counts again in the next window', async () => {
    // Prepare
    now = new Date(AT);
    const allowed = [await limiter.consume('test:window', 2, HOUR), await limiter.consume('test:window', 2, HOUR)];

    // Act
    const refused = await limiter.consume('test:window', 2, HOUR);
    now = new Date(Date.UTC(2026, 0, 15, 10, 59, 59));
    const lastSecond = await limiter.consume('test:window', 2, HOUR);
    now = new Date(Date.UTC(2026, 0, 15, 11, 0, 0));
    const nextWindow = await limiter.consume('test:window', 2, HOUR);

    // Assess
    expect(allowed).toEqual([{ allowed: true }, { allowed: true }]);
    expect(refused).toEqual({ allowed: false, retryAfterSeconds: HOUR - 1000 });
    expect(lastSecond).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect(nextWindow).toEqual({ allowed: true });
  });
});
