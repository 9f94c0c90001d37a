import { agentOsSupport } from '../agents/os-lifecycle.js';
import type { Deps } from '../composition/core.js';
import type { Audit } from '../domain/audit.js';
import { parseContract } from '../domain/contract.js';
import { cveFirstSeen, type EssentialEightAgent, essentialEightView } from '../domain/essential-eight.js';
import { essentialEightMessages, essentialEightParamsSchema, type EssentialEightView } from '../domain/essential-eight.contract.js';
import { NotFoundError } from '../domain/errors.js';
import { siteKey } from '../domain/target.js';

/**
 * Issue 21 "Essential Eight readiness" for one of the caller's domains: the owner's latest completed
 * scan of it (and the scans before it, for how long each CVE has been seen), and the domain's agents'
 * latest reports, through the mapping in lambdas/domain/essential-eight.ts. The Pro PDF and the
 * monthly report draw the same view (lambdas/reports/essential-eight-pdf.ts).
 */

/** Scans read back for the CVEs' first sighting: two weeks of daily rescans and some. */
export const ESSENTIAL_EIGHT_HISTORY_SCANS = 20;

type EssentialEightDeps = Pick<Deps, 'domains' | 'audits' | 'agents' | 'clock'>;

/**
 * The view for a domain already known to be the user's: as of its latest completed scan (the monthly
 * report, per monitored domain), or as of `asOf`, one completed audit of it (the Pro PDF of that audit).
 */
export async function essentialEightOfDomain(
  deps: Omit<EssentialEightDeps, 'domains'>,
  userId: string,
  domain: string,
  asOf?: Audit,
): Promise<EssentialEightView> {
  const now = deps.clock.now();
  const [scans, agents] = await Promise.all([
    deps.audits.completedScansOfSite(domain, { ownerId: userId, limit: ESSENTIAL_EIGHT_HISTORY_SCANS, ...(asOf?.completedAt ? { completedBefore: asOf.completedAt } : {}) }),
    deps.agents.listAgents(userId),
  ]);
  const earlier = (await Promise.all(scans.filter((scan) => scan.auditId !== asOf?.id).map((scan) => deps.audits.getAudit(scan.auditId)))).filter(
    (audit): audit is Audit =>
      audit?.status === 'completed' && audit.completedAt !== undefined && audit.ownerId === userId && (!asOf?.completedAt || audit.completedAt <= asOf.completedAt),
  );
  const audits = [...(asOf?.completedAt ? [asOf] : []), ...earlier].sort((a, b) => b.completedAt!.localeCompare(a.completedAt!));
  const today = now.toISOString().slice(0, 10);
  const ofDomain = agents.filter((agent) => agent.clientDomain === domain);
  const reporting: EssentialEightAgent[] = ofDomain
    .filter((agent) => agent.lastReportAt !== undefined && agent.score !== undefined)
    .sort((a, b) => a.hostname.localeCompare(b.hostname) || a.agentId.localeCompare(b.agentId))
    .map((agent) => {
      const osSupport = agentOsSupport(agent.os, agent.osVersion ?? '', today);
      return {
        hostname: agent.hostname,
        platform: agent.os,
        osVersion: agent.osVersion ?? '',
        reportedAt: agent.lastReportAt!,
        ...(osSupport ? { osSupport } : {}),
        vulnerabilities: agent.score!.vulnerabilities,
        vulnerabilityCount: agent.score!.vulnerabilityCount,
        cisChecks: agent.score!.cisChecks,
      };
    });
  const [latest] = audits;
  return essentialEightView({
    domain,
    ...(latest ? { audit: latest } : {}),
    cveFirstSeen: cveFirstSeen(audits),
    agents: reporting,
    agentsTotal: ofDomain.length,
    now,
  });
}

/** `GET /api/me/essential-eight/{domain}`: 400 for a malformed domain, 404 for one that is not the caller's. */
export async function essentialEightOf(deps: EssentialEightDeps, userId: string, rawDomain: string | undefined): Promise<EssentialEightView> {
  const domain = siteKey(parseContract(essentialEightParamsSchema, { domain: rawDomain ?? '' }).domain);
  if (!(await deps.domains.get(userId, domain))) throw new NotFoundError('domain_not_found', essentialEightMessages.domainNotFound);
  return essentialEightOfDomain(deps, userId, domain);
}

/** The view as of one completed audit, for its owner (the Pro PDF): the owner's scans before it and their agents; none without an owner. */
export async function essentialEightOfAudit(deps: Omit<EssentialEightDeps, 'domains'>, audit: Audit): Promise<EssentialEightView> {
  const domain = siteKey(audit.host);
  if (!audit.ownerId) return essentialEightView({ domain, ...(audit.completedAt ? { audit } : {}), cveFirstSeen: cveFirstSeen([audit]), agents: [], now: deps.clock.now() });
  return essentialEightOfDomain(deps, audit.ownerId, domain, audit);
}
