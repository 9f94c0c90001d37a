import { Duration } from 'aws-cdk-lib';
import { Rule, Schedule as EventSchedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { Construct } from 'constructs';
import type { Bindings } from '../constructs/bindings.js';
import { type FunctionDefaults, ProjectFunction } from '../constructs/project-function.js';

export const SWEEP_INTERVAL = Duration.minutes(5);
/** Rescans are due at each domain's hashed slot within the week or day: a quarter-hour run starts them within 15 minutes of it. */
export const MONITORING_INTERVAL = Duration.minutes(15);

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

  constructor(scope: Construct, id: string, props: ScheduleProps) {
    super(scope, id);
    this.sweeper = new ProjectFunction(this, 'Sweeper', {
      entry: 'lambdas/workers/sweeper.ts',
      description: 'Marks audits stuck past their limit as failed',
      defaults: props.defaults,
      timeout: Duration.seconds(60),
    });
    props.bindings.bindAll(this.sweeper, ['table', 'scanQueue', 'mailer', 'sms']);
    new Rule(this, 'SweepRule', {
      description: 'Every five minutes: sweep stuck audits',
      schedule: EventSchedule.rate(SWEEP_INTERVAL),
      targets: [new LambdaFunction(this.sweeper, { retryAttempts: 2, maxEventAge: Duration.minutes(5) })],
    });

    this.monitoringScheduler = new ProjectFunction(this, 'MonitoringScheduler', {
      entry: 'lambdas/workers/monitoring-scheduler.ts',
      description: 'Queues monitoring rescans, sends waiting alerts and monthly reports, checks a new knowledge base',
      defaults: props.defaults,
      memorySize: 512,
      timeout: Duration.minutes(5),
    });
    props.bindings.bindAll(this.monitoringScheduler, ['table', 'scanQueue', 'mailer', 'sms', 'reports']);
    new Rule(this, 'MonitoringRule', {
      description: 'Every fifteen minutes: monitoring rescans and waiting alerts',
      schedule: EventSchedule.rate(MONITORING_INTERVAL),
      // No retries: the next run picks up whatever this one left due (claims make a rerun safe anyway).
      targets: [new LambdaFunction(this.monitoringScheduler, { retryAttempts: 0, maxEventAge: Duration.minutes(15) })],
    });
  }
}
