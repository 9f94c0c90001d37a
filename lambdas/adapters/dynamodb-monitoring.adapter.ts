import { DeleteCommand, type DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ActiveSubscription, DueDomain, DueIndexBackfill, MonitoringRepository, StoredSubscription } from '../domain/ports.js';
import { queryPartition } from './dynamodb-partition.js';
import { GSI2, keys, MONITOR_DUE_SHARDS, monitorDueIndex } from './table-keys.js';
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
      const active = toActiveSubscription(item);
      if (active) found.push(active);
    }
    return found;
  }

  async activeSubscriptionsPage(after: string | undefined, limit: number): Promise<ActiveSubscription[]> {
    const { Items = [] } = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: GSI2,
        KeyConditionExpression: after === undefined ? 'gsi2pk = :pk' : 'gsi2pk = :pk AND gsi2sk > :after',
        ExpressionAttributeValues: { ':pk': keys.activeSubscriptions, ...(after === undefined ? {} : { ':after': after }) },
        Limit: limit,
      }),
    );
    return Items.map(toActiveSubscription).filter((found): found is ActiveSubscription => found !== undefined);
  }

  async dueDomains(now: string, limit: number): Promise<DueDomain[]> {
    if (limit <= 0) return [];
    const shards = await Promise.all(
      Array.from({ length: MONITOR_DUE_SHARDS }, async (_, shard) => {
        const found: DueDomain[] = [];
        let cursor: Record<string, unknown> | undefined;
        do {
          const page = await this.db.send(
            new QueryCommand({
              TableName: this.tableName,
              IndexName: GSI2,
              // '$' sorts after '#': every entry due at `now` itself is included.
              KeyConditionExpression: 'gsi2pk = :pk AND gsi2sk <= :upTo',
              ExpressionAttributeValues: { ':pk': keys.monitorDue(shard), ':upTo': `${now}$` },
              ProjectionExpression: 'userId, #domain, gsi2sk',
              ExpressionAttributeNames: { '#domain': 'domain' },
              Limit: limit - found.length,
              ExclusiveStartKey: cursor,
            }),
          );
          for (const item of page.Items ?? []) {
            if (typeof item.userId !== 'string' || typeof item.domain !== 'string' || typeof item.gsi2sk !== 'string') continue;
            found.push({ userId: item.userId, domain: item.domain, dueAt: item.gsi2sk.slice(0, item.gsi2sk.indexOf('#')) });
          }
          cursor = page.LastEvaluatedKey;
        } while (cursor && found.length < limit);
        return found;
      }),
    );
    return shards
      .flat()
      .sort((a, b) => a.dueAt.localeCompare(b.dueAt) || a.userId.localeCompare(b.userId) || a.domain.localeCompare(b.domain))
      .slice(0, limit);
  }

  async setDue(userId: string, domain: string, dueAt: string | undefined): Promise<void> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.userDomain(userId, domain),
          ...(dueAt === undefined
            ? { UpdateExpression: 'REMOVE gsi2pk, gsi2sk', ConditionExpression: 'attribute_exists(pk)' }
            : {
                UpdateExpression: 'SET gsi2pk = :pk, gsi2sk = :sk',
                // Only a verified domain is monitored: a lapsed or deleted one stays out of the index.
                ConditionExpression: 'attribute_exists(pk) AND verified = :true',
                ExpressionAttributeValues: { ':pk': monitorDueIndex(userId, domain, dueAt).gsi2pk, ':sk': monitorDueIndex(userId, domain, dueAt).gsi2sk, ':true': true },
              }),
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }

  async claimedSlot(userId: string, domain: string): Promise<string | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.monitor(userId, domain), ConsistentRead: true }));
    return typeof Item?.slotStart === 'string' ? Item.slotStart : undefined;
  }

  async dueIndexBackfill(): Promise<DueIndexBackfill | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.monitorDueBackfill, ConsistentRead: true }));
    if (!Item) return undefined;
    return { done: Item.done === true, updatedAt: String(Item.updatedAt), ...(typeof Item.after === 'string' ? { after: Item.after } : {}) };
  }

  async saveDueIndexBackfill(progress: DueIndexBackfill): Promise<void> {
    await this.db.send(new PutCommand({ TableName: this.tableName, Item: { ...keys.monitorDueBackfill, type: 'monitor-due-backfill', ...progress } }));
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

function toActiveSubscription(item: Record<string, unknown>): ActiveSubscription | undefined {
  // The index is eventually consistent: a subscription that just left `active` may still be listed.
  if (item.status !== 'active' || typeof item.userId !== 'string') return undefined;
  const { planId, status, currentPeriodStart, currentPeriodEnd, source, subscriptionId } = item as unknown as StoredSubscription;
  return { userId: item.userId, subscription: { planId, status, currentPeriodStart, currentPeriodEnd, source, ...(subscriptionId ? { subscriptionId } : {}) } };
}
