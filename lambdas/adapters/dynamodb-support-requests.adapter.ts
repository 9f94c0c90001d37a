import { DeleteCommand, type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { PlanId } from '../domain/plans.js';
import type { Clock } from '../domain/ports.js';
import type { SupportCategory } from '../domain/support.contract.js';
import type { SupportRequestRecord, SupportRequests } from '../domain/support.js';
import { queryPartition } from './dynamodb-partition.js';
import { extendExpiry } from './dynamodb-retention.js';
import { expiresAt, isExpired, keys, retention } from './table-keys.js';

const PREFIX = 'SUPPORT#';

/**
 * Support requests under their author's partition (`SUPPORT#{createdAt}#{id}`, newest last), so a
 * user lists only their own and account deletion takes them with everything else the user owns.
 * Kept as contact details are (3 years after the author's last interaction, DECISIONS "Retention and rights").
 */
export class DynamoDbSupportRequests implements SupportRequests {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly clock: Clock,
  ) {}

  async create(request: SupportRequestRecord): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: {
          ...keys.supportRequest(request.userId, request.createdAt, request.id),
          type: 'support-request',
          ...request,
          ...(request.auditId === null ? { auditId: undefined } : {}),
          expiresAt: expiresAt(new Date(request.createdAt), retention.contactDetails),
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async remove(userId: string, createdAt: string, id: string): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: keys.supportRequest(userId, createdAt, id) }));
  }

  async extendRetention(userId: string, from: Date): Promise<number> {
    const items = await queryPartition(this.db, this.tableName, keys.supportRequest(userId, '', '').pk, { skPrefix: PREFIX, projection: 'pk, sk, expiresAt' });
    return extendExpiry(this.db, this.tableName, items, expiresAt(from, retention.contactDetails), this.clock.now());
  }

  async list(userId: string, limit: number): Promise<SupportRequestRecord[]> {
    const items = await queryPartition(this.db, this.tableName, keys.supportRequest(userId, '', '').pk, { skPrefix: PREFIX, descending: true, limit });
    const now = this.clock.now();
    return items.filter((item) => !isExpired(item, now)).map(toRecord);
  }
}

function toRecord(item: Record<string, unknown>): SupportRequestRecord {
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  return {
    id: text(item.id),
    reference: text(item.reference),
    userId: text(item.userId),
    email: text(item.email),
    name: text(item.name),
    category: text(item.category) as SupportCategory,
    subject: text(item.subject),
    message: text(item.message),
    auditId: typeof item.auditId === 'string' ? item.auditId : null,
    status: 'open',
    plan: text(item.plan),
    planIds: Array.isArray(item.planIds) ? (item.planIds.map(String) as PlanId[]) : [],
    priority: item.priority === true,
    createdAt: text(item.createdAt),
  };
}
