import { createHash } from 'node:crypto';
import { scoreAgentReport, storedScore } from '../agents/agent-scoring.js';
import { generateAgentReport } from '../agents/report-generator.js';
import type { Deps } from '../composition.js';
import { AGENT_VERSION, agentReportSchema, OSQUERY_VERSION } from '../domain/agents.contract.js';
import { MAX_AGENTS_PER_USER, newAgentToken, newEnrollmentSecret, secretHash } from '../domain/agents.js';
import type { Audit, CheckResult } from '../domain/audit.js';
import { DEMO_AGENTS, DEMO_PROFILE, demoCredentials, demoDomains } from '../domain/demo-account.js';
import { MAX_DOMAINS_PER_USER, newVerificationToken } from '../domain/domains.js';
import type { LeadRecord } from '../domain/ports.js';
import { sampleAudit } from '../domain/sample-report.js';
import { scoreChecks } from '../domain/grade-caps.js';
import { grade, riskLevel } from '../domain/scoring.js';
import { type ExposureHit, hitFindings } from '../scanner/checks/exposure/findings.js';

/**
 * DECISIONS "Demo account", SPEC §4 "The demo account gets the Monitor Plus plan, two domains and
 * five sample audits": seeded by local provisioning when DEMO_MODE is on, through the same
 * adapters the product writes with, so every route reads it like any account's data. Idempotent:
 * run at every `npm start`, it creates what is missing, restores the documented password, keeps
 * the plan's period current, and replaces the sample audits once the newest is over two weeks old
 * (so the dashboard's score-over-time chart always has recent points). The three sample agents
 * (DEMO_AGENTS) send fresh generated reports at every start, so the Local Agents page shows them
 * active with five recent submissions. Sample audits never count in GET /api/stats (only the scan
 * worker counts) nor against the plan's scans.
 */

type SeedDeps = Pick<Deps, 'users' | 'accounts' | 'audits' | 'domains' | 'agents' | 'clock' | 'config'>;

const DAY_MS = 86_400_000;
/** The sample audits are dated again once the newest is older than this. */
export const DEMO_AUDITS_FRESH_DAYS = 14;

/** One sample scan: which domain, how long ago, how long it took, and what had been fixed by then. */
interface SampleScan {
  domain: 0 | 1;
  daysAgo: number;
  seconds: number;
  /** The site's Git repository could still be downloaded (a critical issue, fixed by the next scan). */
  gitExposed?: boolean;
  fixed: readonly SampleFix[];
}

type SampleFix = 'database-port' | 'php-upgrade' | 'tls10-off' | 'csp-added';

/** The story the five audits tell: two sites that get safer week by week (scores 55, 75, 75, 85, 95). */
export const DEMO_TIMELINE: readonly SampleScan[] = [
  { domain: 0, daysAgo: 34, seconds: 24, gitExposed: true, fixed: [] },
  { domain: 1, daysAgo: 27, seconds: 19, fixed: [] },
  { domain: 0, daysAgo: 20, seconds: 21, fixed: [] },
  { domain: 1, daysAgo: 12, seconds: 18, fixed: ['database-port', 'php-upgrade'] },
  { domain: 0, daysAgo: 3, seconds: 17, fixed: ['database-port', 'php-upgrade', 'tls10-off', 'csp-added'] },
];

const FIXED_FINDING: Record<SampleFix, string> = {
  'database-port': 'ports.database.exposed',
  'php-upgrade': 'software.eol.php',
  'tls10-off': 'tls.protocol.tls10',
  'csp-added': 'http.csp.missing',
};

/** A stable id in the audit id format (a v4-shaped UUID), so that seeding twice finds what it made. */
export function demoId(userId: string, label: string): string {
  const h = createHash('sha256').update(`demo:${userId}:${label}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${'89ab'[parseInt(h[16]!, 16) % 4]}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

type Data = Record<string, unknown>;
const dataOf = (checks: CheckResult[], name: string): Data => (checks.find((c) => c.name === name)!.data ??= {});

/**
 * The sample report's checks (real check shapes and texts) for the demo site: names rewritten to
 * the demo domain, findings removed as the timeline fixes them, measured data changed with them.
 */
export function demoChecks(host: string, registrable: string, scan: SampleScan, completedAt: Date, certificateExpiry: Date): CheckResult[] {
  const text = JSON.stringify(sampleAudit('demo_seed').checks).replaceAll('www.example.com', host).replaceAll('example.com', registrable);
  const checks = JSON.parse(text) as CheckResult[];
  const gone = new Set(scan.fixed.map((fix) => FIXED_FINDING[fix]));
  for (const check of checks) check.findings = check.findings.filter((finding) => !gone.has(finding.id));

  const tls = dataOf(checks, 'tls');
  const port443 = (tls.ports as Data[])[0]!;
  const certificate = port443.certificate as Data;
  certificate.notAfter = certificateExpiry.toISOString();
  certificate.daysLeft = Math.floor((certificateExpiry.getTime() - completedAt.getTime()) / DAY_MS);
  if (scan.fixed.includes('tls10-off')) {
    port443.offered = ['TLSv1.2', 'TLSv1.3'];
    port443.grade = 'A';
    tls.grade = 'A';
  }
  if (scan.fixed.includes('database-port')) {
    const ports = dataOf(checks, 'ports');
    ports.open = (ports.open as Data[]).filter((port) => port.port !== 3306);
    ports.filtered = (ports.filtered as number) + 1;
  }
  if (scan.fixed.includes('php-upgrade')) {
    const software = dataOf(checks, 'software');
    software.technologies = (software.technologies as Data[]).map((t) => (t.name === 'PHP' ? { ...t, version: '8.3.14' } : t));
  }
  if (scan.fixed.includes('csp-added')) dataOf(checks, 'http').observatory = { ...(dataOf(checks, 'http').observatory as object), graded: true, score: 90, grade: 'A' };
  if (scan.gitExposed) {
    const hit: ExposureHit = { path: '/.git/HEAD', status: 200, kind: 'git', signature: 'git-head', bytes: 23, detail: 'ref: refs/heads/main', severity: 'critical' };
    const exposure = checks.find((c) => c.name === 'exposure')!;
    exposure.findings.unshift(...hitFindings([hit]));
    exposure.data = { ...exposure.data, hits: [hit] };
  }
  return checks;
}

/** The five sample audits with their leads, dated relative to `now`. */
export function demoAudits(userId: string, email: string, productName: string, now: Date): { lead: LeadRecord; audit: Audit }[] {
  const domains = demoDomains(productName);
  // One certificate per site, renewed seven weeks ago: each scan measures its days left from there.
  const certificateExpiry = new Date(now.getTime() + 41 * DAY_MS);
  return DEMO_TIMELINE.map((scan, index) => {
    const host = domains[scan.domain];
    const created = new Date(now.getTime() - scan.daysAgo * DAY_MS - 2 * 3_600_000);
    const started = new Date(created.getTime() + 1_000);
    const completed = new Date(started.getTime() + scan.seconds * 1_000);
    const checks = demoChecks(host, domains[0], scan, completed, certificateExpiry);
    const { score, caps } = scoreChecks(checks);
    const targetUrl = `https://${host}/`;
    const lead: LeadRecord = {
      id: demoId(userId, `lead-${index}`),
      firstName: DEMO_PROFILE.firstName,
      lastName: DEMO_PROFILE.lastName,
      businessName: DEMO_PROFILE.company,
      email,
      mobileNumber: '',
      webUrl: targetUrl,
      host,
      userId,
      createdAt: created.toISOString(),
    };
    const audit: Audit = {
      id: demoId(userId, `audit-${index}`),
      leadId: lead.id,
      ownerId: userId,
      businessName: DEMO_PROFILE.company,
      targetUrl,
      host,
      status: 'completed',
      createdAt: created.toISOString(),
      startedAt: started.toISOString(),
      completedAt: completed.toISOString(),
      score,
      grade: grade(score),
      riskLevel: riskLevel(score),
      ...(caps.length > 0 ? { gradeCaps: caps } : {}),
      checks,
    };
    return { lead, audit };
  });
}

/** Creates (or brings up to date) the demo account; answers its user id and email. */
export async function seedDemoAccount(deps: SeedDeps): Promise<{ userId: string; email: string }> {
  const { email, password } = demoCredentials(deps.config.PRODUCT_NAME);
  const now = deps.clock.now();

  const userId =
    (await deps.users.findUserIdByEmail(email)) ??
    (await deps.users.createUser({ email, givenName: DEMO_PROFILE.firstName, familyName: DEMO_PROFILE.lastName, company: DEMO_PROFILE.company }, password)).userId;
  // Also puts the documented password back if someone changed it while trying the demo.
  await deps.users.setPermanentPassword(userId, password);

  await deps.accounts.getOrCreateProfile({ userId, email, ...DEMO_PROFILE, isDemo: true });
  const periodStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - 9 * DAY_MS);
  const periodEnd = new Date(periodStart);
  periodEnd.setUTCMonth(periodEnd.getUTCMonth() + 1);
  await deps.accounts.saveSubscription(userId, {
    planId: 'monitor-plus',
    status: 'active',
    currentPeriodStart: periodStart.toISOString(),
    currentPeriodEnd: periodEnd.toISOString(),
    source: 'demo',
  });

  for (const [index, domain] of demoDomains(deps.config.PRODUCT_NAME).entries()) {
    const addedAt = new Date(now.getTime() - (40 - index * 3) * DAY_MS).toISOString();
    if (!(await deps.domains.get(userId, domain))) {
      await deps.domains.add({ id: demoId(userId, `domain-${index}`), userId, domain, verificationToken: newVerificationToken(), verified: false, addedAt }, MAX_DOMAINS_PER_USER);
    }
    const record = await deps.domains.get(userId, domain);
    if (!record?.verified) await deps.domains.markVerified(userId, domain, new Date(Date.parse(addedAt) + 3_600_000).toISOString(), 'dns');
    // The demo's names never resolve: its proofs count as seen at each seed, so no re-check lapses them.
    await deps.domains.markChecked(userId, domain, now.toISOString());
  }

  await seedAudits(deps, userId, email, now);
  await seedAgents(deps, userId, email, now);
  return { userId, email };
}

/** A stable agent id (`agt_` + 26 base32 characters) for a demo machine, so seeding twice finds it. */
export function demoAgentId(userId: string, key: string): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  const bytes = createHash('sha256').update(`demo-agent:${userId}:${key}`).digest();
  return `agt_${Array.from(bytes.subarray(0, 26), (b) => alphabet[b & 31]).join('')}`;
}

async function seedAgents(deps: SeedDeps, userId: string, email: string, now: Date): Promise<void> {
  if (!(await deps.agents.getEnrollment(userId))) await deps.agents.saveEnrollment(userId, newEnrollmentSecret(), now.toISOString(), undefined);
  const domains = demoDomains(deps.config.PRODUCT_NAME);
  const existing = new Set((await deps.agents.listAgents(userId)).map((agent) => agent.agentId));
  // Oldest first across all machines, so the debug panel's five recent submissions interleave them.
  const reports = DEMO_AGENTS.flatMap((machine) => machine.reports.map((minutesAgo, index) => ({ machine, minutesAgo, index }))).sort((a, b) => b.minutesAgo - a.minutesAgo);
  for (const machine of DEMO_AGENTS) {
    const agentId = demoAgentId(userId, machine.key);
    if (existing.has(agentId)) continue;
    const registeredAt = new Date(now.getTime() - 30 * 86_400_000).toISOString();
    await deps.agents.saveAgent(
      {
        agentId,
        userId,
        tokenHash: secretHash(newAgentToken(agentId)),
        hostname: machine.hostname,
        os: machine.platform,
        clientDomain: domains[machine.domain],
        email,
        agentVersion: AGENT_VERSION,
        osqueryVersion: OSQUERY_VERSION,
        registeredAt,
        registeredIp: '',
        lastSeenAt: registeredAt,
      },
      true,
      MAX_AGENTS_PER_USER,
    );
  }
  for (const { machine, minutesAgo, index } of reports) {
    const agentId = demoAgentId(userId, machine.key);
    const at = new Date(now.getTime() - minutesAgo * 60_000).toISOString();
    const { report } = generateAgentReport({ platform: machine.platform, seed: `${machine.key}-${index}`, agentId, clientDomain: domains[machine.domain], timestamp: at, hostname: machine.hostname, problems: machine.problems });
    const scored = scoreAgentReport(agentReportSchema.parse(report));
    await deps.agents.recordReport(
      { userId, agentId },
      {
        receivedAt: at,
        ip: scored.ip,
        osVersion: scored.os_version,
        agentVersion: AGENT_VERSION,
        score: storedScore(scored),
      },
      { agentId, clientDomain: domains[machine.domain], auditTimestamp: at, receivedAt: at },
    );
  }
}

async function seedAudits(deps: SeedDeps, userId: string, email: string, now: Date): Promise<void> {
  const samples = demoAudits(userId, email, deps.config.PRODUCT_NAME, now);
  const stored = await Promise.all(samples.map(({ audit }) => deps.audits.getAudit(audit.id)));
  const newest = stored.at(-1);
  const fresh =
    stored.every((audit) => audit?.status === 'completed') && newest?.completedAt !== undefined && now.getTime() - Date.parse(newest.completedAt) < DEMO_AUDITS_FRESH_DAYS * DAY_MS;
  if (fresh) return;

  const owner = { userId, email };
  for (const { lead, audit } of samples) {
    await deps.audits.deleteAuditOf(audit.id, owner);
    await deps.audits.deleteLeadOf(lead.id, owner);
  }
  for (const { lead, audit } of samples) {
    const { checks, ...head } = audit;
    const { gradeCaps, ...queued } = head;
    await deps.audits.createLeadWithAudit(lead, { ...queued, status: 'queued', checks: [], score: undefined, grade: undefined, riskLevel: undefined, startedAt: undefined, completedAt: undefined });
    await deps.audits.markInProgress(audit.id, audit.startedAt!);
    for (const check of checks) await deps.audits.saveCheck(audit.id, check);
    await deps.audits.complete(audit.id, { score: audit.score!, grade: audit.grade!, riskLevel: audit.riskLevel!, completedAt: audit.completedAt!, ...(gradeCaps ? { gradeCaps } : {}) });
  }
}
