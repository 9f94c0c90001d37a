import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { Clock, EmailVerifications, VerificationCodeRecord } from '../domain/ports.js';
import { deleteItems, queryPartition } from './dynamodb-partition.js';
import { isExpired, keys } from './table-keys.js';
import { isConditionFailure } from './dynamodb-errors.js';

/**
 * Email verification codes and the verifications they prove, keyed by email and site: one current
 * code per pair (a resend replaces it) and one verification record per pair. Every change is a
 * conditional write (dynalite has no transactions); items past `expiresAt` are treated as gone.
 */
export class DynamoDbEmailVerifications implements EmailVerifications {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly clock: Clock,
  ) {}

  async saveCode(record: VerificationCodeRecord, resendAfterSeconds: number) {
    const sentAtMs = new Date(record.sentAt).getTime();
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...keys.verificationCode(record.email, record.site), type: 'verification-code', ...record, sentAtMs },
          // The cooldown is enforced here, not only by the caller's read: two sends at once store one code.
          ConditionExpression: 'attribute_not_exists(pk) OR sentAtMs <= :cutoff',
          ExpressionAttributeValues: { ':cutoff': sentAtMs - resendAfterSeconds * 1000 },
        }),
      );
      return { saved: true } as const;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      const current = await this.getCode(record.email, record.site);
      const since = current ? sentAtMs - new Date(current.sentAt).getTime() : 0;
      return { saved: false, retryAfterSeconds: Math.max(1, Math.ceil(resendAfterSeconds - since / 1000)) } as const;
    }
  }

  async getCode(email: string, site: string): Promise<VerificationCodeRecord | undefined> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: keys.verificationCode(email, site), ConsistentRead: true }),
    );
    // An expired code is returned too (its expiresAt tells): the visitor hears "expired", not "none sent".
    if (!Item) return undefined;
    return {
      verificationId: String(Item.verificationId),
      email: String(Item.email),
      site: String(Item.site),
      codeHash: String(Item.codeHash),
      codeSalt: String(Item.codeSalt),
      attempts: Number(Item.attempts),
      sentAt: String(Item.sentAt),
      expiresAt: Number(Item.expiresAt),
    };
  }

  async countAttempt(email: string, site: string, verificationId: string, maxAttempts: number): Promise<number | undefined> {
    try {
      const { Attributes } = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.verificationCode(email, site),
          UpdateExpression: 'ADD attempts :one',
          ConditionExpression: 'verificationId = :id AND attempts < :max',
          ExpressionAttributeValues: { ':one': 1, ':id': verificationId, ':max': maxAttempts },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      return Number(Attributes?.attempts);
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
  }

  async deleteCode(email: string, site: string, verificationId: string): Promise<void> {
    try {
      await this.db.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: keys.verificationCode(email, site),
          // Only this code: a newer one sent meanwhile stays.
          ConditionExpression: 'verificationId = :id',
          ExpressionAttributeValues: { ':id': verificationId },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }

  async markVerified(email: string, site: string, verifiedAt: string, validForSeconds: number): Promise<void> {
    const expiresAt = Math.floor(new Date(verifiedAt).getTime() / 1000) + validForSeconds;
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { ...keys.emailVerification(email, site), type: 'email-verification', email, site, verifiedAt, expiresAt },
      }),
    );
  }

  async isVerified(email: string, site: string): Promise<boolean> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: keys.emailVerification(email, site), ConsistentRead: true }),
    );
    return Item !== undefined && !isExpired(Item, this.clock.now());
  }

  async forgetEmail(email: string): Promise<void> {
    const pk = keys.verificationCode(email, '').pk;
    await deleteItems(this.db, this.tableName, await queryPartition(this.db, this.tableName, pk));
  }
}
