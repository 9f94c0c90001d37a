import type * as z from 'zod';
import { type InstallerSettings, renderInstaller } from '../agents/installers.js';
import type { Deps } from '../composition.js';
import {
  AGENT_DISCONNECT_AFTER_SECONDS,
  AGENT_MAX_BODY_BYTES,
  AGENT_VERSION,
  agentIdSchema,
  agentMessages,
  agentPlatforms,
  agentRegistrationSchema,
  agentReportSchema,
  agentSummaryQuerySchema,
  agentTelemetrySchema,
  installerExtension,
  installerFileName,
  OSQUERY_VERSION,
  RECENT_AGENT_REPORTS,
  savedInstallerFileName,
  type AgentDebugView,
  type AgentEnrollmentView,
  type AgentRegistrationResponse,
  type AgentReportResponse,
  type AgentSummaryView,
  type AgentTelemetryResponse,
  type InstallerExtension,
} from '../domain/agents.contract.js';
import {
  type AgentEnrollment,
  type AgentRecord,
  agentTokenPattern,
  bearerValue,
  canEnrollAgents,
  enrollmentSecretPattern,
  isNewerSequence,
  MAX_AGENTS_PER_USER,
  newAgentId,
  newAgentToken,
  newEnrollmentSecret,
  reportFreshness,
  secretHash,
} from '../domain/agents.js';
import { fieldMessages } from '../domain/contract.js';
import { ConflictError, DomainError, ForbiddenError, NotFoundError, ValidationError } from '../domain/errors.js';
import { productSlug } from '../domain/product.js';
import { siteKey } from '../domain/target.js';
import type { Caller } from './account.js';
import { agentViews } from './agent-views.js';
import { enforceLimits } from './rate-limits.js';

export { agentView, listMyAgents } from './agent-views.js';

/**
 * Endpoint agents (issue 10; DECISIONS "Agents API"). An installer downloaded from the dashboard
 * carries the account's enrollment secret; with it the machine registers (for one of the account's
 * verified domains) and gets its own agent id and token, which it uses for every report. Reports are
 * scored on arrival (lambdas/agents/agent-scoring.ts) and the dashboard reads the stored result.
 * Enrolling needs a plan with endpoint agents (Monitor Plus; `canEnrollAgents` says what stays open
 * after it lapses).
 */

type AgentDeps = Pick<Deps, 'agents' | 'domains' | 'accounts' | 'rateLimits' | 'clock' | 'config'>;

/** 403 `plan_required` unless the account's active plan includes endpoint agents; checked before anything is stored. */
async function requireAgentPlan(deps: Pick<Deps, 'accounts'>, userId: string): Promise<void> {
  if (!canEnrollAgents(await deps.accounts.getSubscription(userId))) throw new ForbiddenError('plan_required', agentMessages.planRequired);
}

/** Anyone may send this much; only a caller with a valid agent token may send up to AGENT_MAX_BODY_BYTES. */
const UNAUTHENTICATED_MAX_BODY_BYTES = 64 * 1024;

const unauthorized = (message: string) => new DomainError('unauthorized', message);
const tooLarge = (bytes: number) =>
  new DomainError('payload_too_large', bytes === AGENT_MAX_BODY_BYTES ? agentMessages.tooLarge : `The request body is larger than ${bytes / 1024} KiB.`);

/** A report has thousands of fields: the answer names the first twenty problems, not all of them. */
function parseAgentInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const fields = Object.fromEntries(Object.entries(fieldMessages(result.error)).slice(0, 20));
  const [path, message] = Object.entries(fields)[0] ?? ['_', 'The request is not valid.'];
  throw new ValidationError(path === '_' ? message : `${path}: ${message}`, fields);
}

function parseJson(text: string): unknown {
  if (text.trim() === '') throw new DomainError('invalid_json', 'The request body must be a JSON object.');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new DomainError('invalid_json', 'The request body is not valid JSON.');
  }
}

const slugOf = (deps: Pick<Deps, 'config'>) => productSlug(deps.config.PRODUCT_NAME);

async function verifiedDomains(deps: Pick<Deps, 'domains'>, userId: string): Promise<string[]> {
  return (await deps.domains.list(userId)).filter((record) => record.verified).map((record) => record.domain);
}

async function requireVerifiedDomain(deps: Pick<Deps, 'domains'>, userId: string, domain: string): Promise<string> {
  const site = siteKey(domain);
  const record = await deps.domains.get(userId, site);
  if (!record?.verified) throw new ForbiddenError('agent_domain_forbidden', agentMessages.domainNotVerified);
  return site;
}

// ---------------------------------------------------------------------------------------------
// Enrollment (signed in)

async function enrollmentOf(deps: AgentDeps, userId: string): Promise<AgentEnrollment> {
  const existing = await deps.agents.getEnrollment(userId);
  if (existing) return existing;
  // The first visit issues the secret; a concurrent first visit may win, and then its secret is the secret.
  await deps.agents.saveEnrollment(userId, newEnrollmentSecret(), deps.clock.now().toISOString(), undefined);
  return (await deps.agents.getEnrollment(userId))!;
}

async function enrollmentView(deps: AgentDeps, caller: Caller, enrollment: AgentEnrollment): Promise<AgentEnrollmentView> {
  const slug = slugOf(deps);
  return {
    secret: enrollment.secret,
    rotatedAt: enrollment.rotatedAt,
    apiBase: deps.config.SITE_URL.replace(/\/+$/, ''),
    email: caller.email,
    domains: await verifiedDomains(deps, caller.userId),
    installers: agentPlatforms.map((platform) => {
      const fileName = installerFileName(slug, installerExtension(platform));
      return { platform, path: `/agents/${fileName}`, fileName };
    }),
    osqueryVersion: OSQUERY_VERSION,
    agentVersion: AGENT_VERSION,
    disconnectAfterSeconds: AGENT_DISCONNECT_AFTER_SECONDS,
  };
}

/** `GET /api/me/agents/enrollment`: the secret (issued on first use) and what the install page needs. */
export async function getAgentEnrollment(deps: AgentDeps, caller: Caller): Promise<AgentEnrollmentView> {
  await requireAgentPlan(deps, caller.userId);
  return enrollmentView(deps, caller, await enrollmentOf(deps, caller.userId));
}

/**
 * `POST /api/me/agents/secret`: a new secret. Registration and telemetry with the old one stop at once;
 * agents already registered keep reporting with their own tokens.
 */
export async function rotateAgentSecret(deps: AgentDeps, caller: Caller): Promise<AgentEnrollmentView> {
  await requireAgentPlan(deps, caller.userId);
  const current = await enrollmentOf(deps, caller.userId);
  const rotated = await deps.agents.saveEnrollment(caller.userId, newEnrollmentSecret(), deps.clock.now().toISOString(), current.secret);
  if (!rotated) throw new ConflictError('agent_secret_conflict', 'The secret was rotated at the same time elsewhere. Reload to see the current one.');
  return enrollmentView(deps, caller, (await deps.agents.getEnrollment(caller.userId))!);
}

/**
 * `DELETE /api/me/agents/{agentId}`: the owner's answer to a machine that lost its agent token (issue 28
 * finding 10). The agent's token stops at once; its reports already received stay in the log until
 * they expire; the machine, reinstalled, enrols as a new agent. 404 for an id that is not the account's.
 */
export async function removeAgent(deps: Pick<Deps, 'agents'>, caller: Caller, agentId: string | undefined): Promise<void> {
  if (!agentId || !agentIdSchema.safeParse(agentId).success || !(await deps.agents.deleteAgent(caller.userId, agentId))) {
    throw new NotFoundError('agent_not_found', agentMessages.agentNotFound);
  }
}

// ---------------------------------------------------------------------------------------------
// Agent-facing routes

async function enrollmentFromSecret(deps: AgentDeps, authorization: string | undefined): Promise<AgentEnrollment> {
  const secret = bearerValue(authorization);
  if (!secret) throw unauthorized(agentMessages.secretRequired);
  const enrollment = enrollmentSecretPattern.test(secret) ? await deps.agents.findEnrollmentBySecret(secret) : undefined;
  if (!enrollment) throw unauthorized(agentMessages.secretInvalid);
  return enrollment;
}

/** The same machine installed again (same host name, domain and OS) keeps its agent id and gets a new token, if it shows its current one. */
const sameMachine = (agent: AgentRecord, hostname: string, domain: string, os: AgentRecord['os']) =>
  agent.hostname.toLowerCase() === hostname.toLowerCase() && agent.clientDomain === domain && agent.os === os;

/** `POST /api/agents/registrations` with the enrollment secret → 201 the agent's id and token. */
export async function registerAgent(deps: AgentDeps, request: { authorization: string | undefined; body: unknown; sourceIp: string }): Promise<AgentRegistrationResponse> {
  const enrollment = await enrollmentFromSecret(deps, request.authorization);
  // Registering again (a reinstall) needs the plan as much as a new machine: both come from running an installer.
  await requireAgentPlan(deps, enrollment.userId);
  const input = parseAgentInput(agentRegistrationSchema, request.body);
  const domain = await requireVerifiedDomain(deps, enrollment.userId, input.domain);
  await enforceLimits(deps.rateLimits, [{ scope: 'agent-registration:user', subject: enrollment.userId, perHour: deps.config.RATE_LIMIT_AGENT_REGISTRATIONS_PER_ACCOUNT }], 'agent registrations');

  const now = deps.clock.now().toISOString();
  const existing = (await deps.agents.listAgents(enrollment.userId)).find((agent) => sameMachine(agent, input.hostname, domain, input.os));
  // The enrollment secret is in every installer on every machine: it enrols new machines only. An
  // enrolled one is re-registered by the agent itself, with its current token (issue 28 finding 10).
  if (existing && !(await holdsTokenOf(deps, existing, input.agent_token))) throw new ConflictError('agent_exists', agentMessages.agentExists);
  const agentId = existing?.agentId ?? newAgentId();
  const token = newAgentToken(agentId);
  const record: AgentRecord = {
    agentId,
    userId: enrollment.userId,
    tokenHash: secretHash(token),
    hostname: input.hostname,
    os: input.os,
    clientDomain: domain,
    email: input.email,
    agentVersion: input.agent_version,
    osqueryVersion: input.osquery_version,
    registeredAt: now,
    registeredIp: request.sourceIp,
    lastSeenAt: now,
  };
  if (!(await deps.agents.saveAgent(record, existing === undefined, MAX_AGENTS_PER_USER, existing?.tokenHash))) {
    if (existing) throw new ConflictError('agent_exists', agentMessages.agentExists);
    throw new ConflictError('agent_limit_reached', `An account can have at most ${MAX_AGENTS_PER_USER} agents.`);
  }
  return { agent_id: agentId, agent_token: token };
}

/** Whether `token` is the current token of `agent` (looked up as a report's token is, the hash compared in constant time). */
async function holdsTokenOf(deps: Pick<Deps, 'agents'>, agent: AgentRecord, token: string | undefined): Promise<boolean> {
  if (!token || !agentTokenPattern.test(token)) return false;
  const holder = await deps.agents.findAgentByToken(token);
  return holder?.agentId === agent.agentId && holder.userId === agent.userId;
}

/**
 * `POST /api/agents/reports` with the agent's token: validated, scored, stored, whatever the owner's
 * plan is now (see `canEnrollAgents`: a lapsed plan stops new machines, not these). The body may be up to
 * 1 MB, but only once the token is known to be good: an unauthenticated caller gets the API's usual
 * 64 KiB before anything is read.
 */
export async function submitAgentReport(deps: AgentDeps, request: { authorization: string | undefined; rawBody: string }): Promise<AgentReportResponse> {
  const size = Buffer.byteLength(request.rawBody);
  const token = bearerValue(request.authorization);
  const agent = token && agentTokenPattern.test(token) ? await deps.agents.findAgentByToken(token) : undefined;
  if (!agent) {
    if (size > UNAUTHENTICATED_MAX_BODY_BYTES) throw tooLarge(UNAUTHENTICATED_MAX_BODY_BYTES);
    throw unauthorized(token ? agentMessages.tokenInvalid : agentMessages.tokenRequired);
  }
  if (size > AGENT_MAX_BODY_BYTES) throw tooLarge(AGENT_MAX_BODY_BYTES);
  const report = parseAgentInput(agentReportSchema, parseJson(request.rawBody));
  if (report.agent_id !== agent.agentId) throw new ForbiddenError('agent_forbidden', agentMessages.agentMismatch);
  if (siteKey(report.client_domain) !== agent.clientDomain) {
    throw new ForbiddenError('agent_domain_forbidden', `This agent was registered for ${agent.clientDomain}; its reports must name that domain.`);
  }
  if (report.platform !== agent.os) {
    throw new ValidationError(`platform must be ${agent.os}, the agent's registered os`, { platform: `platform must be ${agent.os}` });
  }
  // Issue 28 finding 13: a report is taken once and while fresh. The stored sequence is checked again in the write.
  const freshness = reportFreshness(report.timestamp, deps.clock.now());
  if (freshness !== 'fresh') {
    const message = freshness === 'too-old' ? agentMessages.reportTooOld : agentMessages.reportAhead;
    throw new ValidationError(message, { timestamp: message });
  }
  if (!isNewerSequence(agent.lastSequence, report.sequence)) throw new ConflictError('agent_report_replayed', agentMessages.reportReplayed);
  await enforceLimits(deps.rateLimits, [{ scope: 'agent-report:agent', subject: agent.agentId, perHour: deps.config.RATE_LIMIT_AGENT_REPORTS_PER_AGENT }], 'reports from this agent');

  // The scoring reads the CVE knowledge base (about 1 MB): loaded here, so the routes that only list agents never carry it.
  const { scoreAgentReport, storedScore } = await import('../agents/agent-scoring.js');
  const scored = scoreAgentReport(report);
  const receivedAt = deps.clock.now().toISOString();
  const stored = await deps.agents.recordReport(
    agent,
    {
      receivedAt,
      ip: scored.ip,
      osVersion: scored.os_version,
      agentVersion: report.agent_version,
      score: storedScore(scored),
      sequence: report.sequence,
    },
    { agentId: agent.agentId, clientDomain: agent.clientDomain, auditTimestamp: report.timestamp, receivedAt },
  );
  if (stored === 'gone') throw unauthorized(agentMessages.tokenInvalid);
  if (stored === 'replayed') throw new ConflictError('agent_report_replayed', agentMessages.reportReplayed);
  return { success: true, agent_id: agent.agentId, received_at: receivedAt };
}

/** `POST /api/agents/telemetry` with the enrollment secret: the installer's progress and failures (on any plan, see `canEnrollAgents`). */
export async function submitAgentTelemetry(deps: AgentDeps, request: { authorization: string | undefined; body: unknown }): Promise<AgentTelemetryResponse> {
  const enrollment = await enrollmentFromSecret(deps, request.authorization);
  const input = parseAgentInput(agentTelemetrySchema, request.body);
  const domain = await requireVerifiedDomain(deps, enrollment.userId, input.customer_domain);
  await enforceLimits(deps.rateLimits, [{ scope: 'agent-telemetry:user', subject: enrollment.userId, perHour: deps.config.RATE_LIMIT_AGENT_TELEMETRY_PER_ACCOUNT }], 'install messages');
  await deps.agents.recordInstallEvent(enrollment.userId, {
    hostname: input.hostname,
    customerDomain: domain,
    customerEmail: input.customer_email,
    osVersion: input.os_version,
    installStatus: input.install_status,
    installMessage: input.install_message,
    installDetails: input.install_details,
    ...(input.install_step ? { installStep: input.install_step } : {}),
    installerVersion: input.installer_version,
    timestamp: input.timestamp,
    receivedAt: deps.clock.now().toISOString(),
  });
  return { success: true };
}

// ---------------------------------------------------------------------------------------------
// Dashboard reads (signed in)

/** `GET /api/me/agents/summary[?domain=]` (SPEC §3 Agent summary). */
export async function myAgentsSummary(deps: Pick<Deps, 'agents' | 'clock' | 'config'>, userId: string, query: unknown): Promise<AgentSummaryView> {
  const { domain } = parseAgentInput(agentSummaryQuerySchema, query ?? {});
  const site = domain === undefined ? null : siteKey(domain);
  const agents = (await agentViews(deps, userId)).filter((agent) => site === null || agent.client_domain === site);
  return {
    domain: site,
    agents_found: agents.length,
    agents_active: agents.filter((agent) => agent.status === 'active').length,
    vulnerabilities_total: agents.reduce((sum, agent) => sum + agent.vulnerability_count, 0),
    cis_fails_total: agents.reduce((sum, agent) => sum + agent.cis_fail_count, 0),
    agents_data: agents,
  };
}

/** `GET /api/me/agents/debug` (SPEC §3 Debug API response; the spec's test-osquery-api). */
export async function myAgentsDebug(deps: Pick<Deps, 'agents'>, userId: string): Promise<AgentDebugView> {
  const [enrollment, recent, installs] = await Promise.all([
    deps.agents.getEnrollment(userId),
    deps.agents.recentReports(userId, RECENT_AGENT_REPORTS),
    deps.agents.recentInstallEvents(userId, RECENT_AGENT_REPORTS),
  ]);
  return {
    success: true,
    audit_count: enrollment?.reportCount ?? 0,
    last_audit: enrollment?.lastReportAt ?? null,
    recent_audits: recent.map((entry) => ({ agent_id: entry.agentId, client_domain: entry.clientDomain, audit_timestamp: entry.receivedAt })),
    recent_installs: installs.map((event) => ({
      hostname: event.hostname,
      customer_domain: event.customerDomain,
      os_version: event.osVersion,
      install_status: event.installStatus,
      install_message: event.installMessage,
      install_step: event.installStep ?? null,
      timestamp: event.timestamp,
      received_at: event.receivedAt,
    })),
  };
}

// ---------------------------------------------------------------------------------------------
// Installers

export interface InstallerDownload {
  fileName: string;
  contentType: string;
  text: string;
}

/**
 * `GET /agents/{installerFile}?domain=`: the installer for one of the caller's verified domains with
 * the account's enrollment secret inside, saved as `{domain-with-hyphens}-osquery-installer.bat|sh`.
 */
export async function agentInstaller(deps: AgentDeps, caller: Caller, installerFile: string | undefined, query: Record<string, string | undefined> | undefined): Promise<InstallerDownload> {
  const slug = slugOf(deps);
  const extension = (['bat', 'sh'] as const).find((ext) => installerFile === installerFileName(slug, ext));
  if (!extension) throw new NotFoundError('installer_not_found', agentMessages.installerFile);
  await requireAgentPlan(deps, caller.userId);
  const requested = (query?.domain ?? '').trim().toLowerCase();
  const domains = await verifiedDomains(deps, caller.userId);
  const domain = domains.find((d) => d === siteKey(requested));
  if (!domain) throw new ValidationError(agentMessages.installerDomain, { domain: agentMessages.installerDomain });
  const enrollment = await enrollmentOf(deps, caller.userId);
  const settings: InstallerSettings = {
    productName: deps.config.PRODUCT_NAME,
    productSlug: slug,
    apiBase: deps.config.SITE_URL.replace(/\/+$/, ''),
    enrollmentSecret: enrollment.secret,
    customerEmail: caller.email,
    clientDomain: domain,
  };
  return {
    fileName: savedInstallerFileName(domain, extension),
    contentType: CONTENT_TYPES[extension],
    text: renderInstaller(extension, settings),
  };
}

const CONTENT_TYPES: Record<InstallerExtension, string> = {
  bat: 'application/x-bat; charset=utf-8',
  sh: 'text/x-shellscript; charset=utf-8',
};
