import { DeleteCommand, type DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ValidationError } from '../domain/errors.js';
import type { Clock } from '../domain/ports.js';
import { policyActions, policyMessages, type PolicyAction } from '../domain/security-policy.contract.js';
import type { SecurityPolicy, SecurityPolicyRepository } from '../domain/security-policy.js';
import { deleteItems, queryPartition } from './dynamodb-partition.js';
import { expiresAt, isExpired, keys } from './table-keys.js';

const POLICY_PREFIX = 'POLICY#';
/** An expired policy stays listed (as expired) this long, then the table's TTL removes it. */
const EXPIRED_POLICY_KEPT_SECONDS = 30 * 86_400;

/** Custom security policies in the single table, under the owner's partition (deleted with the account). */
export class DynamoDbSecurityPolicies implements SecurityPolicyRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly clock: Clock,
  ) {}

  async list(userId: string, domain?: string): Promise<SecurityPolicy[]> {
    const skPrefix = domain === undefined ? POLICY_PREFIX : `${POLICY_PREFIX}${domain}#`;
    const items = await queryPartition(this.db, this.tableName, keys.profile(userId).pk, { skPrefix });
    const now = this.clock.now();
    return items.filter((item) => !isExpired(item, now)).map(toPolicy).filter((policy): policy is SecurityPolicy => policy !== undefined);
  }

  async put(userId: string, policy: SecurityPolicy, maxPolicies: number): Promise<{ created: boolean }> {
    const key = keys.securityPolicy(userId, policy.domain, policy.findingId);
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: key, ConsistentRead: true }));
    if (!Item && (await this.count(userId)) >= maxPolicies) throw new ValidationError(policyMessages.tooMany);
    const { Attributes } = await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: {
          ...key,
          type: 'security-policy',
          userId,
          domain: policy.domain,
          findingId: policy.findingId,
          action: policy.action,
          reason: policy.reason,
          createdAt: policy.createdAt,
          createdBy: policy.createdBy,
          // `expiresAt` is the table's TTL attribute (epoch seconds): the policy's own expiry is `policyExpiresAt`.
          ...(policy.expiresAt
            ? { policyExpiresAt: policy.expiresAt, expiresAt: expiresAt(new Date(policy.expiresAt), EXPIRED_POLICY_KEPT_SECONDS) }
            : {}),
        },
        ReturnValues: 'ALL_OLD',
      }),
    );
    return { created: Attributes === undefined };
  }

  async remove(userId: string, domain: string, findingId: string): Promise<boolean> {
    const { Attributes } = await this.db.send(
      new DeleteCommand({ TableName: this.tableName, Key: keys.securityPolicy(userId, domain, findingId), ReturnValues: 'ALL_OLD' }),
    );
    return Attributes !== undefined && !isExpired(Attributes, this.clock.now());
  }

  async removeForDomain(userId: string, domain: string): Promise<number> {
    // Expired ones too: the TTL has not removed them yet, and a domain added again starts with none.
    const items = await queryPartition(this.db, this.tableName, keys.profile(userId).pk, { skPrefix: `${POLICY_PREFIX}${domain}#`, projection: 'pk, sk' });
    await deleteItems(this.db, this.tableName, items);
    return items.length;
  }

  private async count(userId: string): Promise<number> {
    let total = 0;
    let cursor: Record<string, unknown> | undefined;
    do {
      const page = await this.db.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': keys.profile(userId).pk, ':prefix': POLICY_PREFIX },
          Select: 'COUNT',
          ExclusiveStartKey: cursor,
          ConsistentRead: true,
        }),
      );
      total += page.Count ?? 0;
      cursor = page.LastEvaluatedKey;
    } while (cursor);
    return total;
  }
}

function toPolicy(item: Record<string, unknown>): SecurityPolicy | undefined {
  if (!policyActions.includes(item.action as PolicyAction)) return undefined;
  return {
    domain: String(item.domain),
    findingId: String(item.findingId),
    action: item.action as PolicyAction,
    reason: String(item.reason),
    ...(typeof item.policyExpiresAt === 'string' ? { expiresAt: item.policyExpiresAt } : {}),
    createdAt: String(item.createdAt),
    createdBy: String(item.createdBy),
  };
}
