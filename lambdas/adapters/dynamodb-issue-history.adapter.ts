import { DeleteCommand, type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Clock } from '../domain/ports.js';
import type { IssueHistory, IssueHistoryRepository, IssueOccurrence } from '../domain/time-to-fix.js';
import { isConditionFailure } from './dynamodb-errors.js';
import { queryPartition } from './dynamodb-partition.js';
import { expiresAt, isExpired, keys, retention } from './table-keys.js';

const PREFIX = 'ISSUES#';

/**
 * Time-to-fix's issue history (lambdas/domain/time-to-fix.ts): one item per owner and monitored
 * domain, under the owner's partition (deleted with the account, and with the domain). It is made
 * from audit results and kept as long as they are: 12 months after the last scan folded in.
 * Updates are conditional on the last scan the writer read, so two deliveries never interleave.
 */
export class DynamoDbIssueHistory implements IssueHistoryRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly clock: Clock,
  ) {}

  async get(userId: string, domain: string): Promise<IssueHistory | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.issueHistory(userId, domain), ConsistentRead: true }));
    return Item && !isExpired(Item, this.clock.now()) ? toHistory(Item) : undefined;
  }

  async list(userId: string): Promise<IssueHistory[]> {
    const now = this.clock.now();
    const items = await queryPartition(this.db, this.tableName, keys.profile(userId).pk, { skPrefix: PREFIX });
    return items.filter((item) => !isExpired(item, now)).map(toHistory);
  }

  async save(userId: string, history: IssueHistory, expectedLastScanAt: string | null): Promise<boolean> {
    const from = history.lastScanAt ? new Date(history.lastScanAt) : this.clock.now();
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: {
            ...keys.issueHistory(userId, history.domain),
            type: 'issue-history',
            userId,
            domain: history.domain,
            lastScanAt: history.lastScanAt,
            lastAuditId: history.lastAuditId,
            ...(history.lastSite ? { lastSite: history.lastSite } : {}),
            // Plain data (no undefined members, which the document client refuses).
            occurrences: JSON.parse(JSON.stringify(history.occurrences)) as IssueOccurrence[],
            expiresAt: expiresAt(from, retention.auditResults),
          },
          ...(expectedLastScanAt === null
            ? // None stored, or one past its TTL that the table has not removed yet (get() answered none).
              { ConditionExpression: 'attribute_not_exists(pk) OR expiresAt <= :now', ExpressionAttributeValues: { ':now': Math.floor(this.clock.now().getTime() / 1000) } }
            : { ConditionExpression: 'lastScanAt = :expected', ExpressionAttributeValues: { ':expected': expectedLastScanAt } }),
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async remove(userId: string, domain: string): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: keys.issueHistory(userId, domain) }));
  }
}

function toHistory(item: Record<string, unknown>): IssueHistory {
  return {
    domain: String(item.domain),
    lastScanAt: typeof item.lastScanAt === 'string' ? item.lastScanAt : null,
    lastAuditId: typeof item.lastAuditId === 'string' ? item.lastAuditId : null,
    ...(typeof item.lastSite === 'string' ? { lastSite: item.lastSite } : {}),
    occurrences: Array.isArray(item.occurrences) ? (item.occurrences as IssueOccurrence[]) : [],
  };
}
