import type { Deps } from '../composition/core.js';
import { agentName, type AgentListView, type AgentView } from '../domain/agents.contract.js';
import { type AgentRecord, agentStatus } from '../domain/agents.js';
import { productSlug } from '../domain/product.js';

/**
 * The dashboard's views of a customer's agents: apart from lambdas/use-cases/agents.ts, so the routes
 * that only read them (the account export among them) never reach the report scoring.
 */
export function agentView(slug: string, agent: AgentRecord, now: Date): AgentView {
  const score = agent.score;
  return {
    agent_id: agent.agentId,
    agent_name: agentName(slug, agent.clientDomain),
    hostname: agent.hostname,
    ip: agent.ip || agent.registeredIp,
    os: agent.os,
    os_version: agent.osVersion ?? '',
    version: agent.agentVersion,
    osquery_version: agent.osqueryVersion,
    client_domain: agent.clientDomain,
    status: agentStatus(agent, now),
    last_keep_alive: agent.lastSeenAt,
    registered_at: agent.registeredAt,
    last_report_at: agent.lastReportAt ?? null,
    vulnerabilities: score?.vulnerabilities ?? [],
    vulnerability_count: score?.vulnerabilityCount ?? 0,
    cis_fail_count: score?.cisFailCount ?? 0,
    cis_checks: score?.cisChecks ?? [],
    security_score: score?.securityScore ?? null,
    security_grade: score?.securityGrade ?? null,
    risk_level: score?.riskLevel ?? null,
  };
}

export async function agentViews(deps: Pick<Deps, 'agents' | 'clock' | 'config'>, userId: string): Promise<AgentView[]> {
  const now = deps.clock.now();
  const slug = productSlug(deps.config.PRODUCT_NAME);
  return (await deps.agents.listAgents(userId))
    .map((agent) => agentView(slug, agent, now))
    .sort((a, b) => a.hostname.localeCompare(b.hostname) || a.agent_id.localeCompare(b.agent_id));
}

/** `GET /api/me/agents`. */
export async function listMyAgents(deps: Pick<Deps, 'agents' | 'clock' | 'config'>, userId: string): Promise<AgentListView> {
  return { agents: await agentViews(deps, userId) };
}
