import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCAN_DEPTHS } from '../../lambdas/domain/plans.js';
import { addDomain, api, signIn, type TestUser, verifyAddressByCode } from '../support/accounts.js';
import { postJson, startTestStack, type TestStack, validLead, waitForAudit } from '../support/local-stack.js';

/**
 * Tiers that are true (issue 21 item 1) over the whole local stack: the depth a scan runs at is the
 * one the plan catalogue grants. A free lead scan and the trial's own Quick Scans run the standard
 * scan (top 100 ports, the site only); once they are used, a Quick Scan drawn from a scan pack bought
 * through the local checkout and the real webhook runs deep (top 1,000 ports, the subdomain surface).
 * The worker scans shop.example.test on loopback.
 */

const SHOP = 'shop.example.test';
let t: TestStack;
let owner: TestUser;

interface ScannedReport {
  audit: { depth?: string; checks: { name: string }[] };
  result: { scan_depth?: string; network: { portsScanned: number } };
}

async function finished(auditId: string): Promise<ScannedReport> {
  expect((await waitForAudit(t.stack.url, auditId, 100_000)).status).toBe('completed');
  const reply = await api(t, 'GET', `/api/audits/${auditId}`, owner.token);
  expect(reply.status).toBe(200);
  return reply.body as ScannedReport;
}

const depthOf = (report: ScannedReport) => ({
  depth: report.audit.depth ?? 'standard',
  portsScanned: report.result.network.portsScanned,
  subdomainSurface: report.audit.checks.some((check) => check.name === 'subdomain-surface'),
});

beforeAll(async () => {
  t = await startTestStack({ SCAN_ALLOW_PRIVATE_TARGETS: '1' });
  owner = await signIn(t, `owner@${SHOP}`, 'Olive');
  await addDomain(t, owner.userId, SHOP);
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('the depth of a scan follows the plan that pays for it', () => {
  it('runs a free lead scan standard', async () => {
    // Prepare: the address at the site's domain proven by its code (DECISIONS "Scan modes" [attacker]: until then, passive).
    await verifyAddressByCode(t, '127.0.0.1', `owner@${SHOP}`, validLead.webUrl);

    // Act
    const lead = await postJson(`${t.stack.url}/api/leads`, { ...validLead, email: `owner@${SHOP}` });
    const report = await finished(String(lead.body.auditId));

    // Assess
    expect(depthOf(report)).toEqual({ depth: 'standard', portsScanned: SCAN_DEPTHS.standard.topPorts, subdomainSurface: false });
  }, 120_000);

  it("runs the trial's own Quick Scan standard", async () => {
    // Act
    const quick = await api(t, 'POST', '/api/me/scans', owner.token, { domain: SHOP });
    expect(quick.status).toBe(201);
    const report = await finished(String(quick.body.auditId));

    // Assess
    expect(depthOf(report)).toEqual({ depth: 'standard', portsScanned: SCAN_DEPTHS.standard.topPorts, subdomainSurface: false });
  }, 120_000);

  it('runs a Quick Scan drawn from a bought scan pack deep: 1,000 ports and the subdomain surface', async () => {
    // Prepare: the trial's other two scans used up, then a Basic Scan pack bought and paid for.
    for (let i = 0; i < 2; i += 1) expect(await t.stack.deps.domains.countScan(owner.userId, 3)).toBe(true);
    const session = await api(t, 'POST', '/api/checkout-sessions', owner.token, { planId: 'basic-scan' });
    expect(session.status).toBe(201);
    const paid = await fetch(`${t.stack.url}/_local/checkout/${String(session.body.sessionId)}/pay`, { method: 'POST', redirect: 'manual' });
    expect(paid.status).toBe(303);
    expect((await api(t, 'GET', '/api/me', owner.token)).body.subscription).toMatchObject({ scansLimit: 3 + 5, scansUsed: 3 });

    // Act
    const quick = await api(t, 'POST', '/api/me/scans', owner.token, { domain: SHOP });
    expect(quick.status).toBe(201);
    const report = await finished(String(quick.body.auditId));

    // Assess
    expect(depthOf(report)).toEqual({ depth: 'deep', portsScanned: SCAN_DEPTHS.deep.topPorts, subdomainSurface: true });
    expect(report.result.scan_depth).toBe('deep');
  }, 150_000);
});
