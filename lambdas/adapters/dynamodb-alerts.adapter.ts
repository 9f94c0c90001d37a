import { DeleteCommand, type DynamoDBDocumentClient, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ValidationError } from '../domain/errors.js';
import type { MonitoringChange } from '../domain/monitoring-diff.js';
import type { AlertLog, AlertRecord, Clock, DeferredAlert } from '../domain/ports.js';
import { expiresAt, GSI2, isExpired, keys, retention } from './table-keys.js';
import { isConditionFailure } from './dynamodb-errors.js';

const RECORD_PREFIX = 'ALERTLOG#';

/**
 * Alerts under the user's partition (deleted with the account): one claim per change ever alerted
 * (`ALERT#{dedupeKey}`, a conditional put), the alerts sent (`ALERTLOG#…`) and the changes waiting
 * for the domain's next alert (`ALERTWAIT#{domain}`, listed on gsi2 for the scheduler).
 */
export class DynamoDbAlertLog implements AlertLog {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly clock: Clock,
  ) {}

  async claimChange(userId: string, dedupeKey: string, claimedAt: string): Promise<boolean> {
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.tableName,
          // A scan-to-scan key names its baseline audit, which is gone after the audit retention: so is the claim.
          Item: { ...keys.alertClaim(userId, dedupeKey), type: 'alert-claim', dedupeKey, claimedAt, expiresAt: expiresAt(new Date(claimedAt), retention.auditResults) },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async defer(alert: DeferredAlert, at: string): Promise<void> {
    await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: keys.waitingAlert(alert.userId, alert.domain),
        UpdateExpression:
          'SET #type = :type, userId = :user, #domain = :domain, changes = list_append(if_not_exists(changes, :empty), :changes), auditId = :audit, ' +
          'since = if_not_exists(since, :at), gsi2pk = :waiting, gsi2sk = if_not_exists(gsi2sk, :order)',
        ExpressionAttributeNames: { '#type': 'type', '#domain': 'domain' },
        ExpressionAttributeValues: {
          ':type': 'alert-waiting',
          ':user': alert.userId,
          ':domain': alert.domain,
          ':empty': [],
          ':changes': alert.changes,
          ':audit': alert.auditId,
          ':at': at,
          ':waiting': keys.waitingAlerts,
          ':order': `${at}#${alert.userId}#${alert.domain}`,
        },
      }),
    );
  }

  async takeDeferred(userId: string, domain: string): Promise<DeferredAlert | undefined> {
    const { Attributes } = await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: keys.waitingAlert(userId, domain), ReturnValues: 'ALL_OLD' }));
    if (!Attributes) return undefined;
    return { userId, domain, changes: (Attributes.changes ?? []) as MonitoringChange[], auditId: String(Attributes.auditId) };
  }

  async listDeferred(limit: number): Promise<{ userId: string; domain: string }[]> {
    const { Items = [] } = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: GSI2,
        KeyConditionExpression: 'gsi2pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.waitingAlerts },
        Limit: limit,
      }),
    );
    return Items.map((item) => ({ userId: String(item.userId), domain: String(item.domain) }));
  }

  async record(alert: AlertRecord): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { ...keys.alertRecord(alert.userId, alert.sentAt, alert.id), type: 'alert', ...alert, expiresAt: expiresAt(new Date(alert.sentAt), retention.auditResults) },
      }),
    );
  }

  async list(userId: string, limit: number, cursor?: string): Promise<{ alerts: AlertRecord[]; cursor?: string }> {
    const pk = keys.alertRecord(userId, '', '').pk;
    const found: Record<string, unknown>[] = [];
    let start: Record<string, unknown> | undefined = cursor === undefined ? undefined : { pk, sk: decodeCursor(cursor) };
    const now = this.clock.now();
    // One item more than the page, so a cursor is given only when another page really follows.
    do {
      const page = await this.db.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': pk, ':prefix': RECORD_PREFIX },
          ScanIndexForward: false,
          Limit: limit + 1 - found.length,
          ExclusiveStartKey: start,
        }),
      );
      for (const item of page.Items ?? []) if (!isExpired(item, now)) found.push(item);
      start = page.LastEvaluatedKey;
    } while (start && found.length <= limit);
    const items = found.slice(0, limit);
    const more = found.length > limit;
    return { alerts: items.map(toRecord), ...(more ? { cursor: Buffer.from(String(items.at(-1)!.sk), 'utf8').toString('base64url') } : {}) };
  }
}

function toRecord(item: Record<string, unknown>): AlertRecord {
  return {
    id: String(item.id),
    userId: String(item.userId),
    domain: String(item.domain),
    sentAt: String(item.sentAt),
    channel: item.channel === 'sms' ? 'sms' : 'email',
    summary: String(item.summary),
    changes: (item.changes ?? []) as AlertRecord['changes'],
    auditId: String(item.auditId),
  };
}

/** Only a sort key of the caller's own alert log: the partition is always the caller's. */
function decodeCursor(cursor: string): string {
  const sk = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!/^ALERTLOG#[^#]+#[^#]+$/.test(sk)) throw new ValidationError('Invalid cursor', { cursor: 'Invalid cursor' });
  return sk;
}

