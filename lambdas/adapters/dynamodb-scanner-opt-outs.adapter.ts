import { DeleteCommand, type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Clock } from '../domain/ports.js';
import type { PendingOptOut, ScannerOptOut, ScannerOptOutRepository } from '../domain/scanner-opt-out.js';
import { isExpired, keys } from './table-keys.js';

/**
 * Scanner opt-outs (DECISIONS "Scanner identity"): one item per opted-out registrable domain, read
 * with one GetItem before every scan; requests waiting for their proof beside it, gone after their TTL
 * (and treated as gone on read past it: dynalite has no TTL, DynamoDB deletes late).
 */
export class DynamoDbScannerOptOuts implements ScannerOptOutRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly clock: Clock,
  ) {}

  async get(domain: string): Promise<ScannerOptOut | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.scannerOptOut(domain), ConsistentRead: true }));
    if (!Item) return undefined;
    return { domain: String(Item.domain), token: String(Item.token), optedOutAt: String(Item.optedOutAt), method: Item.method === 'file' ? 'file' : 'dns' };
  }

  async putPending(pending: PendingOptOut): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { ...keys.pendingOptOut(pending.domain, pending.token), type: 'scanner-opt-out-request', ...pending },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async getPending(domain: string, token: string): Promise<PendingOptOut | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.pendingOptOut(domain, token), ConsistentRead: true }));
    if (!Item || isExpired(Item, this.clock.now())) return undefined;
    return { domain: String(Item.domain), token: String(Item.token), requestedAt: String(Item.requestedAt), expiresAt: Number(Item.expiresAt) };
  }

  async confirm(optOut: ScannerOptOut): Promise<void> {
    // The opt-out first: a failure between the two leaves a request that expires, never a lost opt-out.
    await this.db.send(new PutCommand({ TableName: this.tableName, Item: { ...keys.scannerOptOut(optOut.domain), type: 'scanner-opt-out', ...optOut } }));
    await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: keys.pendingOptOut(optOut.domain, optOut.token) }));
  }

  async remove(domain: string): Promise<boolean> {
    const { Attributes } = await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: keys.scannerOptOut(domain), ReturnValues: 'ALL_OLD' }));
    return Attributes !== undefined;
  }
}
