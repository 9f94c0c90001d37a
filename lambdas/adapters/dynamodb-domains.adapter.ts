import { DeleteCommand, type DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type DomainRecord, type DomainRepository } from '../domain/domains.js';
import { ConflictError, ValidationError } from '../domain/errors.js';
import { queryPartition } from './dynamodb-partition.js';
import { DUE_AT_ONCE, expiresAt, GSI1, keys, monitorDueIndex, retention } from './table-keys.js';
import { isConditionFailure } from './dynamodb-errors.js';

const DOMAIN_PREFIX = 'DOMAIN#';

export class DynamoDbDomains implements DomainRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async list(userId: string): Promise<DomainRecord[]> {
    const items = await queryPartition(this.db, this.tableName, keys.userDomain(userId, '').pk, { skPrefix: DOMAIN_PREFIX });
    return items.map(toRecord).sort((a, b) => a.addedAt.localeCompare(b.addedAt));
  }

  async get(userId: string, domain: string): Promise<DomainRecord | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.userDomain(userId, domain), ConsistentRead: true }));
    return Item ? toRecord(Item) : undefined;
  }

  async add(record: DomainRecord, maxDomains: number): Promise<void> {
    if (await this.get(record.userId, record.domain)) throw new ConflictError('domain_conflict', `${record.domain} is already in your domains.`);
    if ((await this.list(record.userId)).length >= maxDomains) {
      throw new ValidationError(`You can add up to ${maxDomains} domains. Delete one to add another.`, { domain: `You can add up to ${maxDomains} domains.` });
    }
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...keys.userDomain(record.userId, record.domain), type: 'domain', ...record },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) throw new ConflictError('domain_conflict', `${record.domain} is already in your domains.`);
      throw error;
    }
  }

  async remove(userId: string, domain: string): Promise<boolean> {
    const { Attributes } = await this.db.send(
      new DeleteCommand({ TableName: this.tableName, Key: keys.userDomain(userId, domain), ReturnValues: 'ALL_OLD' }),
    );
    return Attributes !== undefined;
  }

  async markVerified(userId: string, domain: string, verifiedAt: string, method: 'dns' | 'file'): Promise<void> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.userDomain(userId, domain),
          // gsi1 DOMAIN#{domain} lists who verified it (the badge's owners); gsi2 puts it in the
          // monitoring due index, due at once (a claim already taken for this slot moves it on).
          UpdateExpression: 'SET verified = :true, verifiedAt = :at, checkedAt = :at, verifiedBy = :method, gsi1pk = :verifiers, gsi1sk = :user, gsi2pk = :duePk, gsi2sk = :dueSk REMOVE lapsedAt',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':true': true, ':at': verifiedAt, ':method': method, ':verifiers': keys.domainVerifiers(domain), ':user': `USER#${userId}`, ...dueValues(userId, domain) },
        }),
      );
    } catch (error) {
      // Deleted meanwhile: nothing to mark.
      if (!isConditionFailure(error)) throw error;
    }
  }

  async markChecked(userId: string, domain: string, checkedAt: string): Promise<void> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.userDomain(userId, domain),
          UpdateExpression: 'SET checkedAt = :at',
          ConditionExpression: 'attribute_exists(pk) AND verified = :true',
          ExpressionAttributeValues: { ':at': checkedAt, ':true': true },
        }),
      );
    } catch (error) {
      // Deleted or lapsed meanwhile: nothing to mark.
      if (!isConditionFailure(error)) throw error;
    }
  }

  async markLapsed(userId: string, domain: string, lapsedAt: string): Promise<boolean> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.userDomain(userId, domain),
          // Off the verifiers' index too: a badge needs a domain its owner controls; and off the due index (not monitored).
          UpdateExpression: 'SET verified = :false, lapsedAt = :at REMOVE gsi1pk, gsi1sk, gsi2pk, gsi2sk',
          ConditionExpression: 'attribute_exists(pk) AND verified = :true',
          ExpressionAttributeValues: { ':at': lapsedAt, ':true': true, ':false': false },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async verifiersOf(domain: string): Promise<string[]> {
    const items = await queryPartition(this.db, this.tableName, keys.domainVerifiers(domain), { indexName: GSI1 });
    const users = items.filter((item) => item.verified === true && typeof item.userId === 'string').map((item) => item.userId as string);
    return [...new Set(users)];
  }

  async countScan(userId: string, limit: number): Promise<boolean> {
    return (await this.claimScan(userId, limit)) !== undefined;
  }

  async claimScan(userId: string, limit: number): Promise<number | undefined> {
    try {
      const { Attributes } = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.scanCount(userId),
          UpdateExpression: 'ADD scansStarted :one SET #type = :type',
          ConditionExpression: 'attribute_not_exists(scansStarted) OR scansStarted < :limit',
          ExpressionAttributeNames: { '#type': 'type' },
          ExpressionAttributeValues: { ':one': 1, ':limit': limit, ':type': 'scan-count' },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      return typeof Attributes?.scansStarted === 'number' ? Attributes.scansStarted : 1;
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
  }

  async uncountScan(userId: string): Promise<void> {
    await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: keys.scanCount(userId),
        UpdateExpression: 'ADD scansStarted :minusOne',
        ConditionExpression: 'scansStarted > :zero',
        ExpressionAttributeValues: { ':minusOne': -1, ':zero': 0 },
      }),
    ).catch((error: unknown) => {
      if (!isConditionFailure(error)) throw error;
    });
  }

  async recordScan(userId: string, scan: { auditId: string; domain: string; createdAt: string }): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: {
          ...keys.startedScan(userId, scan.createdAt, scan.auditId),
          type: 'started-scan',
          ...scan,
          expiresAt: expiresAt(new Date(scan.createdAt), retention.auditResults),
        },
      }),
    );
  }
}

function dueValues(userId: string, domain: string): { ':duePk': string; ':dueSk': string } {
  const { gsi2pk, gsi2sk } = monitorDueIndex(userId, domain, DUE_AT_ONCE);
  return { ':duePk': gsi2pk, ':dueSk': gsi2sk };
}

function toRecord(item: Record<string, unknown>): DomainRecord {
  return {
    id: String(item.id),
    userId: String(item.userId),
    domain: String(item.domain),
    verificationToken: String(item.verificationToken),
    verified: item.verified === true,
    addedAt: String(item.addedAt),
    ...(typeof item.verifiedAt === 'string' ? { verifiedAt: item.verifiedAt } : {}),
    ...(item.verifiedBy === 'dns' || item.verifiedBy === 'file' ? { verifiedBy: item.verifiedBy } : {}),
    ...(typeof item.checkedAt === 'string' ? { checkedAt: item.checkedAt } : {}),
    ...(typeof item.lapsedAt === 'string' ? { lapsedAt: item.lapsedAt } : {}),
  };
}
