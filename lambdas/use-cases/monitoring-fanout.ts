import * as z from 'zod';
import type { Deps } from '../composition.js';
import { MAX_RESCANS_PER_RUN } from '../domain/monitoring.js';
import type { DueRescans } from '../domain/ports.js';
import { budgetExhausted, dueBySubscriber, type RunBudget, UNLIMITED_BUDGET } from './monitoring-due.js';

/**
 * The scheduler's fan-out (issue 30 item 3): instead of queuing every due rescan in its own run, the
 * scheduler reads the due index and sends one message per subscriber with that subscriber's due
 * domains to the monitoring-fanout queue; the monitoring-fanout worker (lambdas/workers/monitoring-fanout.ts)
 * runs `rescanDueDomains` for each message, several subscribers at once. Nothing is claimed or moved
 * here: a message that never arrives leaves its domains due for the next run, and a message that
 * arrives twice queues nothing more (each domain's slot is claimed once).
 */

/** A monitoring-fanout message: one subscriber and their due domains (at most a run's read). */
export const dueRescansSchema = z.object({
  userId: z.string().min(1),
  domains: z.array(z.string().min(1)).min(1).max(MAX_RESCANS_PER_RUN),
}) satisfies z.ZodType<DueRescans>;

export interface FanOutResult {
  /** Subscribers whose message was sent, and the due domains in them. */
  subscribers: number;
  domains: number;
  /** SendMessageBatch calls (ten messages each at most). */
  sendCalls: number;
  /** Subscribers whose message SQS refused: their domains stay due for the next run. */
  refused: number;
  /** Due domains were left for the next run (MAX_RESCANS_PER_RUN read, the deadline, or a refused message). */
  leftDue: boolean;
}

/** Reads what is due at `now` (at most MAX_RESCANS_PER_RUN) and sends it, one message per subscriber. */
export async function fanOutMonitoringRescans(deps: Pick<Deps, 'monitoring' | 'rescanFanout' | 'log'>, now: Date, budget: RunBudget = UNLIMITED_BUDGET): Promise<FanOutResult> {
  const due = await deps.monitoring.dueDomains(now.toISOString(), MAX_RESCANS_PER_RUN);
  const messages: DueRescans[] = [...dueBySubscriber(due)].map(([userId, domains]) => ({ userId, domains }));
  if (messages.length === 0 || budgetExhausted(budget)) {
    return { subscribers: 0, domains: 0, sendCalls: 0, refused: 0, leftDue: messages.length > 0 };
  }
  const { sent, calls, refused } = await deps.rescanFanout.send(messages);
  if (refused.length > 0) deps.log.warn('Monitoring fan-out: messages refused; their domains stay due for the next run', { refused: refused.length });
  const refusedSet = new Set(refused);
  const domains = messages.filter((message) => !refusedSet.has(message.userId)).reduce((sum, message) => sum + message.domains.length, 0);
  deps.log.info('Monitoring fan-out: due rescans sent', { subscribers: sent, domains, calls });
  return { subscribers: sent, domains, sendCalls: calls, refused: refused.length, leftDue: due.length >= MAX_RESCANS_PER_RUN || refused.length > 0 };
}
