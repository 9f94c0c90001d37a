import { DeleteCommand, type DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Clock, IdempotencyClaim, IdempotencyStore } from '../domain/ports.js';
import { isExpired, keys } from './table-keys.js';
import { isConditionFailure } from './dynamodb-errors.js';

/**
 * Idempotency keys as items: a conditional put claims a key (or finds who holds it), so two equal
 * requests at once still produce one result. dynalite never expires items, so the condition also
 * lets a claim replace one past its `expiresAt`.
 */
export class DynamoDbIdempotencyStore implements IdempotencyStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly clock: Clock,
  ) {}

  async claim<T extends Record<string, unknown>>(key: string, value: T, ttlSeconds: number): Promise<IdempotencyClaim<T>> {
    // Twice at most: a holder whose claim expired (or was released) between our put and our read.
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const nowSeconds = Math.floor(this.clock.now().getTime() / 1000);
      try {
        await this.db.send(
          new PutCommand({
            TableName: this.tableName,
            Item: { ...keys.idempotency(key), type: 'idempotency', value, expiresAt: nowSeconds + ttlSeconds },
            ConditionExpression: 'attribute_not_exists(pk) OR expiresAt <= :now',
            ExpressionAttributeValues: { ':now': nowSeconds },
          }),
        );
        return { claimed: true };
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
      const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.idempotency(key), ConsistentRead: true }));
      if (Item && !isExpired(Item, this.clock.now())) return { claimed: false, value: Item.value as T };
    }
    throw new Error(`Could not claim the idempotency key ${key}`);
  }

  async update(key: string, value: Record<string, unknown>): Promise<void> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.idempotency(key),
          UpdateExpression: 'SET #value = :value',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#value': 'value' },
          ExpressionAttributeValues: { ':value': value },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }

  async release(key: string): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: keys.idempotency(key) }));
  }
}
