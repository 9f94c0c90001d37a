import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { isConditionFailure } from './dynamodb-errors.js';

/**
 * Moves the TTL (`expiresAt`, epoch seconds) of the given items forward to `until`: contact details
 * are kept from the person's last interaction (lambdas/domain/retention.ts). Never shortens a period,
 * and never brings back an item already past its expiry (it is gone under the policy, even while
 * DynamoDB has not deleted it yet); an item deleted meanwhile is left alone. Answers how many moved.
 */
export async function extendExpiry(
  db: DynamoDBDocumentClient,
  tableName: string,
  items: readonly Record<string, unknown>[],
  until: number,
  now: Date,
): Promise<number> {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  let moved = 0;
  for (const item of items) {
    if (typeof item.expiresAt === 'number' && (item.expiresAt >= until || item.expiresAt <= nowSeconds)) continue;
    try {
      await db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: { pk: item.pk, sk: item.sk },
          UpdateExpression: 'SET expiresAt = :until',
          ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(expiresAt) OR (expiresAt > :now AND expiresAt < :until))',
          ExpressionAttributeValues: { ':until': until, ':now': nowSeconds },
        }),
      );
      moved += 1;
    } catch (error) {
      if (!(isConditionFailure(error))) throw error;
    }
  }
  return moved;
}
