import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeps } from '../../lambdas/composition.js';
import { MONITORING_CADENCE, rescanSlotStart } from '../../lambdas/domain/monitoring.js';
import type { StoredSubscription } from '../../lambdas/domain/ports.js';
import { backfillDueIndex, STOP_MARGIN_MS } from '../../lambdas/use-cases/monitoring-due.js';
import { make as makeScheduler } from '../../lambdas/workers/monitoring-scheduler.js';
import { addDomain, setSubscription } from '../support/accounts.js';
import { startTestStack, type TestStack } from '../support/local-stack.js';

/**
 * The monitoring due index (issue 30 item 3) over the local stack: a run reads only the domains that
 * are due, stops before its deadline and leaves the rest to the next run; the backfill gives domains
 * stored before the index their place, once; the index follows the subscription. The scan worker is
 * stopped: queued rescans stay queued audits.
 */

const DAY = MONITORING_CADENCE['monitor-plus'].periodMs;
const SUBSCRIBERS = 12;
const DOMAINS_EACH = 3;

let t: TestStack;
const userIds = Array.from({ length: SUBSCRIBERS }, (_, n) => `due-index-user-${String(n).padStart(2, '0')}`);
const domainsOf = (userId: string) => Array.from({ length: DOMAINS_EACH }, (_, d) => `${userId}-${d}.example.test`);
const allDomains = () => userIds.flatMap(domainsOf).sort();

/**
 * The runs' first moment: one with no domain's daily slot starting in the half hour of runs after
 * it, so a domain rescanned by the first run is not due again (legitimately) by the third.
 */
const T0 = (() => {
  let at = Date.now() + 60_000;
  const boundaryWithin = (from: number) => allDomains().some((domain) => rescanSlotStart(domain, DAY, new Date(from)).getTime() !== rescanSlotStart(domain, DAY, new Date(from + 30 * 60_000)).getTime());
  while (boundaryWithin(at)) at += 60_000;
  return new Date(at);
})();

const depsAt = (now: Date) => buildDeps(t.stack.config, { clock: { now: () => now } });
const plus = (): StoredSubscription => ({ planId: 'monitor-plus', status: 'active', source: 'stripe', currentPeriodStart: '2026-01-01T00:00:00.000Z', currentPeriodEnd: '2099-01-01T00:00:00.000Z' });

/** The domains the index lists as due at `now` (read back through the adapter every run uses). */
async function dueAt(now: Date): Promise<string[]> {
  return (await t.stack.deps.monitoring.dueDomains(now.toISOString(), 1_000)).map((due) => due.domain).sort();
}

beforeAll(async () => {
  t = await startTestStack();
  await t.stack.stopWorker();
  for (const userId of userIds) {
    await t.stack.deps.accounts.saveSubscription(userId, plus());
    for (const domain of domainsOf(userId)) await addDomain(t, userId, domain, { at: '2026-01-01T00:00:00.000Z' });
  }
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('the monitoring due index', () => {
  it('backfills domains stored before the index, once: a second backfill changes nothing', async () => {
    // Prepare: the domains as an older version stored them, with no place in the index.
    for (const userId of userIds) for (const domain of domainsOf(userId)) await t.stack.deps.monitoring.setDue(userId, domain, undefined);
    expect(await dueAt(T0)).toEqual([]);

    // Act
    const first = await backfillDueIndex(depsAt(T0), T0);
    const listedAfterFirst = await dueAt(T0);
    const second = await backfillDueIndex(depsAt(T0), T0);

    // Assess
    expect([first, second]).toEqual(['done', 'already']);
    expect(listedAfterFirst).toEqual(allDomains());
    expect(await t.stack.deps.monitoring.dueIndexBackfill()).toMatchObject({ done: true, after: userIds.at(-1) });
  });

  it('stops a run with more due domains than it can take before its deadline, and the next run carries on', async () => {
    // Prepare: every domain due; a Lambda context with the stop margin and 300 ms of work left.
    expect(await dueAt(T0)).toHaveLength(SUBSCRIBERS * DOMAINS_EACH);
    const deadline = Date.now() + STOP_MARGIN_MS + 300;
    const context = { getRemainingTimeInMillis: () => deadline - Date.now() };

    // Act
    const first = await makeScheduler(depsAt(T0))({ jobs: ['rescans'] }, context);
    const finishedAt = Date.now();
    const queuedFirst = await monitoringAudits();
    const second = await makeScheduler(depsAt(new Date(T0.getTime() + 15 * 60_000)))({ jobs: ['rescans'] });
    const third = await makeScheduler(depsAt(new Date(T0.getTime() + 30 * 60_000)))({ jobs: ['rescans'] });
    const queuedAll = await monitoringAudits();

    // Assess: the first run ended before the deadline with part of the work, the second took the rest, nothing twice.
    expect(finishedAt).toBeLessThan(deadline);
    expect(first.rescansQueued).toBeGreaterThan(0);
    expect(first.rescansQueued).toBeLessThan(SUBSCRIBERS * DOMAINS_EACH);
    expect(queuedFirst).toHaveLength(first.rescansQueued);
    expect(second.rescansQueued).toBe(SUBSCRIBERS * DOMAINS_EACH - first.rescansQueued);
    expect(third.rescansQueued).toBe(0);
    expect(queuedAll.sort()).toEqual(allDomains());
  });

  it('moves each rescanned domain to its next slot: not due again until then, then due once', async () => {
    const [domain] = domainsOf(userIds[0]!);
    const next = rescanSlotStart(domain!, DAY, T0).getTime() + DAY;

    expect(await dueAt(new Date(T0.getTime() + 30 * 60_000))).toEqual([]);
    expect((await dueAt(new Date(next - 1))).includes(domain!)).toBe(false);
    expect((await dueAt(new Date(next))).includes(domain!)).toBe(true);
  });

  it('follows the subscription: a cancelled one takes its domains out at once, a new one puts them back', async () => {
    const userId = userIds[1]!;
    const latest = new Date(T0.getTime() + 30 * DAY);
    expect((await dueAt(latest)).filter((domain) => domain.startsWith(userId))).toEqual(domainsOf(userId));

    await setSubscription(t, userId, 'monitor-plus', 'canceled');
    const afterCancel = (await dueAt(latest)).filter((domain) => domain.startsWith(userId));
    await setSubscription(t, userId, 'monitor-plus', 'active');
    const afterRestart = (await dueAt(latest)).filter((domain) => domain.startsWith(userId));

    expect(afterCancel).toEqual([]);
    expect(afterRestart).toEqual(domainsOf(userId));
  });
});

/** The hosts of every monitoring audit queued so far, one entry per audit. */
async function monitoringAudits(): Promise<string[]> {
  const hosts: string[] = [];
  for (const userId of userIds) {
    const { audits } = await t.stack.deps.accounts.listOwnedAudits(userId, 100);
    for (const { auditId } of audits) {
      const audit = await t.stack.deps.audits.getAudit(auditId);
      if (audit?.origin === 'monitoring') hosts.push(audit.host);
    }
  }
  return hosts;
}
