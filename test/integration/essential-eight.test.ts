import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckResult, Finding } from '../../lambdas/domain/audit.js';
import { ESSENTIAL_EIGHT_DISCLAIMER, type EssentialEightView } from '../../lambdas/domain/essential-eight.contract.js';
import { essentialEightOfAudit } from '../../lambdas/use-cases/essential-eight.js';
import { addDomain, api, signIn, type TestUser } from '../support/accounts.js';
import { startTestStack, type TestStack } from '../support/local-stack.js';

/**
 * Issue 21 "Essential Eight readiness" over the local stack: scans stored through the audit
 * repository, agents and their scored reports through the agent repository, and
 * `GET /api/me/essential-eight/{domain}` as the dashboard calls it — the mapping reads the owner's
 * scan history (a CVE seen for three weeks is overdue), the latest scan, and the domain's agents
 * (the OS looked up in the end-of-life data), and only the caller's.
 */

let t: TestStack;
let owner: TestUser;
let stranger: TestUser;
const DOMAIN = 'shop.e8.example.test';
const DAY = 86_400_000;

const finding = (id: string, check: string, title: string, extra: Partial<Finding> = {}): Finding => ({
  id,
  check,
  title,
  severity: 'high',
  category: 'Network Security',
  description: 'd',
  recommendation: 'r',
  ...extra,
});

const phpCves = finding('cve.php', 'software', 'PHP 8.1.2 has 1 known vulnerability', {
  cves: ['CVE-2024-4577'],
  cveDetails: [{ id: 'CVE-2024-4577', severity: 'critical', exploited: false, summary: 'Argument injection in PHP-CGI.' }],
});

const softwareCheck = (findings: Finding[]): CheckResult => ({
  name: 'software',
  status: 'ok',
  findings,
  data: { technologies: [{ name: 'PHP', version: '8.1.2', confidence: 'high' }], vulnerabilities: [], endOfLife: [] },
});

async function completedScan(user: TestUser, checks: CheckResult[], completedAt: Date): Promise<string> {
  const id = randomUUID();
  const createdAt = new Date(completedAt.getTime() - 30_000).toISOString();
  await t.stack.deps.audits.createAudit({ id, targetUrl: `https://${DOMAIN}/`, host: DOMAIN, status: 'queued', createdAt, checks: [], ownerId: user.userId });
  await t.stack.deps.audits.markInProgress(id, createdAt);
  // The landing page loaded, as a real scan stores it (DECISIONS "Rescan target": only such a scan counts for a strategy).
  await t.stack.deps.audits.saveCheck(id, { name: 'http', status: 'ok', findings: [], data: { url: `https://${DOMAIN}/`, analyzed: 'https', observatory: { statusCode: 200 } } });
  for (const check of checks) await t.stack.deps.audits.saveCheck(id, check);
  await t.stack.deps.audits.complete(id, { score: 40, grade: 'F', riskLevel: 'high', completedAt: completedAt.toISOString() });
  return id;
}

async function agent(user: TestUser, hostname: string, report?: { osVersion: string; adminsDetail: string; adminsPassed: boolean }): Promise<void> {
  const agentId = `agt_${randomUUID().replace(/-/g, '').slice(0, 26).replace(/[0189]/g, 'a')}`;
  const now = new Date().toISOString();
  const record = {
    agentId,
    userId: user.userId,
    tokenHash: randomUUID(),
    hostname,
    os: 'windows' as const,
    clientDomain: DOMAIN,
    email: user.email,
    agentVersion: '1.0.0',
    osqueryVersion: '5.10.2',
    registeredAt: now,
    registeredIp: '192.0.2.10',
    lastSeenAt: now,
  };
  expect(await t.stack.deps.agents.saveAgent(record, true, 200)).toBe(true);
  if (!report) return;
  const score = {
    vulnerabilities: [],
    vulnerabilityCount: 0,
    cisChecks: [{ id: 'cis.admin-users', title: 'At most one administrator account', passed: report.adminsPassed, detail: report.adminsDetail }],
    cisFailCount: report.adminsPassed ? 0 : 1,
    securityScore: 95,
    securityGrade: 'A' as const,
    riskLevel: 'low' as const,
  };
  const recorded = await t.stack.deps.agents.recordReport(
    { userId: user.userId, agentId },
    { receivedAt: now, ip: '192.0.2.10', osVersion: report.osVersion, agentVersion: '1.0.0', score },
    { agentId, clientDomain: DOMAIN, auditTimestamp: now, receivedAt: now },
  );
  expect(recorded).toBe('stored');
}

const view = async (user: TestUser, domain = DOMAIN) => api(t, 'GET', `/api/me/essential-eight/${domain}`, user.token);
const statusesOf = (v: EssentialEightView) => Object.fromEntries(v.strategies.map((s) => [s.id, s.status]));

let olderScan: Date;
let olderScanId: string;
let latestScanId: string;

beforeAll(async () => {
  t = await startTestStack();
  [owner, stranger] = await Promise.all([signIn(t, 'owner@e8.example.test'), signIn(t, 'stranger@e8.example.test')]);
  await addDomain(t, owner.userId, DOMAIN);
  olderScan = new Date(Date.now() - 21 * DAY);
  olderScanId = await completedScan(owner, [softwareCheck([phpCves])], olderScan);
  latestScanId = await completedScan(
    owner,
    [
      softwareCheck([phpCves]),
      { name: 'ports', status: 'ok', findings: [finding('ports.remote-access.rdp', 'ports', 'Remote Desktop (RDP) is open to the internet', { evidence: '198.51.100.7: 3389/tcp ms-wbt-server' })] },
      { name: 'exposure', status: 'ok', findings: [finding('exposure.sql-dump', 'exposure', 'A database dump is publicly downloadable')] },
    ],
    new Date(Date.now() - DAY),
  );
  await agent(owner, 'FRONT-DESK', { osVersion: 'Microsoft Windows 10 Pro 10.0.19045', adminsDetail: '3 administrators: alice, bob, carol', adminsPassed: false });
  await agent(owner, 'NEW-LAPTOP');
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('GET /api/me/essential-eight/{domain}', () => {
  it("maps the owner's latest scan, its history and the domain's agents to one status per strategy", async () => {
    // Act
    const reply = await view(owner);

    // Assess
    expect(reply.status).toBe(200);
    const body = reply.body as EssentialEightView;
    expect(body.domain).toBe(DOMAIN);
    expect(body.disclaimer).toBe(ESSENTIAL_EIGHT_DISCLAIMER);
    expect(body.sources.webScan?.auditId).toBe(latestScanId);
    expect(body.sources.agents).toEqual({ reporting: 1, total: 2 });
    expect(statusesOf(body)).toEqual({
      'patch-applications': 'evidence-against',
      'patch-operating-systems': 'evidence-against',
      'multi-factor-authentication': 'evidence-against',
      'restrict-administrative-privileges': 'evidence-against',
      'application-control': 'not-assessable',
      'office-macros': 'not-assessable',
      'user-application-hardening': 'not-assessable',
      'regular-backups': 'evidence-against',
    });
    const byId = Object.fromEntries(body.strategies.map((s) => [s.id, s]));
    // The PHP CVE was in both scans: first seen three weeks ago, past the two weeks.
    expect(byId['patch-applications']!.evidence[0]!.what).toBe(
      `PHP 8.1.2 has had 1 known vulnerability unpatched since ${olderScan.toISOString().slice(0, 10)}, more than two weeks before this scan (CVE-2024-4577).`,
    );
    // Windows 10 22H2 left support on 2025-10-14 (endoflife.date, the scanner's data).
    expect(byId['patch-operating-systems']!.evidence[0]).toMatchObject({ effect: 'against', source: 'agent' });
    expect(byId['patch-operating-systems']!.evidence[0]!.what).toContain('Windows 10 22H2 is out of security support since 2025-10-14');
    expect(byId['multi-factor-authentication']!.evidence[0]!.where).toContain('198.51.100.7: 3389/tcp ms-wbt-server');
    expect(byId['restrict-administrative-privileges']!.evidence[0]!.where).toContain('FRONT-DESK');
    expect(byId['regular-backups']!.evidence[0]!.findingId).toBe('exposure.sql-dump');
  });

  it('builds the view as of one audit for its Pro PDF: that scan and the ones before it, not later ones', async () => {
    // Prepare
    const older = (await t.stack.deps.audits.getAudit(olderScanId))!;

    // Act
    const asOf = await essentialEightOfAudit(t.stack.deps, older);

    // Assess
    expect(asOf.sources.webScan?.auditId).toBe(olderScanId);
    const patch = asOf.strategies.find((s) => s.id === 'patch-applications')!;
    // Seen for the first time in that scan: inside its two weeks, so a note; the version seen and the agent's clean report count for.
    expect(patch.status).toBe('evidence-for');
    expect(patch.evidence.map((e) => `${e.source} ${e.effect}`)).toEqual(['web-scan for', 'agent for', 'web-scan neutral']);
    expect(patch.evidence[2]!.what).toContain(`first seen on ${olderScan.toISOString().slice(0, 10)}`);
    expect(asOf.strategies.find((s) => s.id === 'multi-factor-authentication')!.status).toBe('not-assessable');
    // The owner's agents are the domain's today.
    expect(asOf.sources.agents).toEqual({ reporting: 1, total: 2 });
  });

  it("uses only the caller's own scans: another account with the same domain sees no web scan", async () => {
    // Prepare
    await addDomain(t, stranger.userId, DOMAIN, { verified: false });

    // Act
    const reply = await view(stranger);

    // Assess
    expect(reply.status).toBe(200);
    const body = reply.body as EssentialEightView;
    expect(body.sources).toEqual({ webScan: null, agents: { reporting: 0, total: 0 } });
    expect(body.strategies.every((s) => s.status === 'not-assessable')).toBe(true);
  });

  it('answers 404 for a domain that is not one of the caller\'s, 400 for a malformed one and 401 without a sign-in', async () => {
    const notMine = await view(owner, 'elsewhere.example.test');
    expect([notMine.status, (notMine.body as { error: string }).error]).toEqual([404, 'domain_not_found']);
    const malformed = await view(owner, 'not_a_domain');
    expect([malformed.status, (malformed.body as { error: string }).error]).toEqual([400, 'validation_failed']);
    const anonymous = await api(t, 'GET', `/api/me/essential-eight/${DOMAIN}`);
    expect(anonymous.status).toBe(401);
  });
});
