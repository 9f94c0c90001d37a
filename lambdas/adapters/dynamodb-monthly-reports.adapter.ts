import { DeleteCommand, type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { MONTHLY_REPORTS, type MonthlyReportLog, type ReadyMonthlyReport } from '../domain/monthly-report.js';
import type { Clock } from '../domain/ports.js';
import { queryPartition } from './dynamodb-partition.js';
import { expiresAt, isExpired, keys } from './table-keys.js';
import { isConditionFailure } from './dynamodb-errors.js';

const PREFIX = 'MONTHREPORT#';
const DAY_SECONDS = 86_400;

/**
 * The monthly reports of a user, under the user's partition (deleted with the account): one item per
 * month, `MONTHREPORT#{yyyy-mm}`, put with a condition as the scheduler's claim, then replaced by the
 * ready report (where its PDF is, whether it was emailed). It lives as long as the PDF in the bucket.
 */
export class DynamoDbMonthlyReports implements MonthlyReportLog {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly clock: Clock,
  ) {}

  async getReady(userId: string, month: string): Promise<ReadyMonthlyReport | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.monthlyReport(userId, month), ConsistentRead: true }));
    return Item && Item.status === 'ready' && !isExpired(Item, this.clock.now()) ? toReport(Item) : undefined;
  }

  async claim(userId: string, month: string, claimedAt: string, staleBefore: string): Promise<boolean> {
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...keys.monthlyReport(userId, month), type: 'monthly-report', userId, month, status: 'claimed', claimedAt },
          ConditionExpression: 'attribute_not_exists(pk) OR (#status = :claimed AND claimedAt < :stale)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':claimed': 'claimed', ':stale': staleBefore },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async release(userId: string, month: string, claimedAt: string): Promise<void> {
    await this.db
      .send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: keys.monthlyReport(userId, month),
          ConditionExpression: '#status = :claimed AND claimedAt = :at',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':claimed': 'claimed', ':at': claimedAt },
        }),
      )
      .catch((error: unknown) => {
        if (!isConditionFailure(error)) throw error;
      });
  }

  async complete(report: ReadyMonthlyReport): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: {
          ...keys.monthlyReport(report.userId, report.month),
          type: 'monthly-report',
          ...report,
          status: 'ready',
          expiresAt: expiresAt(new Date(report.generatedAt), MONTHLY_REPORTS.retentionDays * DAY_SECONDS),
        },
        // Only the run holding the claim finishes it.
        ConditionExpression: '#status = :claimed AND claimedAt = :at',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':claimed': 'claimed', ':at': report.claimedAt },
      }),
    );
  }

  async listReady(userId: string): Promise<ReadyMonthlyReport[]> {
    const items = await queryPartition(this.db, this.tableName, keys.monthlyReport(userId, '').pk, { skPrefix: PREFIX, descending: true, consistentRead: false });
    const now = this.clock.now();
    return items.filter((item) => item.status === 'ready' && !isExpired(item, now)).map(toReport);
  }
}

function toReport(item: Record<string, unknown>): ReadyMonthlyReport {
  return {
    userId: String(item.userId),
    month: String(item.month),
    claimedAt: String(item.claimedAt),
    generatedAt: String(item.generatedAt),
    emailed: item.emailed === true,
    pdfKey: String(item.pdfKey),
    sizeBytes: Number(item.sizeBytes),
    domains: Array.isArray(item.domains) ? item.domains.map(String) : [],
  };
}

