import type { Deps } from '../composition/core.js';
import { knowledgeBaseFingerprint, matchVulnerabilities } from '../scanner/vulndb/index.js';
import { checkKevUpdatesOnce, scheduleMonitoringRescans, sendWaitingAlerts } from '../use-cases/monitoring.js';
import { backfillDueIndex, budgetExhausted, budgetUntil, type RunBudget, UNLIMITED_BUDGET } from '../use-cases/monitoring-due.js';
import { fanOutMonitoringRescans } from '../use-cases/monitoring-fanout.js';
import { sendMonthlyReports } from '../use-cases/monthly-reports.js';

/** The scheduler's jobs: the quarter-hour ones, and the monthly reports on their own schedule (lib/schedule). */
export const SCHEDULER_JOBS = ['rescans', 'alerts', 'kev', 'monthly-reports'] as const;
export type SchedulerJob = (typeof SCHEDULER_JOBS)[number];

/** The schedule's input (EventBridge's constant input on AWS): which jobs; none named, all of them (the local timer). */
export interface SchedulerEvent {
  jobs?: readonly SchedulerJob[];
}

/** The part of Lambda's context the run reads: its deadline. */
export interface SchedulerContext {
  getRemainingTimeInMillis(): number;
}

/**
 * Scheduled (EventBridge on AWS, a timer locally). Every quarter hour: the due index's backfill
 * until it is done, the subscribers' rescans that are due (only those: lambdas/use-cases/monitoring-due.ts;
 * with MONITORING_FANOUT_QUEUE_URL sent one message per subscriber to the monitoring-fanout worker
 * (`rescansSent`), else queued in this run (`rescansQueued`)),
 * alerts that waited for their domain's hourly limit, and a new knowledge base (once per bundled
 * version) checked for newly exploited CVEs in the software monitored sites run. On their own
 * schedule, once a calendar month has ended: each subscriber's monthly report of it (once each).
 * Every job stops taking work before the function's deadline (Lambda's remaining time) and leaves
 * the rest to the next run.
 */
export function make(deps: Deps) {
  return async (event?: SchedulerEvent, context?: SchedulerContext) => {
    const jobs = new Set<SchedulerJob>(event?.jobs?.length ? event.jobs.filter((job) => SCHEDULER_JOBS.includes(job)) : SCHEDULER_JOBS);
    const budget: RunBudget = typeof context?.getRemainingTimeInMillis === 'function' ? budgetUntil(Date.now() + context.getRemainingTimeInMillis()) : UNLIMITED_BUDGET;
    const now = deps.clock.now();
    let rescansQueued = 0;
    let rescansSent = 0;
    let rescansLeftDue = false;
    if (jobs.has('rescans')) {
      // The migration: domains stored before the due index get their place (a no-op read once done).
      if ((await backfillDueIndex(deps, now, budget)) === 'partial') rescansLeftDue = true;
      else if (deps.config.MONITORING_FANOUT_QUEUE_URL) {
        // One message per subscriber to the monitoring-fanout worker, which queues the rescans.
        const fanOut = await fanOutMonitoringRescans(deps, now, budget);
        rescansSent = fanOut.subscribers;
        rescansLeftDue = fanOut.leftDue;
      } else {
        // No fan-out queue (a stack or test without it): the run queues the rescans itself.
        const { queued, leftDue } = await scheduleMonitoringRescans(deps, now, budget);
        rescansQueued = queued.length;
        rescansLeftDue = leftDue;
      }
    }
    const alertsSent = jobs.has('alerts') && !budgetExhausted(budget) ? await sendWaitingAlerts(deps) : 0;
    const kev = jobs.has('kev') && !budgetExhausted(budget) ? await checkKevUpdatesOnce(deps, knowledgeBaseFingerprint(), matchVulnerabilities) : undefined;
    const monthly = jobs.has('monthly-reports') && !budgetExhausted(budget) ? await sendMonthlyReports(deps, deps.clock.now(), budget) : undefined;
    if (rescansLeftDue) deps.log.info('Monitoring scheduler: due rescans left for the next run', { rescansQueued, rescansSent });
    return { rescansQueued, rescansSent, alertsSent, knowledgeBaseChecked: kev !== undefined, monthlyReportsSent: monthly?.emailed ?? 0 };
  };
}
