import { DeleteCommand, type DynamoDBDocumentClient, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ActiveSubscription, MonitoringRepository, StoredSubscription } from '../domain/ports.js';
import { queryPartition } from './dynamodb-partition.js';
import { GSI2, keys } from './table-keys.js';
import { isConditionFailure } from './dynamodb-errors.js';

/** The monitoring schedule's state: the active subscriptions' index, each domain's claimed rescan slot, knowledge bases checked. */
export class DynamoDbMonitoring implements MonitoringRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async activeSubscriptions(): Promise<ActiveSubscription[]> {
    const found: ActiveSubscription[] = [];
    for (const item of await queryPartition(this.db, this.tableName, keys.activeSubscriptions, { indexName: GSI2 })) {
      // The index is eventually consistent: a subscription that just left `active` may still be listed.
      if (item.status !== 'active' || typeof item.userId !== 'string') continue;
      const { planId, status, currentPeriodStart, currentPeriodEnd, source, subscriptionId } = item as unknown as StoredSubscription;
      found.push({
        userId: item.userId,
        subscription: { planId, status, currentPeriodStart, currentPeriodEnd, source, ...(subscriptionId ? { subscriptionId } : {}) },
      });
    }
    return found;
  }

  async claimRescan(userId: string, domain: string, slotStart: string, auditId: string, claimedAt: string): Promise<boolean> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.monitor(userId, domain),
          UpdateExpression: 'SET #type = :type, #domain = :domain, slotStart = :slot, auditId = :audit, claimedAt = :at',
          ConditionExpression: 'attribute_not_exists(slotStart) OR slotStart < :slot',
          ExpressionAttributeNames: { '#type': 'type', '#domain': 'domain' },
          ExpressionAttributeValues: { ':type': 'monitor', ':domain': domain, ':slot': slotStart, ':audit': auditId, ':at': claimedAt },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async releaseRescan(userId: string, domain: string, slotStart: string): Promise<void> {
    await this.db
      .send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: keys.monitor(userId, domain),
          ConditionExpression: 'slotStart = :slot',
          ExpressionAttributeValues: { ':slot': slotStart },
        }),
      )
      .catch((error: unknown) => {
        if (!isConditionFailure(error)) throw error;
      });
  }

  async claimKnowledgeBaseCheck(fingerprint: string, at: string): Promise<boolean> {
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...keys.knowledgeBaseCheck(fingerprint), type: 'knowledge-base-check', fingerprint, checkedAt: at },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }
}

