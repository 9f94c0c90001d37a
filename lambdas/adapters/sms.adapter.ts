import { randomUUID } from 'node:crypto';
import { PublishCommand, type SNSClient } from '@aws-sdk/client-sns';
import { type DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Clock, SmsMessage, SmsSender } from '../domain/ports.js';
import { expiresAt, keys, retention } from './table-keys.js';

/** SMS through Amazon SNS (AWS). */
export class SnsSms implements SmsSender {
  constructor(private readonly sns: SNSClient) {}

  async send(message: SmsMessage): Promise<{ messageId: string }> {
    const result = await this.sns.send(
      new PublishCommand({
        PhoneNumber: message.to,
        Message: message.body,
        MessageAttributes: { 'AWS.SNS.SMS.SMSType': { DataType: 'String', StringValue: 'Transactional' } },
      }),
    );
    return { messageId: result.MessageId ?? '' };
  }
}

export interface OutboxEntry extends SmsMessage {
  id: string;
  sentAt: string;
}

/**
 * SMS on one machine: no SNS emulator runs here, so each message is recorded in the table
 * and listed on the local outbox page. Nothing is sent to a phone.
 */
export class OutboxSms implements SmsSender {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly clock: Clock,
  ) {}

  async send(message: SmsMessage): Promise<{ messageId: string }> {
    const now = this.clock.now();
    const entry: OutboxEntry = { id: randomUUID(), sentAt: now.toISOString(), ...message };
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: {
          pk: keys.smsOutbox,
          sk: `${entry.sentAt}#${entry.id}`,
          type: 'sms',
          ...entry,
          expiresAt: expiresAt(now, retention.technicalLogs),
        },
      }),
    );
    return { messageId: entry.id };
  }

  async list(limit = 100): Promise<OutboxEntry[]> {
    const { Items = [] } = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.smsOutbox },
        ScanIndexForward: false,
        Limit: limit,
      }),
    );
    return Items.map((i) => ({ id: i.id, sentAt: i.sentAt, to: i.to, body: i.body }));
  }
}
