import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Finding, Grade } from '../../lambdas/domain/audit.js';
import { addDomain, api, setSubscription, signIn, type TestUser } from '../support/accounts.js';
import { startTestStack, type TestStack } from '../support/local-stack.js';

/**
 * SPEC §3 "Audit history entry" over the local stack: `GET /api/me/audits` (and the API-token twin
 * that shares its use case) gives each audit its tier from what was bought for it, its issues as
 * `vulnerabilities`, and `badgeEligible` by the badge's own rule (lambdas/domain/badge.ts) for the
 * scan the domain's badge states. Audits are written through the repositories with known scores,
 * findings and times; the badge facts (verified domains, the subscription) are set as the app sets them.
 */

let t: TestStack;
let owner: TestUser;
let subscriber: TestUser;
const DAY = 86_400_000;
const ids = {} as Record<'older' | 'pro' | 'basic' | 'free' | 'queued' | 'subscribed', string>;

const finding = (id: string, title: string, severity: Finding['severity']): Finding => ({
  id,
  check: 'http',
  title,
  severity,
  category: 'headers',
  description: `${title}.`,
  recommendation: `Fix: ${title}.`,
});

/** A scan of the domain owned by the user, completed `daysAgo` days ago with the score, grade and findings given. */
async function completedScan(user: TestUser, domain: string, score: number, grade: Grade, daysAgo: number, findings: Finding[] = []): Promise<string> {
  const id = crypto.randomUUID();
  const completedAt = new Date(Date.now() - daysAgo * DAY);
  const createdAt = new Date(completedAt.getTime() - 40_000).toISOString();
  await t.stack.deps.audits.createAudit({ id, ownerId: user.userId, targetUrl: `https://${domain}/`, host: domain, status: 'queued', createdAt, checks: [] });
  await t.stack.deps.audits.markInProgress(id, new Date(completedAt.getTime() - 30_000).toISOString());
  await t.stack.deps.audits.saveCheck(id, { name: 'http', status: 'ok', durationMs: 5, findings });
  await t.stack.deps.audits.complete(id, { score, grade, riskLevel: score >= 80 ? 'low' : score >= 60 ? 'medium' : 'high', completedAt: completedAt.toISOString() });
  return id;
}

/** What the payment webhook records for a bought audit (lambdas/use-cases/payments.ts): 30 days of badge for Basic, 90 for Pro. */
async function bought(auditId: string, planType: 'basic' | 'pro'): Promise<void> {
  const now = Date.now();
  const granted = await t.stack.deps.audits.markPremium(auditId, {
    planType,
    paymentSessionId: `cs_test_history_${planType}_${auditId.slice(0, 8)}`,
    badgeEligibleUntil: new Date(now + (planType === 'pro' ? 90 : 30) * DAY).toISOString(),
    updatedAt: new Date(now).toISOString(),
  });
  expect(granted).toBe(true);
}

beforeAll(async () => {
  t = await startTestStack();
  [owner, subscriber] = await Promise.all([signIn(t, 'owner@history.example.test'), signIn(t, 'subscriber@history.example.test')]);
  await addDomain(t, owner.userId, 'pro.history.example.test');
  await addDomain(t, owner.userId, 'basic.history.example.test');
  await addDomain(t, subscriber.userId, 'sub.history.example.test');
  await setSubscription(t, subscriber.userId, 'monitor-lite', 'active');

  ids.older = await completedScan(owner, 'pro.history.example.test', 92, 'A', 10);
  ids.pro = await completedScan(owner, 'pro.history.example.test', 85, 'B', 1, [
    finding('http.headers.csp-missing', 'No Content-Security-Policy', 'medium'),
    finding('http.headers.tls-version', 'TLS 1.3 offered', 'info'),
    finding('http.cookies.session-insecure', 'Session cookie without Secure', 'high'),
  ]);
  await bought(ids.pro, 'pro');
  ids.basic = await completedScan(owner, 'basic.history.example.test', 40, 'F', 1, [finding('tls.certificate.expired', 'Certificate expired', 'critical')]);
  await bought(ids.basic, 'basic');
  // The owner never verified this one: a perfect recent scan is no badge.
  ids.free = await completedScan(owner, 'free.history.example.test', 100, 'A', 1);
  ids.queued = crypto.randomUUID();
  await t.stack.deps.audits.createAudit({
    id: ids.queued,
    ownerId: owner.userId,
    targetUrl: 'https://pro.history.example.test/',
    host: 'pro.history.example.test',
    status: 'queued',
    createdAt: new Date().toISOString(),
    checks: [],
  });
  ids.subscribed = await completedScan(subscriber, 'sub.history.example.test', 80, 'B', 2);
}, 60_000);

afterAll(async () => {
  await t?.close();
});

type Entry = { id: string; tier: string; vulnerabilities: unknown[]; badgeEligible: boolean; findings: { totalIssues: number } };

async function history(user: TestUser, path = '/api/me/audits'): Promise<Map<string, Entry>> {
  const reply = await api(t, 'GET', path, user.token);
  expect(reply.status).toBe(200);
  return new Map((reply.body.audits as Entry[]).map((entry) => [entry.id, entry]));
}

describe('GET /api/me/audits entries', () => {
  it("reads tier 'pro' for a bought Pro Audit and 'basic' for a Basic Audit, a free scan and a queued one", async () => {
    // Act
    const entries = await history(owner);

    // Assess
    expect(Object.fromEntries(Object.entries(ids).filter(([name]) => name !== 'subscribed').map(([name, id]) => [name, entries.get(id)?.tier]))).toEqual({
      older: 'basic',
      pro: 'pro',
      basic: 'basic',
      free: 'basic',
      queued: 'basic',
    });
    expect([...entries.values()].filter((entry) => entry.tier === 'pro').map((entry) => entry.id)).toEqual([ids.pro]);
  });

  it('lists the issues of each audit worst first as vulnerabilities, without observations, as many as the issue counter', async () => {
    // Act
    const entries = await history(owner);

    // Assess
    expect(entries.get(ids.pro)!.vulnerabilities).toEqual([
      { id: 'http.cookies.session-insecure', title: 'Session cookie without Secure', severity: 'high' },
      { id: 'http.headers.csp-missing', title: 'No Content-Security-Policy', severity: 'medium' },
    ]);
    expect(entries.get(ids.pro)!.findings.totalIssues).toBe(2);
    expect(entries.get(ids.basic)!.vulnerabilities).toEqual([{ id: 'tls.certificate.expired', title: 'Certificate expired', severity: 'critical' }]);
    expect([entries.get(ids.free)!.vulnerabilities, entries.get(ids.queued)!.vulnerabilities]).toEqual([[], []]);
  });

  it("marks badgeEligible only on the scan an eligible badge states: the latest of a verified domain with a score of 60+ and a paid audit or subscription", async () => {
    // Act
    const entries = await history(owner);
    const subscribed = await history(subscriber);
    const publicBadges = await Promise.all(
      ['pro.history.example.test', 'basic.history.example.test', 'free.history.example.test', 'sub.history.example.test'].map(async (domain) => (await api(t, 'GET', `/api/badges/${domain}`)).body.eligible as boolean),
    );

    // Assess
    expect(Object.fromEntries(Object.entries(ids).filter(([name]) => name !== 'subscribed').map(([name, id]) => [name, entries.get(id)?.badgeEligible]))).toEqual({
      older: false, // not the latest scan of its domain
      pro: true, // verified, 85, a day old, Pro Audit window open
      basic: false, // Basic Audit bought, but 40 < 60
      free: false, // the domain is not verified
      queued: false, // not completed
    });
    // A free scan backs a subscriber's badge: badge eligibility is not the tier.
    expect([subscribed.get(ids.subscribed)?.tier, subscribed.get(ids.subscribed)?.badgeEligible]).toEqual(['basic', true]);
    // The same rule as the public badge of each domain.
    expect(publicBadges).toEqual([true, false, false, true]);
  });

  it('gives the same entries to an API token as to the dashboard (one use case)', async () => {
    // Prepare
    await setSubscription(t, owner.userId, 'monitor-plus', 'active');
    const token = await api(t, 'POST', '/api/me/api-tokens', owner.token, { name: 'history' });
    expect(token.status).toBe(201);

    // Act
    const reply = await fetch(`${t.stack.url}/api/v1/audits`, { headers: { authorization: `Bearer ${token.body.secret as string}` } });
    const viaToken = ((await reply.json()) as { audits: Entry[] }).audits;

    // Assess
    const dashboard = await history(owner);
    expect(viaToken.map((entry) => [entry.id, entry.tier, entry.badgeEligible])).toEqual([...dashboard.values()].map((entry) => [entry.id, entry.tier, entry.badgeEligible]));
  });
});
