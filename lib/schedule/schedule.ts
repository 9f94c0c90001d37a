import { Duration } from 'aws-cdk-lib';
import { Rule, RuleTargetInput, Schedule as EventSchedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { Construct } from 'constructs';
import { workerFunctions } from '../../lambdas/routes.js';
import type { SchedulerEvent } from '../../lambdas/workers/monitoring-scheduler.js';
import type { Bindings } from '../constructs/bindings.js';
import { reserveConcurrency } from '../constructs/concurrency.js';
import { type FunctionDefaults, ProjectFunction } from '../constructs/project-function.js';

export const SWEEP_INTERVAL = Duration.minutes(5);
/** Rescans are due at each domain's hashed slot within the week or day: a quarter-hour run starts them within 15 minutes of it. */
export const MONITORING_INTERVAL = Duration.minutes(15);
/** The quarter-hour run's jobs; the monthly reports have their own rule (issue 30 item 3). */
export const MONITORING_JOBS: SchedulerEvent = { jobs: ['rescans', 'alerts', 'kev'] };
export const MONTHLY_REPORT_JOBS: SchedulerEvent = { jobs: ['monthly-reports'] };
/**
 * Monthly reports: every quarter hour of the first three days of a month (UTC), each run building
 * up to MONTHLY_REPORTS.maxPerRun within its deadline; 10,000 subscribers take about 20 runs. Later
 * in the month nothing runs: a subscription started after the third waits for the next month's report.
 */
export const MONTHLY_REPORTS_SCHEDULE = EventSchedule.cron({ minute: '0/15', day: '1-3' });
/**
 * One run of each at a time (a run outlasting its interval makes the next wait, not overlap), and
 * the scheduled work can never take the API's concurrency either (see SCAN_RESERVED_CONCURRENCY).
 */
export const SCHEDULED_RESERVED_CONCURRENCY = 1;

export interface ScheduleProps {
  readonly bindings: Bindings;
  readonly defaults: FunctionDefaults;
}

/**
 * EventBridge schedules: the sweeper ends audits stuck past their limit as failed; the monitoring
 * scheduler queues subscribers' rescans, sends alerts that waited out their hourly limit, checks a
 * newly deployed knowledge base for newly exploited CVEs and, after a month ends, sends the monthly
 * reports (PDFs in the reports bucket) (lambdas/workers/monitoring-scheduler.ts).
 */
export class Schedule extends Construct {
  readonly sweeper: ProjectFunction;
  readonly monitoringScheduler: ProjectFunction;
  /** The schedules, for the failed-invocation alarms (lib/alarms). */
  readonly rules: readonly Rule[];

  constructor(scope: Construct, id: string, props: ScheduleProps) {
    super(scope, id);
    this.sweeper = new ProjectFunction(this, 'Sweeper', { bundle: 'sweeper', defaults: props.defaults });
    props.bindings.bindAll(this.sweeper, workerFunctions.sweeper.uses);
    reserveConcurrency(this.sweeper, SCHEDULED_RESERVED_CONCURRENCY);
    const sweepRule = new Rule(this, 'SweepRule', {
      description: 'Every five minutes: sweep stuck audits',
      schedule: EventSchedule.rate(SWEEP_INTERVAL),
      targets: [new LambdaFunction(this.sweeper, { retryAttempts: 2, maxEventAge: Duration.minutes(5) })],
    });

    this.monitoringScheduler = new ProjectFunction(this, 'MonitoringScheduler', { bundle: 'monitoring-scheduler', defaults: props.defaults });
    props.bindings.bindAll(this.monitoringScheduler, workerFunctions['monitoring-scheduler'].uses);
    reserveConcurrency(this.monitoringScheduler, SCHEDULED_RESERVED_CONCURRENCY);
    const monitoringRule = new Rule(this, 'MonitoringRule', {
      description: 'Every fifteen minutes: monitoring rescans and waiting alerts',
      schedule: EventSchedule.rate(MONITORING_INTERVAL),
      // No retries: the next run picks up whatever this one left due (claims make a rerun safe anyway).
      targets: [new LambdaFunction(this.monitoringScheduler, { retryAttempts: 0, maxEventAge: Duration.minutes(15), event: RuleTargetInput.fromObject(MONITORING_JOBS) })],
    });
    const monthlyReportsRule = new Rule(this, 'MonthlyReportsRule', {
      description: 'The first three days of a month, every fifteen minutes: monthly reports',
      schedule: MONTHLY_REPORTS_SCHEDULE,
      // No retries either: a run stops before its deadline and the next one carries on (claims make a rerun safe).
      targets: [new LambdaFunction(this.monitoringScheduler, { retryAttempts: 0, maxEventAge: Duration.minutes(15), event: RuleTargetInput.fromObject(MONTHLY_REPORT_JOBS) })],
    });
    this.rules = [sweepRule, monitoringRule, monthlyReportsRule];
  }
}
