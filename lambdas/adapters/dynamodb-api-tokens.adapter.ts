import { DeleteCommand, type DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type ApiTokenRecord, type ApiTokenRepository, isTokenExpired } from '../domain/api-tokens.js';
import type { Clock } from '../domain/ports.js';
import { queryPartition } from './dynamodb-partition.js';
import { keys } from './table-keys.js';
import { isConditionFailure } from './dynamodb-errors.js';

type Item = Record<string, unknown>;

const SLOT_PREFIX = 'APITOKEN#';

/**
 * Two items per token: one in the user's partition (a numbered slot: listing, revoking, account
 * deletion) and one keyed by the secret's hash (authentication in one consistent read). The table
 * has no transactions locally (dynalite), so writes are ordered to fail safe: the slot is claimed
 * first and the hash item written second (a token works only once both exist); revoking deletes
 * the hash item first (the token stops working at once), then the slot. A token's expiry is both
 * items' TTL (`expiresAt`, epoch seconds); until DynamoDB removes them they read as gone.
 */
export class DynamoDbApiTokens implements ApiTokenRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly clock: Clock,
  ) {}

  async list(userId: string): Promise<ApiTokenRecord[]> {
    const now = this.clock.now();
    return (await this.slotItems(userId))
      .map(toRecord)
      .filter((record) => !isTokenExpired(record, now))
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  }

  async create(record: ApiTokenRecord, max: number): Promise<boolean> {
    const now = this.clock.now();
    const taken = new Set((await this.slotItems(record.userId)).filter((item) => !isTokenExpired(toRecord(item), now)).map((item) => String(item.sk)));
    const item = toItem(record);
    for (let slot = 0; slot < max; slot++) {
      const key = keys.apiToken(record.userId, slot);
      if (taken.has(key.sk)) continue;
      try {
        // A slot is free when empty or when its token has expired (the TTL may not have removed it yet).
        await this.db.send(
          new PutCommand({
            TableName: this.tableName,
            Item: { ...key, type: 'api-token', ...item },
            ConditionExpression: 'attribute_not_exists(pk) OR (attribute_exists(expiresAt) AND expiresAt <= :now)',
            ExpressionAttributeValues: { ':now': Math.floor(now.getTime() / 1000) },
          }),
        );
      } catch (error) {
        // Another request took this slot meanwhile: try the next one.
        if (isConditionFailure(error)) continue;
        throw error;
      }
      try {
        await this.db.send(
          new PutCommand({
            TableName: this.tableName,
            Item: { ...keys.apiTokenByHash(record.tokenHash), type: 'api-token-hash', ...item },
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        );
      } catch (error) {
        await this.deleteSlot(key, record.id).catch(() => undefined);
        throw error;
      }
      return true;
    }
    return false;
  }

  async findByHash(tokenHash: string): Promise<ApiTokenRecord | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.apiTokenByHash(tokenHash), ConsistentRead: true }));
    return Item ? toRecord(Item) : undefined;
  }

  async revoke(userId: string, tokenId: string): Promise<boolean> {
    const item = (await this.slotItems(userId)).find((candidate) => candidate.tokenId === tokenId);
    if (!item) return false;
    const record = toRecord(item);
    await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: keys.apiTokenByHash(record.tokenHash) }));
    await this.deleteSlot({ pk: String(item.pk), sk: String(item.sk) }, tokenId);
    return !isTokenExpired(record, this.clock.now());
  }

  async touch(record: ApiTokenRecord, at: string, ifOlderThan: string): Promise<void> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.apiTokenByHash(record.tokenHash),
          UpdateExpression: 'SET lastUsedAt = :at',
          ConditionExpression: 'attribute_exists(pk) AND tokenId = :id AND (attribute_not_exists(lastUsedAt) OR lastUsedAt < :cutoff)',
          ExpressionAttributeValues: { ':at': at, ':id': record.id, ':cutoff': ifOlderThan },
        }),
      );
    } catch (error) {
      // Revoked, or another request wrote it within the minute: nothing to write.
      if (isConditionFailure(error)) return;
      throw error;
    }
    const slot = (await this.slotItems(record.userId)).find((item) => item.tokenId === record.id);
    if (!slot) return;
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: slot.pk, sk: slot.sk },
          UpdateExpression: 'SET lastUsedAt = :at',
          // The slot may have been freed and reused by another token meanwhile.
          ConditionExpression: 'tokenId = :id',
          ExpressionAttributeValues: { ':at': at, ':id': record.id },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }

  async deleteAll(userId: string): Promise<void> {
    for (const item of await this.slotItems(userId)) {
      await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: keys.apiTokenByHash(String(item.tokenHash)) }));
      await this.deleteSlot({ pk: String(item.pk), sk: String(item.sk) }, String(item.tokenId));
    }
  }

  /** Every slot item of the user, expired ones included (consistent read). */
  private async slotItems(userId: string): Promise<Item[]> {
    return queryPartition(this.db, this.tableName, keys.apiToken(userId, 0).pk, { skPrefix: SLOT_PREFIX });
  }

  private async deleteSlot(key: { pk: string; sk: string }, tokenId: string): Promise<void> {
    try {
      await this.db.send(
        new DeleteCommand({ TableName: this.tableName, Key: key, ConditionExpression: 'tokenId = :id', ExpressionAttributeValues: { ':id': tokenId } }),
      );
    } catch (error) {
      // Already gone, or the slot holds another token now.
      if (!isConditionFailure(error)) throw error;
    }
  }
}

function toItem(record: ApiTokenRecord): Item {
  return {
    tokenId: record.id,
    userId: record.userId,
    name: record.name,
    prefix: record.prefix,
    tokenHash: record.tokenHash,
    createdAt: record.createdAt,
    tokenExpiresAt: record.expiresAt,
    // The expiry as TTL (whole seconds: the ISO expiry is made on a whole second).
    expiresAt: record.expiresAt === undefined ? undefined : Math.floor(Date.parse(record.expiresAt) / 1000),
    lastUsedAt: record.lastUsedAt,
    creatorId: record.creatorId,
    creatorEmail: record.creatorEmail,
  };
}

function toRecord(item: Item): ApiTokenRecord {
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  return {
    id: String(item.tokenId),
    userId: String(item.userId),
    name: String(item.name),
    prefix: String(item.prefix),
    tokenHash: String(item.tokenHash),
    createdAt: String(item.createdAt),
    ...(text(item.tokenExpiresAt) ? { expiresAt: text(item.tokenExpiresAt) } : {}),
    ...(text(item.lastUsedAt) ? { lastUsedAt: text(item.lastUsedAt) } : {}),
    ...(text(item.creatorId) ? { creatorId: text(item.creatorId) } : {}),
    ...(text(item.creatorEmail) !== undefined ? { creatorEmail: text(item.creatorEmail) } : {}),
  };
}

