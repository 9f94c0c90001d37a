import { type DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { NewNotification, NotificationOutbox, NotificationRecord } from '../domain/notifications.js';
import { isConditionFailure } from './dynamodb-errors.js';
import { expiresAt, GSI2, keys, retention } from './table-keys.js';

/** Provider errors can be long (SES quotes the request): enough to tell one from another. */
const MAX_ERROR_LENGTH = 500;

/**
 * The notification outbox: one item per notification (`NOTIFY#{id}`). While it is pending or sending it
 * sits on gsi2 (`NOTIFY#DUE`, sorted by when it is next due), so the sweeper reads only what is due;
 * each state change is a conditional update on the status and the attempt count, so two runs never
 * make the same attempt and an attempt's outcome is recorded by the run that made it.
 */
export class DynamoDbNotificationOutbox implements NotificationOutbox {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async add(notification: NewNotification, at: string): Promise<boolean> {
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: {
            ...keys.notification(notification.id),
            type: 'notification',
            ...notification,
            status: 'pending',
            attempts: 0,
            nextAttemptAt: at,
            createdAt: at,
            gsi2pk: keys.notificationsDue,
            gsi2sk: `${at}#${notification.id}`,
            expiresAt: expiresAt(new Date(at), retention.notifications),
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async get(id: string): Promise<NotificationRecord | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.notification(id), ConsistentRead: true }));
    return Item ? recordOf(Item) : undefined;
  }

  async listDue(now: string, limit: number): Promise<string[]> {
    const { Items = [] } = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: GSI2,
        // '~' sorts after '#': every item due at or before `now` itself.
        KeyConditionExpression: 'gsi2pk = :pk AND gsi2sk < :until',
        ExpressionAttributeValues: { ':pk': keys.notificationsDue, ':until': `${now}~` },
        Limit: limit,
      }),
    );
    return Items.map((item) => String(item.id));
  }

  async claimAttempt(id: string, attempts: number, at: string, interruptedAt: string): Promise<NotificationRecord | undefined> {
    try {
      const { Attributes } = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.notification(id),
          UpdateExpression: 'SET #status = :sending, attempts = :next, attemptStartedAt = :at, gsi2sk = :interrupted',
          ConditionExpression: '#status = :pending AND attempts = :attempts AND nextAttemptAt <= :at',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':sending': 'sending',
            ':pending': 'pending',
            ':attempts': attempts,
            ':next': attempts + 1,
            ':at': at,
            ':interrupted': `${interruptedAt}#${id}`,
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return Attributes ? recordOf(Attributes) : undefined;
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
  }

  markSent(id: string, attempts: number, at: string): Promise<boolean> {
    return this.settle(id, attempts, {
      UpdateExpression: 'SET #status = :sent, sentAt = :at REMOVE message, afterSent, attemptStartedAt, gsi2pk, gsi2sk',
      ExpressionAttributeValues: { ':sent': 'sent', ':at': at },
    });
  }

  retryLater(id: string, attempts: number, nextAttemptAt: string, error: string): Promise<boolean> {
    return this.settle(id, attempts, {
      UpdateExpression: 'SET #status = :pending, nextAttemptAt = :due, gsi2sk = :order, lastError = :error REMOVE attemptStartedAt',
      ExpressionAttributeValues: { ':pending': 'pending', ':due': nextAttemptAt, ':order': `${nextAttemptAt}#${id}`, ':error': error.slice(0, MAX_ERROR_LENGTH) },
    });
  }

  abandon(id: string, attempts: number, at: string, error: string): Promise<boolean> {
    return this.settle(id, attempts, {
      UpdateExpression: 'SET #status = :abandoned, abandonedAt = :at, lastError = :error REMOVE message, afterSent, attemptStartedAt, gsi2pk, gsi2sk',
      ExpressionAttributeValues: { ':abandoned': 'abandoned', ':at': at, ':error': error.slice(0, MAX_ERROR_LENGTH) },
    });
  }

  /** Records the outcome of the attempt in flight: only that attempt's (status sending, same count). */
  private async settle(id: string, attempts: number, update: { UpdateExpression: string; ExpressionAttributeValues: Record<string, unknown> }): Promise<boolean> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.notification(id),
          UpdateExpression: update.UpdateExpression,
          ConditionExpression: '#status = :inFlight AND attempts = :attempts',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ':inFlight': 'sending', ':attempts': attempts },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }
}

function recordOf(item: Record<string, unknown>): NotificationRecord {
  const { pk: _pk, sk: _sk, type: _type, gsi2pk: _gsi2pk, gsi2sk: _gsi2sk, expiresAt: _expiresAt, ...record } = item;
  return record as unknown as NotificationRecord;
}
