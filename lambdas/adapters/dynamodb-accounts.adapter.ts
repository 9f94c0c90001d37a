import { type DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { DEFAULT_NOTIFICATION_PREFERENCES, type NotificationPreferences, type ProfileUpdate } from '../domain/account.contract.js';
import type { UserProfile } from '../domain/account.js';
import { NotFoundError, UnauthorizedError, ValidationError } from '../domain/errors.js';
import type { AccountRepository, Clock, OwnedAuditPage, ProfileSeed, StoredSubscription } from '../domain/ports.js';
import { deleteItems, queryPartition } from './dynamodb-partition.js';
import { activeSubscriptionIndex, expiresAt, isExpired, keys } from './table-keys.js';
import { isConditionFailure } from './dynamodb-errors.js';

const PROFILE_FIELDS = ['userId', 'email', 'firstName', 'lastName', 'company', 'mobileNumber', 'notifications', 'isDemo', 'customerId', 'createdAt', 'updatedAt'] as const;

export class DynamoDbAccounts implements AccountRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly clock: Clock,
  ) {}

  async getOrCreateProfile(seed: ProfileSeed): Promise<UserProfile> {
    const existing = await this.getProfile(seed.userId);
    if (existing) return existing;
    if (await this.isMarkedDeleted(seed.userId)) throw new UnauthorizedError('This account has been deleted.');
    const now = this.clock.now().toISOString();
    const { isDemo, company, ...claims } = seed;
    const profile: UserProfile = {
      ...claims,
      company: company ?? '',
      notifications: { ...DEFAULT_NOTIFICATION_PREFERENCES },
      ...(isDemo ? { isDemo: true } : {}),
      createdAt: now,
      updatedAt: now,
    };
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...keys.profile(seed.userId), type: 'profile', ...profile },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return profile;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      // Another first read won the race: its profile is the profile.
      const raced = await this.getProfile(seed.userId);
      if (!raced) throw error;
      return raced;
    }
  }

  async updateProfile(userId: string, update: ProfileUpdate): Promise<UserProfile> {
    const mobile = update.mobileNumber ? ', mobileNumber = :mobile' : '';
    return this.update(userId, {
      UpdateExpression: `SET firstName = :first, lastName = :last, company = :company, updatedAt = :at${mobile}${update.mobileNumber ? '' : ' REMOVE mobileNumber'}`,
      ExpressionAttributeValues: {
        ':first': update.firstName,
        ':last': update.lastName,
        ':company': update.company,
        ':at': this.clock.now().toISOString(),
        ...(update.mobileNumber ? { ':mobile': update.mobileNumber } : {}),
      },
    });
  }

  async updateNotifications(userId: string, preferences: NotificationPreferences): Promise<UserProfile> {
    return this.update(userId, {
      UpdateExpression: 'SET notifications = :n, updatedAt = :at',
      ExpressionAttributeValues: { ':n': { ...preferences }, ':at': this.clock.now().toISOString() },
    });
  }

  async setCustomerId(userId: string, customerId: string): Promise<void> {
    await this.update(userId, {
      UpdateExpression: 'SET customerId = :customer, updatedAt = :at',
      ExpressionAttributeValues: { ':customer': customerId, ':at': this.clock.now().toISOString() },
    });
  }

  async listOwnedAudits(userId: string, limit: number, cursor?: string): Promise<OwnedAuditPage> {
    const pk = keys.profile(userId).pk;
    const start = cursor === undefined ? undefined : { pk, sk: decodeCursor(cursor) };
    const audits: OwnedAuditPage['audits'] = [];
    let exclusiveStartKey: Record<string, unknown> | undefined = start;
    let last: Record<string, unknown> | undefined;
    const now = this.clock.now();
    // Expired index items (TTL not yet applied) are skipped, so a page may take more than one query.
    do {
      const page = await this.db.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': pk, ':prefix': 'AUDIT#' },
          ScanIndexForward: false,
          Limit: limit - audits.length,
          ExclusiveStartKey: exclusiveStartKey,
        }),
      );
      for (const item of page.Items ?? []) {
        last = item;
        if (!isExpired(item, now)) audits.push({ auditId: String(item.auditId), createdAt: String(item.createdAt) });
      }
      exclusiveStartKey = page.LastEvaluatedKey;
    } while (exclusiveStartKey && audits.length < limit);
    return { audits, ...(exclusiveStartKey && last ? { cursor: encodeCursor(String(last.sk)) } : {}) };
  }

  async countStartedScans(userId: string): Promise<number> {
    // The started-scan counter Quick Scan keeps (keys.scanCount, `scansStarted`):
    // lead scans and monitoring rescans never touch it (DECISIONS "Scan counting").
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: keys.scanCount(userId), ConsistentRead: true }),
    );
    return typeof Item?.scansStarted === 'number' ? Item.scansStarted : 0;
  }

  async getProfile(userId: string): Promise<UserProfile | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.profile(userId), ConsistentRead: true }));
    return Item ? toProfile(Item) : undefined;
  }

  async getSubscription(userId: string): Promise<StoredSubscription | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.subscription(userId), ConsistentRead: true }));
    if (!Item) return undefined;
    const { planId, status, currentPeriodStart, currentPeriodEnd, source, subscriptionId, customerId, eventCreated } = Item as unknown as StoredSubscription;
    return {
      planId,
      status,
      currentPeriodStart,
      currentPeriodEnd,
      source,
      ...(subscriptionId ? { subscriptionId } : {}),
      ...(customerId ? { customerId } : {}),
      ...(typeof eventCreated === 'number' ? { eventCreated } : {}),
    };
  }

  async saveSubscription(userId: string, subscription: StoredSubscription): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: {
          ...keys.subscription(userId),
          type: 'subscription',
          userId,
          ...subscription,
          ...activeSubscriptionIndex(userId, subscription.status),
          updatedAt: this.clock.now().toISOString(),
        },
      }),
    );
  }

  async markDeleted(userId: string, until: Date): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { ...keys.deletedAccount(userId), type: 'deleted-account', deletedAt: this.clock.now().toISOString(), expiresAt: expiresAt(until, 0) },
      }),
    );
  }

  async deleteUserItems(userId: string): Promise<{ auditIds: string[] }> {
    const deletedMark = keys.deletedAccount(userId).sk;
    const items = (await queryPartition(this.db, this.tableName, keys.profile(userId).pk)).filter((item) => item.sk !== deletedMark);
    const auditIds = new Set<string>();
    for (const item of items) {
      const sk = String(item.sk);
      if ((sk.startsWith('AUDIT#') || sk.startsWith('SCAN#')) && typeof item.auditId === 'string') auditIds.add(item.auditId);
    }
    await deleteItems(this.db, this.tableName, items);
    return { auditIds: [...auditIds] };
  }

  private async isMarkedDeleted(userId: string): Promise<boolean> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.deletedAccount(userId), ConsistentRead: true }));
    return Item !== undefined && !isExpired(Item, this.clock.now());
  }

  private async update(userId: string, input: { UpdateExpression: string; ExpressionAttributeValues: Record<string, unknown> }): Promise<UserProfile> {
    try {
      const { Attributes } = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.profile(userId),
          ...input,
          ConditionExpression: 'attribute_exists(pk)',
          ReturnValues: 'ALL_NEW',
        }),
      );
      return toProfile(Attributes!);
    } catch (error) {
      if (isConditionFailure(error)) throw new NotFoundError('profile_not_found', 'There is no profile for this account yet.');
      throw error;
    }
  }
}

function toProfile(item: Record<string, unknown>): UserProfile {
  const profile = Object.fromEntries(PROFILE_FIELDS.filter((f) => item[f] !== undefined).map((f) => [f, item[f]])) as unknown as UserProfile;
  return { ...profile, company: profile.company ?? '', notifications: { ...DEFAULT_NOTIFICATION_PREFERENCES, ...profile.notifications } };
}

function encodeCursor(sk: string): string {
  return Buffer.from(sk, 'utf8').toString('base64url');
}

/** Only a sort key of the caller's own audit index: the partition is always the caller's. */
function decodeCursor(cursor: string): string {
  const sk = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!/^AUDIT#[^#]+#[^#]+$/.test(sk)) throw new ValidationError('Invalid cursor', { cursor: 'Invalid cursor' });
  return sk;
}

