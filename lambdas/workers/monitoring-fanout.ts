import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { Deps } from '../composition/core.js';
import { type RescanRun, rescanDueDomains } from '../use-cases/monitoring.js';
import { budgetUntil, type RunBudget, UNLIMITED_BUDGET } from '../use-cases/monitoring-due.js';
import { dueRescansSchema } from '../use-cases/monitoring-fanout.js';
import type { SchedulerContext } from './monitoring-scheduler.js';
import { queueMessage } from './queue-message.js';

export type MonitoringFanoutWorker = (event: SQSEvent, context?: SchedulerContext) => Promise<SQSBatchResponse>;

/**
 * The monitoring-fanout queue's worker (issue 30 item 3): each message is one subscriber's due
 * domains, sent by the scheduler; each is rescanned as the scheduler's own run would (rescanDueDomains:
 * subscription, opt-out, claim, proof re-check, audit, scan job, next slot). Partial batch failures:
 * a subscriber whose rescans fail (the table or the scan queue refusing) comes back alone, up to the
 * queue's maximum receives, then to its dead letters; the others' are done. A message delivered again
 * queues nothing twice: each domain's slot is claimed once. Domains the invocation's deadline leaves
 * stay due for the scheduler's next run.
 */
export function make(deps: Deps): MonitoringFanoutWorker {
  const processor = new BatchProcessor(EventType.SQS);
  return (event, context) => {
    const budget: RunBudget = typeof context?.getRemainingTimeInMillis === 'function' ? budgetUntil(Date.now() + context.getRemainingTimeInMillis()) : UNLIMITED_BUDGET;
    const now = deps.clock.now();
    const recordHandler = async (record: SQSRecord) => {
      const message = queueMessage(deps, record, dueRescansSchema, 'a subscriber’s due rescans');
      if (!message) return;
      const run: RescanRun = { queued: [], rechecks: 0 };
      const finished = await rescanDueDomains(deps, run, message.userId, message.domains, now, budget);
      deps.log.info('Monitoring fan-out: subscriber’s due rescans done', { userId: message.userId, queued: run.queued.length, leftDue: !finished });
    };
    return processPartialResponse(event, recordHandler, processor, { processInParallel: true });
  };
}
