import { createHash } from 'node:crypto';
import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Clock, RateLimitDecision, RateLimiter } from '../domain/ports.js';
import { keys } from './table-keys.js';
import { isConditionFailure } from './dynamodb-errors.js';

/**
 * Fixed-window counters, one item per key and window: a conditional ADD counts a request only while
 * the window holds fewer than `limit`, so concurrent requests can never overshoot and a refused
 * request does not lengthen the wait. The window start is part of the key, so an old window is
 * simply never read again (no TTL needed for correctness; `expiresAt` lets DynamoDB tidy up).
 * Subjects (addresses, emails) are stored hashed: the counters need no personal data.
 */
export class DynamoDbRateLimiter implements RateLimiter {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly clock: Clock,
  ) {}

  async consume(key: string, limit: number, windowSeconds: number): Promise<RateLimitDecision> {
    const nowSeconds = Math.floor(this.clock.now().getTime() / 1000);
    const windowStart = nowSeconds - (nowSeconds % windowSeconds);
    const windowEnd = windowStart + windowSeconds;
    const subject = createHash('sha256').update(key).digest('base64url');
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.rateLimit(subject, windowStart),
          UpdateExpression: 'ADD #count :one SET expiresAt = if_not_exists(expiresAt, :expires)',
          ConditionExpression: 'attribute_not_exists(#count) OR #count < :limit',
          ExpressionAttributeNames: { '#count': 'count' },
          ExpressionAttributeValues: { ':one': 1, ':limit': limit, ':expires': windowEnd + 60 },
        }),
      );
      return { allowed: true };
    } catch (error) {
      if (isConditionFailure(error)) {
        return { allowed: false, retryAfterSeconds: Math.max(1, windowEnd - nowSeconds) };
      }
      throw error;
    }
  }
}
