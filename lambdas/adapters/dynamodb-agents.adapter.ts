import { randomUUID } from 'node:crypto';
import { DeleteCommand, type DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Grade, RiskLevel } from '../domain/audit.js';
import { type AgentPlatform, type InstallStatus, isAgentInstallStep } from '../domain/agents.contract.js';
import {
  type AgentEnrollment,
  type AgentInstallEvent,
  type AgentRecord,
  type AgentReportLogEntry,
  type AgentRepository,
  agentTokenPattern,
  sameHash,
  secretHash,
  type StoredAgentScore,
} from '../domain/agents.js';
import type { Clock } from '../domain/ports.js';
import { queryPartition } from './dynamodb-partition.js';
import { expiresAt, retention } from './table-keys.js';
import { isConditionFailure } from './dynamodb-errors.js';

/**
 * The agents' items (docs/data-model.md "Agents"), in the one table:
 * - the account's enrollment:    pk USER#{userId}, sk #AGENTENROLL (the secret, its rotation time, the report counter)
 * - a secret's account:          pk AGENTSECRET#{sha256(secret)}, sk #AGENTSECRET → userId
 * - an agent:                    pk USER#{userId}, sk AGENT#{agentId} (its token's hash, facts and latest score)
 * - an agent's account:          pk AGENT#{agentId}, sk #AGENT → userId
 * - a received report (log):     pk USER#{userId}, sk AGENTREPORT#{receivedAt}#{agentId} (technical log: 6 months)
 * - an install telemetry message: pk USER#{userId}, sk AGENTINSTALL#{receivedAt}#{id} (technical log: 6 months)
 *
 * The lookups by secret and by agent id only name an account: authentication always compares with
 * what the account's own partition holds, so a lookup left behind (a rotated secret whose delete
 * failed, an account deleted with its partition) authenticates nothing. dynalite has no
 * transactions, so writes are ordered to fail safe.
 */
export const agentKeys = {
  enrollment: (userId: string) => ({ pk: `USER#${userId}`, sk: '#AGENTENROLL' }),
  secret: (hash: string) => ({ pk: `AGENTSECRET#${hash}`, sk: '#AGENTSECRET' }),
  agent: (userId: string, agentId: string) => ({ pk: `USER#${userId}`, sk: `AGENT#${agentId}` }),
  agentOwner: (agentId: string) => ({ pk: `AGENT#${agentId}`, sk: '#AGENT' }),
  report: (userId: string, receivedAt: string, agentId: string) => ({ pk: `USER#${userId}`, sk: `AGENTREPORT#${receivedAt}#${agentId}` }),
  install: (userId: string, receivedAt: string, id: string) => ({ pk: `USER#${userId}`, sk: `AGENTINSTALL#${receivedAt}#${id}` }),
} as const;

type Item = Record<string, unknown>;

export class DynamoDbAgents implements AgentRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly clock: Clock,
  ) {}

  private async get(key: { pk: string; sk: string }): Promise<Item | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: key, ConsistentRead: true }));
    return Item;
  }

  async getEnrollment(userId: string): Promise<AgentEnrollment | undefined> {
    const item = await this.get(agentKeys.enrollment(userId));
    return item && typeof item.secret === 'string' ? toEnrollment(item) : undefined;
  }

  async saveEnrollment(userId: string, secret: string, rotatedAt: string, previousSecret: string | undefined): Promise<boolean> {
    const lookup = agentKeys.secret(secretHash(secret));
    // The new lookup first: it is inert until the enrollment names this secret.
    await this.db.send(new PutCommand({ TableName: this.tableName, Item: { ...lookup, type: 'agent-secret', userId } }));
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: agentKeys.enrollment(userId),
          UpdateExpression: 'SET #type = :type, userId = :user, secret = :secret, rotatedAt = :at, reportCount = if_not_exists(reportCount, :zero)',
          ConditionExpression: previousSecret === undefined ? 'attribute_not_exists(secret)' : 'secret = :previous',
          ExpressionAttributeNames: { '#type': 'type' },
          ExpressionAttributeValues: {
            ':type': 'agent-enrollment',
            ':user': userId,
            ':secret': secret,
            ':at': rotatedAt,
            ':zero': 0,
            ...(previousSecret === undefined ? {} : { ':previous': previousSecret }),
          },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: lookup }));
      return false;
    }
    if (previousSecret !== undefined) await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: agentKeys.secret(secretHash(previousSecret)) }));
    return true;
  }

  async findEnrollmentBySecret(secret: string): Promise<AgentEnrollment | undefined> {
    const lookup = await this.get(agentKeys.secret(secretHash(secret)));
    if (typeof lookup?.userId !== 'string') return undefined;
    const enrollment = await this.getEnrollment(lookup.userId);
    return enrollment && sameHash(secretHash(enrollment.secret), secretHash(secret)) ? enrollment : undefined;
  }

  async listAgents(userId: string): Promise<AgentRecord[]> {
    return (await this.queryPrefix(userId, 'AGENT#', { ascending: true })).map(toAgent);
  }

  async findAgentByToken(token: string): Promise<AgentRecord | undefined> {
    const agentId = agentTokenPattern.exec(token)?.[1];
    if (!agentId) return undefined;
    const owner = await this.get(agentKeys.agentOwner(agentId));
    if (typeof owner?.userId !== 'string') return undefined;
    const item = await this.get(agentKeys.agent(owner.userId, agentId));
    if (!item || typeof item.tokenHash !== 'string') return undefined;
    return sameHash(item.tokenHash, secretHash(token)) ? toAgent(item) : undefined;
  }

  async saveAgent(agent: AgentRecord, isNew: boolean, maxAgents: number, replacesTokenHash?: string): Promise<boolean> {
    if (isNew) {
      if ((await this.listAgents(agent.userId)).length >= maxAgents) return false;
      // The agent first, its lookup second: a lookup never names an agent that is not there.
      await this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...agentKeys.agent(agent.userId, agent.agentId), type: 'agent', ...agent },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      await this.db.send(new PutCommand({ TableName: this.tableName, Item: { ...agentKeys.agentOwner(agent.agentId), type: 'agent-owner', userId: agent.userId } }));
      return true;
    }
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: agentKeys.agent(agent.userId, agent.agentId),
          UpdateExpression:
            'SET tokenHash = :token, email = :email, agentVersion = :agentVersion, osqueryVersion = :osqueryVersion, registeredAt = :registeredAt, registeredIp = :ip, lastSeenAt = :seen',
          // Only over the token the caller proved it holds: of two re-registrations at once, one wins.
          ConditionExpression: replacesTokenHash === undefined ? 'attribute_exists(pk)' : 'attribute_exists(pk) AND tokenHash = :previous',
          ExpressionAttributeValues: {
            ...(replacesTokenHash === undefined ? {} : { ':previous': replacesTokenHash }),
            ':token': agent.tokenHash,
            ':email': agent.email,
            ':agentVersion': agent.agentVersion,
            ':osqueryVersion': agent.osqueryVersion,
            ':registeredAt': agent.registeredAt,
            ':ip': agent.registeredIp,
            ':seen': agent.lastSeenAt,
          },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async recordReport(
    agent: Pick<AgentRecord, 'userId' | 'agentId'>,
    facts: { receivedAt: string; ip: string; osVersion: string; agentVersion: string; score: StoredAgentScore; sequence?: number },
    entry: AgentReportLogEntry,
  ): Promise<'stored' | 'gone' | 'replayed'> {
    const sequenced = facts.sequence !== undefined;
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: agentKeys.agent(agent.userId, agent.agentId),
          UpdateExpression: `SET lastSeenAt = :at, lastReportAt = :at, ip = :ip, osVersion = :os, agentVersion = :version, score = :score${sequenced ? ', lastSequence = :seq' : ''}`,
          // The sequence is checked in the write itself: of two identical reports posted at once, one counts.
          ConditionExpression: sequenced ? 'attribute_exists(pk) AND (attribute_not_exists(lastSequence) OR lastSequence < :seq)' : 'attribute_exists(pk)',
          ExpressionAttributeValues: {
            ':at': facts.receivedAt,
            ':ip': facts.ip,
            ':os': facts.osVersion,
            ':version': facts.agentVersion,
            ':score': facts.score,
            ...(sequenced ? { ':seq': facts.sequence } : {}),
          },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      return (await this.get(agentKeys.agent(agent.userId, agent.agentId))) ? 'replayed' : 'gone';
    }
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: {
          ...agentKeys.report(agent.userId, entry.receivedAt, agent.agentId),
          type: 'agent-report',
          ...entry,
          expiresAt: expiresAt(new Date(entry.receivedAt), retention.technicalLogs),
        },
      }),
    );
    await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: agentKeys.enrollment(agent.userId),
        UpdateExpression: 'ADD reportCount :one SET lastReportAt = :at',
        // Only on an enrollment that exists: never a half item for an account deleted meanwhile.
        ConditionExpression: 'attribute_exists(secret)',
        ExpressionAttributeValues: { ':one': 1, ':at': entry.receivedAt },
      }),
    ).catch((error: unknown) => {
      if (!isConditionFailure(error)) throw error;
    });
    return 'stored';
  }

  async deleteAgent(userId: string, agentId: string): Promise<boolean> {
    // The agent first: a lookup left behind names nothing (findAgentByToken reads the account's own item).
    try {
      await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: agentKeys.agent(userId, agentId), ConditionExpression: 'attribute_exists(pk)' }));
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
    await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: agentKeys.agentOwner(agentId) }));
    return true;
  }

  async recentReports(userId: string, limit: number): Promise<AgentReportLogEntry[]> {
    const now = this.clock.now().getTime() / 1000;
    return (await this.queryPrefix(userId, 'AGENTREPORT#', { ascending: false, limit }))
      .filter((item) => typeof item.expiresAt !== 'number' || item.expiresAt > now)
      .map((item) => ({ agentId: String(item.agentId), clientDomain: String(item.clientDomain), auditTimestamp: String(item.auditTimestamp), receivedAt: String(item.receivedAt) }));
  }

  async recordInstallEvent(userId: string, event: AgentInstallEvent): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { ...agentKeys.install(userId, event.receivedAt, randomUUID()), type: 'agent-install', ...event, expiresAt: expiresAt(new Date(event.receivedAt), retention.technicalLogs) },
      }),
    );
  }

  async recentInstallEvents(userId: string, limit: number): Promise<AgentInstallEvent[]> {
    return (await this.queryPrefix(userId, 'AGENTINSTALL#', { ascending: false, limit })).map((item) => ({
      hostname: String(item.hostname),
      customerDomain: String(item.customerDomain),
      customerEmail: String(item.customerEmail),
      osVersion: String(item.osVersion),
      installStatus: item.installStatus as InstallStatus,
      installMessage: String(item.installMessage),
      installDetails: String(item.installDetails),
      ...(typeof item.installStep === 'string' && isAgentInstallStep(item.installStep) ? { installStep: item.installStep } : {}),
      installerVersion: String(item.installerVersion),
      timestamp: String(item.timestamp),
      receivedAt: String(item.receivedAt),
    }));
  }

  async deleteLookups(userId: string): Promise<void> {
    const [enrollment, agents] = await Promise.all([this.getEnrollment(userId), this.listAgents(userId)]);
    const keys = [...(enrollment ? [agentKeys.secret(secretHash(enrollment.secret))] : []), ...agents.map((agent) => agentKeys.agentOwner(agent.agentId))];
    for (const key of keys) await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: key }));
  }

  private async queryPrefix(userId: string, prefix: string, options: { ascending: boolean; limit?: number }): Promise<Item[]> {
    return queryPartition(this.db, this.tableName, `USER#${userId}`, { skPrefix: prefix, descending: !options.ascending, limit: options.limit });
  }
}

function toEnrollment(item: Item): AgentEnrollment {
  return {
    userId: String(item.userId),
    secret: String(item.secret),
    rotatedAt: String(item.rotatedAt),
    reportCount: typeof item.reportCount === 'number' ? item.reportCount : 0,
    ...(typeof item.lastReportAt === 'string' ? { lastReportAt: item.lastReportAt } : {}),
  };
}

function toAgent(item: Item): AgentRecord {
  const text = (key: string) => (typeof item[key] === 'string' ? (item[key] as string) : '');
  const score = item.score as Record<string, unknown> | undefined;
  return {
    agentId: text('agentId'),
    userId: text('userId'),
    tokenHash: text('tokenHash'),
    hostname: text('hostname'),
    os: text('os') as AgentPlatform,
    clientDomain: text('clientDomain'),
    email: text('email'),
    agentVersion: text('agentVersion'),
    osqueryVersion: text('osqueryVersion'),
    registeredAt: text('registeredAt'),
    registeredIp: text('registeredIp'),
    lastSeenAt: text('lastSeenAt'),
    ...(typeof item.lastReportAt === 'string' ? { lastReportAt: item.lastReportAt } : {}),
    ...(typeof item.lastSequence === 'number' ? { lastSequence: item.lastSequence } : {}),
    ...(typeof item.ip === 'string' ? { ip: item.ip } : {}),
    ...(typeof item.osVersion === 'string' ? { osVersion: item.osVersion } : {}),
    ...(score && typeof score.securityScore === 'number'
      ? {
          score: {
            vulnerabilities: (score.vulnerabilities ?? []) as StoredAgentScore['vulnerabilities'],
            vulnerabilityCount: Number(score.vulnerabilityCount ?? 0),
            cisChecks: (score.cisChecks ?? []) as StoredAgentScore['cisChecks'],
            cisFailCount: Number(score.cisFailCount ?? 0),
            securityScore: score.securityScore,
            securityGrade: score.securityGrade as Grade,
            riskLevel: score.riskLevel as RiskLevel,
          },
        }
      : {}),
  };
}

