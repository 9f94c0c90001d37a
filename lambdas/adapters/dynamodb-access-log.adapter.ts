import { type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ACCESS_LOG_DAYS, type AccessEvent, type AccessLogRepository } from '../domain/access-ends.js';
import type { Clock } from '../domain/ports.js';
import { queryPartition } from './dynamodb-partition.js';
import { expiresAt, isExpired } from './table-keys.js';

/**
 * The organisation's access log (issue 28) in its partition: `ACCESSLOG#{at}#{id}`, read newest
 * first, each event expiring after ACCESS_LOG_DAYS; it goes with the account (the partition is deleted whole).
 */
export class DynamoDbAccessLog implements AccessLogRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly clock: Clock,
  ) {}

  async add(event: AccessEvent): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: {
          pk: `USER#${event.orgId}`,
          sk: `ACCESSLOG#${event.at}#${event.id}`,
          type: 'access-event',
          eventId: event.id,
          orgId: event.orgId,
          at: event.at,
          kind: event.kind,
          actor: event.actor,
          subject: event.subject,
          expiresAt: expiresAt(new Date(event.at), ACCESS_LOG_DAYS * 86_400),
        },
      }),
    );
  }

  async list(orgId: string, limit: number): Promise<AccessEvent[]> {
    const now = this.clock.now();
    const items = await queryPartition(this.db, this.tableName, `USER#${orgId}`, { skPrefix: 'ACCESSLOG#', descending: true, limit });
    return items
      .filter((item) => !isExpired(item, now))
      .map((item) => ({ orgId, id: String(item.eventId), at: String(item.at), kind: item.kind as AccessEvent['kind'], actor: String(item.actor), subject: String(item.subject) }));
  }
}
