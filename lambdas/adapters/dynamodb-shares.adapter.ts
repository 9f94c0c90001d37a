import { type DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Clock, ShareLinks, ShareRecord, SharePurpose, ShareUse } from '../domain/ports.js';
import { isExpired, keys } from './table-keys.js';
import { isConditionFailure } from './dynamodb-errors.js';

interface ShareItem {
  tokenHash: string;
  auditId: string;
  createdAt: string;
  /** Epoch seconds: the table's TTL attribute. */
  expiresAt: number;
  maxUses: number;
  uses: number;
  /** Made by the audit's signed-in owner: may email the report. Absent on items stored before the flag (not emailable). */
  emailable?: boolean;
}

/**
 * Share links, one item each. A use is a conditional ADD that holds only while the link is live
 * and has uses left, so concurrent readers can never take it past its maximum. An item past
 * `expiresAt` is gone on read (dynalite has no TTL; DynamoDB deletes late). A use for emailing also
 * requires `emailable = true` in the same condition, so a link that may not email never counts a use.
 */
export class DynamoDbShareLinks implements ShareLinks {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly clock: Clock,
  ) {}

  async create(share: ShareRecord): Promise<void> {
    const item: ShareItem = {
      tokenHash: share.tokenHash,
      auditId: share.auditId,
      createdAt: share.createdAt,
      expiresAt: Math.floor(Date.parse(share.expiresAt) / 1000),
      maxUses: share.maxUses,
      uses: share.uses,
      emailable: share.emailable === true,
    };
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { ...keys.share(share.tokenHash), type: 'share', ...item },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async use(tokenHash: string, purpose: SharePurpose = 'open'): Promise<ShareUse> {
    const nowSeconds = Math.floor(this.clock.now().getTime() / 1000);
    const forEmail = purpose === 'email';
    try {
      const { Attributes } = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.share(tokenHash),
          UpdateExpression: 'ADD uses :one',
          ConditionExpression: `attribute_exists(pk) AND expiresAt > :now AND uses < maxUses${forEmail ? ' AND emailable = :true' : ''}`,
          ExpressionAttributeValues: { ':one': 1, ':now': nowSeconds, ...(forEmail ? { ':true': true } : {}) },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return { outcome: 'ok', share: toRecord(Attributes as ShareItem) };
    } catch (error) {
      if (!(isConditionFailure(error))) throw error;
    }
    // Refused: read the item once to say why.
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.share(tokenHash), ConsistentRead: true }));
    if (!Item) return { outcome: 'not_found' };
    if (isExpired(Item, this.clock.now())) return { outcome: 'expired' };
    // A link that can never email says so even when its uses are spent too.
    if (forEmail && Item.emailable !== true) return { outcome: 'not_emailable' };
    return { outcome: 'exhausted' };
  }
}

function toRecord(item: ShareItem): ShareRecord {
  return {
    tokenHash: item.tokenHash,
    auditId: item.auditId,
    createdAt: item.createdAt,
    expiresAt: new Date(item.expiresAt * 1000).toISOString(),
    maxUses: item.maxUses,
    uses: item.uses,
    emailable: item.emailable === true,
  };
}
