import { type DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { PlatformStats, PlatformStatsTotals } from '../domain/ports.js';
import { keys } from './table-keys.js';

/**
 * Rampart's running totals in one item, changed only with atomic ADDs, so concurrent scan workers
 * never overwrite each other's counts.
 */
export class DynamoDbPlatformStats implements PlatformStats {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async recordCompletedAudit(durationMs: number): Promise<void> {
    await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: keys.platformStats,
        UpdateExpression: 'ADD auditsCompleted :one, scanDurationMsTotal :ms SET #type = :type',
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: { ':one': 1, ':ms': Math.max(0, Math.round(durationMs)), ':type': 'platform-stats' },
      }),
    );
  }

  async read(): Promise<PlatformStatsTotals> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.platformStats }));
    const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
    return { auditsCompleted: count(Item?.auditsCompleted), scanDurationMsTotal: count(Item?.scanDurationMsTotal) };
  }
}
