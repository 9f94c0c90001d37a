import { randomBytes } from 'node:crypto';
import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { SigningKeys } from '../domain/ports.js';
import { keys } from './table-keys.js';
import { isConditionFailure } from './dynamodb-errors.js';

/**
 * Signing keys kept in the table: 256 random bits, made by whichever process needs one first (a
 * conditional put, so racing processes agree on one) and cached for the process's life. The key
 * signs unsubscribe links, which can only turn a user's alerts off: it protects nothing the table's
 * readers could not change directly, so it lives beside the data it guards rather than in another
 * secret store every function would need a grant for.
 */
export class DynamoDbSigningKeys implements SigningKeys {
  private readonly cache = new Map<string, Promise<Uint8Array>>();

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  key(purpose: 'alerts-unsubscribe'): Promise<Uint8Array> {
    let key = this.cache.get(purpose);
    if (!key) {
      key = this.load(purpose);
      this.cache.set(purpose, key);
      key.catch(() => this.cache.delete(purpose));
    }
    return key;
  }

  private async load(purpose: string): Promise<Uint8Array> {
    const read = async () => {
      const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.signingKey(purpose), ConsistentRead: true }));
      return typeof Item?.key === 'string' ? Buffer.from(Item.key, 'base64') : undefined;
    };
    const existing = await read();
    if (existing) return existing;
    const fresh = randomBytes(32);
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...keys.signingKey(purpose), type: 'signing-key', key: fresh.toString('base64'), createdAt: new Date().toISOString() },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return fresh;
    } catch (error) {
      if (!(isConditionFailure(error))) throw error;
      const raced = await read();
      if (!raced) throw error;
      return raced;
    }
  }
}
