import type { Deps } from '../composition.js';
import { monitoredDomains, monitoringPlanOf, rescanSlotStart } from '../domain/monitoring.js';
import type { DueDomain } from '../domain/ports.js';

/**
 * The monitoring due index (issue 30 item 3): each monitored domain sits in an index by the time
 * its next rescan is due, so a scheduler run reads only what is due instead of every subscriber's
 * domains. A domain enters the index when it is verified (lambdas/adapters/dynamodb-domains.adapter.ts,
 * due at once), moves on to its next slot when a rescan is claimed, leaves it when it lapses or is
 * deleted (with its item), and when the subscription no longer pays for monitoring (at its next due
 * time, or at once when the payment webhook says so: `reindexMonitoring`). Domains stored before the
 * index existed are put in by `backfillDueIndex`, which the scheduler runs until it is done.
 */

type DueDeps = Pick<Deps, 'monitoring' | 'accounts' | 'domains' | 'log'>;

/** How much of its time a run has left; the scheduler stops taking work before it runs out. */
export interface RunBudget {
  remainingMs(): number;
}

export const UNLIMITED_BUDGET: RunBudget = { remainingMs: () => Number.POSITIVE_INFINITY };

/**
 * A run stops taking new work this long before its deadline: one subscriber's due domains fit in
 * it (each an opt-out read, a claim, an audit and a queued job; a proof re-check waits at most
 * OWNERSHIP_PROOF_DEADLINE_MS, 10 s).
 */
export const STOP_MARGIN_MS = 20_000;

/** A budget ending at `deadline` (epoch ms) less the margin: `exhausted()` once new work may not finish in time. */
export function budgetUntil(deadline: number, now: () => number = Date.now): RunBudget {
  return { remainingMs: () => deadline - now() };
}

export const budgetExhausted = (budget: RunBudget, marginMs = STOP_MARGIN_MS) => budget.remainingMs() <= marginMs;

/** When the domain's next rescan is due once the current slot's is claimed: the start of the next slot. */
export function nextDueAt(domain: string, periodMs: number, now: Date): string {
  return new Date(rescanSlotStart(domain, periodMs, now).getTime() + periodMs).toISOString();
}

/** The due domains grouped by subscriber, in the order they fell due. */
export function dueBySubscriber(due: readonly DueDomain[]): Map<string, string[]> {
  const grouped = new Map<string, string[]>();
  for (const { userId, domain } of due) grouped.set(userId, [...(grouped.get(userId) ?? []), domain]);
  return grouped;
}

/**
 * Puts the user's domains in the due index as the subscription says: each monitored domain due at
 * once unless this slot's rescan was claimed already (then at its next slot); every other verified
 * domain out. Idempotent: a subscription that starts (or changes plan), the backfill, a repair.
 */
export async function reindexMonitoring(deps: DueDeps, userId: string, now: Date): Promise<{ indexed: number; removed: number }> {
  const plan = monitoringPlanOf(await deps.accounts.getSubscription(userId));
  const records = await deps.domains.list(userId);
  const monitored = new Set(plan ? monitoredDomains(records, plan.maxDomains).map((record) => record.domain) : []);
  const result = { indexed: 0, removed: 0 };
  for (const record of records) {
    if (!record.verified) continue;
    if (!plan || !monitored.has(record.domain)) {
      await deps.monitoring.setDue(userId, record.domain, undefined);
      result.removed += 1;
      continue;
    }
    const current = rescanSlotStart(record.domain, plan.periodMs, now).toISOString();
    const claimed = await deps.monitoring.claimedSlot(userId, record.domain);
    await deps.monitoring.setDue(userId, record.domain, claimed !== undefined && claimed >= current ? nextDueAt(record.domain, plan.periodMs, now) : current);
    result.indexed += 1;
  }
  return result;
}

/** Subscribers per page of the backfill. */
const BACKFILL_PAGE = 100;

/**
 * The migration (issue 30 item 3): domains stored before the due index have no place in it. The
 * scheduler calls this at the start of every run; the first runs after the deploy go through the
 * active subscriptions (one page at a time, within the run's budget, remembering where they
 * stopped) and index each subscriber's domains; once through, it is one read per run. Running it
 * again changes nothing (`reindexMonitoring` is idempotent).
 */
export async function backfillDueIndex(deps: DueDeps, now: Date, budget: RunBudget = UNLIMITED_BUDGET): Promise<'done' | 'partial' | 'already'> {
  const progress = await deps.monitoring.dueIndexBackfill();
  if (progress?.done) return 'already';
  let after = progress?.after;
  let subscribers = 0;
  for (;;) {
    const page = await deps.monitoring.activeSubscriptionsPage(after, BACKFILL_PAGE);
    if (page.length === 0) break;
    for (const { userId } of page) {
      if (budgetExhausted(budget)) {
        await deps.monitoring.saveDueIndexBackfill({ done: false, ...(after ? { after } : {}), updatedAt: now.toISOString() });
        deps.log.info('Monitoring due index: backfill stopped for the run’s deadline; the next run carries on', { subscribers, after });
        return 'partial';
      }
      await reindexMonitoring(deps, userId, now);
      subscribers += 1;
      after = userId;
    }
  }
  await deps.monitoring.saveDueIndexBackfill({ done: true, ...(after ? { after } : {}), updatedAt: now.toISOString() });
  deps.log.info('Monitoring due index: backfill done', { subscribers });
  return 'done';
}
