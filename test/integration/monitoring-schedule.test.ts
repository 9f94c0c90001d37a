import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeps } from '../../lambdas/composition.js';
import { MAX_DOMAINS_PER_USER } from '../../lambdas/domain/domains.js';
import { MONITORING_CADENCE, monitoringPlanFor, rescanSlotStart } from '../../lambdas/domain/monitoring.js';
import { scheduleMonitoringRescans } from '../../lambdas/use-cases/monitoring.js';
import { addDomain, api, setSubscription, signIn, type TestUser } from '../support/accounts.js';
import { startTestStack, type TestStack } from '../support/local-stack.js';

/**
 * The monitoring schedule over the local stack with an injected clock (issue 8 "Monitoring"): which
 * domains get a rescan and when. The scan worker is stopped, so the queued rescans stay as queued
 * audits to inspect; the audits are real, created through the same adapters as every other.
 */

const WEEK = MONITORING_CADENCE['monitor-lite'].periodMs;
const DAY = MONITORING_CADENCE['monitor-plus'].periodMs;

let t: TestStack;
let lite: TestUser;
let plus: TestUser;
let trial: TestUser;
let cancelled: TestUser;
let many: TestUser;
const T0 = new Date(Date.now() + 60_000);

/** Deps whose clock reads `now`, and one scheduler run at `now`: the domains queued, per user. */
async function runAt(now: Date): Promise<Map<string, string[]>> {
  const { queued } = await scheduleMonitoringRescans(buildDeps(t.stack.config, { clock: { now: () => now } }), now);
  const byUser = new Map<string, string[]>();
  for (const q of queued) byUser.set(q.userId, [...(byUser.get(q.userId) ?? []), q.domain].sort());
  return byUser;
}

const verified = (user: TestUser, domain: string, verifiedAt: string) => addDomain(t, user.userId, domain, { at: verifiedAt });

beforeAll(async () => {
  t = await startTestStack();
  await t.stack.stopWorker();
  const user = (name: string) => signIn(t, `${name}@schedule.example.test`, name);
  [lite, plus, trial, cancelled, many] = await Promise.all([user('lite'), user('plus'), user('trial'), user('cancelled'), user('many')]);
  await setSubscription(t, lite.userId, 'monitor-lite', 'active');
  await setSubscription(t, plus.userId, 'monitor-plus', 'active');
  await setSubscription(t, cancelled.userId, 'monitor-plus', 'active');
  await setSubscription(t, cancelled.userId, 'monitor-plus', 'canceled');
  await setSubscription(t, many.userId, 'monitor-lite', 'active');
  await verified(lite, 'weekly-a.example.test', '2026-01-01T00:00:00.000Z');
  await verified(lite, 'weekly-b.example.test', '2026-01-02T00:00:00.000Z');
  await t.stack.deps.domains.add({ id: crypto.randomUUID(), userId: lite.userId, domain: 'unverified.example.test', verificationToken: 'x'.repeat(22), verified: false, addedAt: '2026-01-01T00:00:00.000Z' }, MAX_DOMAINS_PER_USER);
  await verified(plus, 'daily.example.test', '2026-01-01T00:00:00.000Z');
  await verified(trial, 'trial.example.test', '2026-01-01T00:00:00.000Z');
  await verified(cancelled, 'cancelled.example.test', '2026-01-01T00:00:00.000Z');
  for (let i = 1; i <= 8; i += 1) await verified(many, `many-${i}.example.test`, `2026-01-0${i}T00:00:00.000Z`);
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('the monitoring schedule', () => {
  it('queues the first rescan of every verified domain of an active subscription at once, and nothing else', async () => {
    const queued = await runAt(T0);

    expect(queued.get(lite.userId)).toEqual(['weekly-a.example.test', 'weekly-b.example.test']);
    expect(queued.get(plus.userId)).toEqual(['daily.example.test']);
    expect(queued.has(trial.userId)).toBe(false);
    expect(queued.has(cancelled.userId)).toBe(false);
    expect([...queued.keys()].sort()).toEqual([lite.userId, plus.userId, many.userId].sort());
  });

  it('makes each rescan an audit of the owner’s, queued, marked monitoring, that does not count against the plan', async () => {
    const history = await api(t, 'GET', '/api/me/audits', lite.token);
    expect(history.body.audits.map((a: { domain: string }) => a.domain).sort()).toEqual(['weekly-a.example.test', 'weekly-b.example.test']);
    const audit = await t.stack.deps.audits.getAudit(history.body.audits[0].id);
    expect(audit).toMatchObject({ ownerId: lite.userId, origin: 'monitoring', status: 'queued', targetUrl: `https://${audit!.host}/`, createdAt: T0.toISOString() });
    expect(audit!.leadId).toBeUndefined();
    expect((await api(t, 'GET', '/api/me', lite.token)).body.subscription).toMatchObject({ tier: 'monitor_lite', scansUsed: 0, scansLimit: 30 });
  });

  it('queues nothing again within the same slot, however often it runs', async () => {
    expect(await runAt(T0)).toEqual(new Map());
    expect(await runAt(new Date(T0.getTime() + 60_000))).toEqual(new Map());
  });

  it('rescans Monitor Plus daily: not before the domain’s next slot, then once', async () => {
    const next = rescanSlotStart('daily.example.test', DAY, T0).getTime() + DAY;
    expect((await runAt(new Date(next - 1))).get(plus.userId)).toBeUndefined();
    expect((await runAt(new Date(next))).get(plus.userId)).toEqual(['daily.example.test']);
    expect((await runAt(new Date(next + DAY - 1))).get(plus.userId)).toBeUndefined();
    expect((await runAt(new Date(next + DAY))).get(plus.userId)).toEqual(['daily.example.test']);
  });

  it('rescans Monitor Lite weekly, each domain at its own point of the week', async () => {
    const nextA = rescanSlotStart('weekly-a.example.test', WEEK, T0).getTime() + WEEK;
    const nextB = rescanSlotStart('weekly-b.example.test', WEEK, T0).getTime() + WEEK;
    expect(nextA).not.toBe(nextB);
    // A day later, and up to a moment before its slot, a weekly domain is not due.
    expect((await runAt(new Date(Math.min(nextA, nextB) - 1))).get(lite.userId)).toBeUndefined();
    const [first, second] = nextA < nextB ? [['weekly-a.example.test', nextA], ['weekly-b.example.test', nextB]] as const : [['weekly-b.example.test', nextB], ['weekly-a.example.test', nextA]] as const;
    expect((await runAt(new Date(first[1]))).get(lite.userId)).toEqual([first[0]]);
    expect((await runAt(new Date(second[1]))).get(lite.userId)).toEqual([second[0]]);
    expect((await runAt(new Date(second[1] + 1))).get(lite.userId)).toBeUndefined();
  });

  it('monitors no more domains than the plan covers: the first verified six of eight on Monitor Lite', async () => {
    const audits = await t.stack.deps.accounts.listOwnedAudits(many.userId, 100);
    const domains = await Promise.all(audits.audits.map(async (a) => (await t.stack.deps.audits.getAudit(a.auditId))!.host));
    expect(monitoringPlanFor('monitor-lite').maxDomains).toBe(6);
    expect([...new Set(domains)].sort()).toEqual(['many-1', 'many-2', 'many-3', 'many-4', 'many-5', 'many-6'].map((d) => `${d}.example.test`));
  });

  it('stops with the subscription: once it is cancelled no domain of it is queued', async () => {
    await setSubscription(t, plus.userId, 'monitor-plus', 'canceled');
    const next = rescanSlotStart('daily.example.test', DAY, T0).getTime() + 3 * DAY;
    expect((await runAt(new Date(next))).get(plus.userId)).toBeUndefined();
  });
});
