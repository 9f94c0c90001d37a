import { Duration } from 'aws-cdk-lib';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { workerFunctions } from '../../lambdas/routes.js';
import type { Bindings } from '../constructs/bindings.js';
import { type FunctionDefaults, ProjectFunction } from '../constructs/project-function.js';

export const FANOUT_WORKER_TIMEOUT = Duration.seconds(workerFunctions['monitoring-fanout'].timeoutSeconds);
/** AWS's guidance for SQS event sources: at least six times the function timeout. */
export const FANOUT_QUEUE_VISIBILITY_TIMEOUT = Duration.seconds(FANOUT_WORKER_TIMEOUT.toSeconds() * 6);
/** A subscriber whose rescans fail three times goes to the dead letters (the scan queues' rule). */
export const FANOUT_MAX_RECEIVE_COUNT = 3;
/** Ten subscribers an invocation, processed together; a failing one comes back alone (ReportBatchItemFailures). */
export const FANOUT_BATCH_SIZE = 10;
/**
 * At most this many invocations at once (the event source's maximum concurrency, SQS's minimum).
 * Not a reservation: the reserved total stays what the README's concurrency quota check says, and
 * the work is a few table writes and queued scan jobs per domain, so two drain a run's ~200 due
 * domains in seconds.
 */
export const FANOUT_MAX_CONCURRENCY = 2;

export interface MonitoringFanoutProps {
  readonly defaults: FunctionDefaults;
}

/**
 * The monitoring fan-out (issue 30 item 3): the scheduler sends each subscriber's due domains to this
 * queue (lambdas/use-cases/monitoring-fanout.ts), and a worker of its own queues their rescans
 * (lambdas/workers/monitoring-fanout.ts). A worker of its own rather than an SQS event source on the
 * scheduler function: the scheduler reserves one execution so that its quarter-hour runs never
 * overlap, which would also cap (and throttle) the queue's poller and make a fan-out batch wait
 * behind a scheduler run, or a run wait behind a batch; the two also differ in event, timeout
 * (300 s against 60 s) and what they are granted (the worker never sends to this queue, nor writes reports).
 */
export class MonitoringFanout extends Construct {
  readonly queue: Queue;
  readonly deadLetters: Queue;
  private consumer?: ProjectFunction;

  constructor(scope: Construct, id: string, private readonly props: MonitoringFanoutProps) {
    super(scope, id);
    this.deadLetters = new Queue(this, 'FanoutDeadLetters', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    this.queue = new Queue(this, 'FanoutQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      visibilityTimeout: FANOUT_QUEUE_VISIBILITY_TIMEOUT,
      // What is not done within a day is due again at the scheduler's next runs anyway.
      retentionPeriod: Duration.days(1),
      deadLetterQueue: { queue: this.deadLetters, maxReceiveCount: FANOUT_MAX_RECEIVE_COUNT },
    });
  }

  get worker(): ProjectFunction | undefined {
    return this.consumer;
  }

  /** The worker; after the queue, because the bindings it uses need the queue too (as the scan worker's). */
  addWorker(bindings: Bindings): ProjectFunction {
    if (this.consumer) throw new Error('The monitoring-fanout worker exists already');
    const worker = new ProjectFunction(this, 'Worker', { bundle: 'monitoring-fanout', defaults: this.props.defaults, timeout: FANOUT_WORKER_TIMEOUT });
    bindings.bindAll(worker, workerFunctions['monitoring-fanout'].uses);
    worker.addEventSource(new SqsEventSource(this.queue, { batchSize: FANOUT_BATCH_SIZE, reportBatchItemFailures: true, maxConcurrency: FANOUT_MAX_CONCURRENCY }));
    this.consumer = worker;
    return worker;
  }
}
