import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Grade, RiskLevel } from './audit.js';
import {
  AGENT_DISCONNECT_AFTER_SECONDS,
  AGENT_REPORT_MAX_AGE_SECONDS,
  AGENT_REPORT_MAX_AHEAD_SECONDS,
  type AgentCisCheckView,
  type AgentInstallStep,
  type AgentPlatform,
  type AgentStatus,
  type AgentVulnerabilityView,
  type InstallStatus,
} from './agents.contract.js';
import { planIncludes } from './plans.js';
import type { StoredSubscription } from './ports.js';

/**
 * Endpoint agents (issue 10): the enrollment secret, each agent's own credential, what is stored of
 * them and the status rule. The contracts are agents.contract.ts; the scoring lambdas/agents.
 */

/**
 * The owner's plan includes endpoint agents (the plan catalogue's 'endpoint-agents', Monitor Plus)
 * and is active. It is asked where a machine is enrolled: reading the enrollment secret, rotating
 * it, downloading an installer and registering an agent (new or again); otherwise 403
 * `plan_required`. Reading the agents, the summary and the debug panel stays open, so an account
 * whose plan lapsed still sees its machines. Reports from agents registered before the lapse are
 * still accepted and scored: the data is the customer's, from machines they set up while paying, and
 * an agent cannot be told to stop except by uninstalling it. Install telemetry (the enrollment
 * secret's other use) is accepted too, so the Debug tab explains an installer run meanwhile; its
 * registration keeps failing (the reporter retries every 5 minutes) until the plan is back.
 */
export function canEnrollAgents(subscription: StoredSubscription | undefined): boolean {
  return subscription !== undefined && subscription.status === 'active' && planIncludes(subscription.planId, 'endpoint-agents');
}

/** A customer may have at most this many agents (a reinstall on the same machine reuses its agent). */
export const MAX_AGENTS_PER_USER = 200;

/** The customer's enrollment secret: `{prefix}_` + 32 random bytes, base64url. */
export function newEnrollmentSecret(): string {
  return `enr_${randomBytes(32).toString('base64url')}`;
}

export const enrollmentSecretPattern = /^enr_[A-Za-z0-9_-]{43}$/;

/** `agt_` + 26 base32 characters (130 bits, lower case: valid in file names, hostnames and URLs). */
export function newAgentId(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  const bytes = randomBytes(26);
  return `agt_${Array.from(bytes, (b) => alphabet[b & 31]).join('')}`;
}

/**
 * An agent's own credential, `{agent_id}.{secret}`: the id tells the API whose hash to compare with,
 * without an index of tokens. Only the SHA-256 of the whole token is stored.
 */
export function newAgentToken(agentId: string): string {
  return `${agentId}.${randomBytes(32).toString('base64url')}`;
}

export const agentTokenPattern = /^(agt_[a-z2-7]{26})\.[A-Za-z0-9_-]{43}$/;

/** High-entropy random secrets need no slow hash: SHA-256 is what is stored and compared. */
export function secretHash(secret: string): string {
  return createHash('sha256').update(secret).digest('base64url');
}

export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** `Authorization: Bearer <value>`, or undefined. */
export function bearerValue(header: string | undefined): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1];
}

/**
 * The account's enrollment secret, stored readable: the Install Agent tab shows the install commands
 * with it on every visit, so a hash alone would not do. It can do little: register new agents for the
 * account's verified domains (which then only send reports) and post install telemetry; it reads
 * nothing. Rotating it (POST /api/me/agents/secret) stops registrations with the old one at once.
 */
export interface AgentEnrollment {
  userId: string;
  secret: string;
  rotatedAt: string;
  /** Reports received from all of the account's agents (the debug panel's audit_count). */
  reportCount: number;
  lastReportAt?: string;
}

/** What the latest report of an agent scored (stored with the agent; the vulnerabilities list is capped). */
export interface StoredAgentScore {
  vulnerabilities: AgentVulnerabilityView[];
  vulnerabilityCount: number;
  cisChecks: AgentCisCheckView[];
  cisFailCount: number;
  securityScore: number;
  securityGrade: Grade;
  riskLevel: RiskLevel;
}

export interface AgentRecord {
  agentId: string;
  userId: string;
  /** SHA-256 of the agent's token. */
  tokenHash: string;
  hostname: string;
  os: AgentPlatform;
  clientDomain: string;
  /** The email the installer sent (informational: the enrollment secret is what authenticates). */
  email: string;
  agentVersion: string;
  osqueryVersion: string;
  registeredAt: string;
  /** The address the registration came from, until a report names the machine's own. */
  registeredIp: string;
  /** The last time the agent was heard from (registration or report). */
  lastSeenAt: string;
  lastReportAt?: string;
  /** The sequence of the last report taken: a report must carry a greater one (issue 28 finding 13). */
  lastSequence?: number;
  ip?: string;
  osVersion?: string;
  score?: StoredAgentScore;
}

export interface AgentReportLogEntry {
  agentId: string;
  clientDomain: string;
  /** The report's own timestamp (the agent's clock). */
  auditTimestamp: string;
  receivedAt: string;
}

export interface AgentInstallEvent {
  hostname: string;
  customerDomain: string;
  customerEmail: string;
  osVersion: string;
  installStatus: InstallStatus;
  installMessage: string;
  installDetails: string;
  /** The step the message is about; undefined when the installer did not say. */
  installStep?: AgentInstallStep;
  installerVersion: string;
  timestamp: string;
  receivedAt: string;
}

export interface AgentRepository {
  getEnrollment(userId: string): Promise<AgentEnrollment | undefined>;
  /**
   * Stores a new secret for the account (its first, or a rotation) and drops the old secret's lookup.
   * `previousSecret` guards against two rotations racing (false: someone else's write won).
   */
  saveEnrollment(userId: string, secret: string, rotatedAt: string, previousSecret: string | undefined): Promise<boolean>;
  /** The account whose current secret this is, or undefined. */
  findEnrollmentBySecret(secret: string): Promise<AgentEnrollment | undefined>;
  listAgents(userId: string): Promise<AgentRecord[]>;
  /** The agent whose token this is (the hash compared in constant time), or undefined. */
  findAgentByToken(token: string): Promise<AgentRecord | undefined>;
  /**
   * Creates the agent, or gives an existing one (a reinstall) a new token; false when the account is at
   * its maximum or, for an existing agent, when its token is no longer `replacesTokenHash` (a
   * concurrent re-registration won).
   */
  saveAgent(agent: AgentRecord, isNew: boolean, maxAgents: number, replacesTokenHash?: string): Promise<boolean>;
  /**
   * Records a scored report: the agent's latest facts, one log entry and the account's counter.
   * `facts.sequence`, when given, must be above the agent's last one, checked in the same conditional
   * write, so two identical reports posted at once cannot both count (the API always gives it; the
   * demo seeding does not). 'gone' when the agent no longer exists (deleted with the account),
   * 'replayed' when its last sequence is not below this one.
   */
  recordReport(
    agent: Pick<AgentRecord, 'userId' | 'agentId'>,
    facts: { receivedAt: string; ip: string; osVersion: string; agentVersion: string; score: StoredAgentScore; sequence?: number },
    entry: AgentReportLogEntry,
  ): Promise<'stored' | 'gone' | 'replayed'>;
  /** Removes one agent (its item, then its lookup): its token stops working and the machine may enrol anew. False when there is no such agent. */
  deleteAgent(userId: string, agentId: string): Promise<boolean>;
  recentReports(userId: string, limit: number): Promise<AgentReportLogEntry[]>;
  recordInstallEvent(userId: string, event: AgentInstallEvent): Promise<void>;
  /**
   * Account deletion: the lookups outside the account's partition (its secret's, its agents'), so
   * nothing names the account afterwards; the partition itself goes with the account's other items.
   */
  deleteLookups(userId: string): Promise<void>;
  recentInstallEvents(userId: string, limit: number): Promise<AgentInstallEvent[]>;
}

/**
 * An agent's status at `now` (an injected clock): `active` while heard from within
 * AGENT_DISCONNECT_AFTER_SECONDS (30 min, six missed 5-minute reports); after that `disconnected` if
 * it had reported before, or `error` if it registered and never delivered a report (the reporter
 * does not run or cannot reach the API).
 */
export function agentStatus(agent: Pick<AgentRecord, 'lastSeenAt' | 'lastReportAt'>, now: Date): AgentStatus {
  const silentSeconds = (now.getTime() - Date.parse(agent.lastSeenAt)) / 1000;
  if (silentSeconds <= AGENT_DISCONNECT_AFTER_SECONDS) return 'active';
  return agent.lastReportAt ? 'disconnected' : 'error';
}

/**
 * Whether a report's own date can be taken at `now` (issue 28 finding 13): at most
 * AGENT_REPORT_MAX_AGE_SECONDS old and AGENT_REPORT_MAX_AHEAD_SECONDS ahead of the API's clock.
 */
export function reportFreshness(timestamp: string, now: Date): 'fresh' | 'too-old' | 'ahead' {
  const ageSeconds = (now.getTime() - Date.parse(timestamp)) / 1000;
  if (ageSeconds > AGENT_REPORT_MAX_AGE_SECONDS) return 'too-old';
  if (-ageSeconds > AGENT_REPORT_MAX_AHEAD_SECONDS) return 'ahead';
  return 'fresh';
}

/** A report counts only when its sequence is above the last one taken from the agent. */
export const isNewerSequence = (last: number | undefined, sequence: number): boolean => last === undefined || sequence > last;
