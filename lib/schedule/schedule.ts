import { Duration } from 'aws-cdk-lib';
import { Rule, Schedule as EventSchedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { Construct } from 'constructs';
import type { Bindings } from '../constructs/bindings.js';
import { type FunctionDefaults, ProjectFunction } from '../constructs/project-function.js';

export const SWEEP_INTERVAL = Duration.minutes(5);

export interface ScheduleProps {
  readonly bindings: Bindings;
  readonly defaults: FunctionDefaults;
}

/** EventBridge schedules: the sweeper ends audits stuck past their limit as failed. */
export class Schedule extends Construct {
  readonly sweeper: ProjectFunction;

  constructor(scope: Construct, id: string, props: ScheduleProps) {
    super(scope, id);
    this.sweeper = new ProjectFunction(this, 'Sweeper', {
      entry: 'lambdas/workers/sweeper.ts',
      description: 'Marks audits stuck past their limit as failed',
      defaults: props.defaults,
      timeout: Duration.seconds(60),
    });
    props.bindings.bindAll(this.sweeper, ['table', 'scanQueue']);
    new Rule(this, 'SweepRule', {
      description: 'Every five minutes: sweep stuck audits',
      schedule: EventSchedule.rate(SWEEP_INTERVAL),
      targets: [new LambdaFunction(this.sweeper, { retryAttempts: 2, maxEventAge: Duration.minutes(5) })],
    });
  }
}
