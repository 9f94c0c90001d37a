import { Duration } from 'aws-cdk-lib';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { Bindings } from '../constructs/bindings.js';
import { type FunctionDefaults, ProjectFunction } from '../constructs/project-function.js';

/**
 * Timing contract of the scan pipeline (the sweeper's "stuck" limit must exceed a job's worst
 * case: MAX_RECEIVE_COUNT deliveries, each hidden for the visibility timeout).
 */
export const SCAN_WORKER_TIMEOUT = Duration.seconds(90);
/** AWS's guidance for SQS event sources: at least six times the function timeout. */
export const SCAN_QUEUE_VISIBILITY_TIMEOUT = Duration.seconds(SCAN_WORKER_TIMEOUT.toSeconds() * 6);
export const SCAN_MAX_RECEIVE_COUNT = 3;
export const SCAN_BATCH_SIZE = 2;
/** Caps concurrent workers so a burst of leads cannot fan out into hundreds of scanners. */
export const SCAN_MAX_CONCURRENCY = 10;

export interface ScanningProps {
  readonly defaults: FunctionDefaults;
}

/** The scan queue (+ dead letters) and the worker that drains it. */
export class Scanning extends Construct {
  readonly queue: Queue;
  readonly deadLetters: Queue;
  private worker?: ProjectFunction;

  constructor(scope: Construct, id: string, private readonly props: ScanningProps) {
    super(scope, id);
    this.deadLetters = new Queue(this, 'ScanDeadLetters', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    this.queue = new Queue(this, 'ScanQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      visibilityTimeout: SCAN_QUEUE_VISIBILITY_TIMEOUT,
      retentionPeriod: Duration.days(1),
      deadLetterQueue: { queue: this.deadLetters, maxReceiveCount: SCAN_MAX_RECEIVE_COUNT },
    });
  }

  /**
   * Adds the worker. Separate from the constructor because the worker binds resources that are
   * built after the queue (the bindings need the queue too).
   */
  addWorker(bindings: Bindings): ProjectFunction {
    if (this.worker) throw new Error('The scan worker exists already');
    const worker = new ProjectFunction(this, 'ScanWorker', {
      entry: 'lambdas/workers/scan-worker.ts',
      description: 'Runs queued scans; reports partial batch failures',
      defaults: this.props.defaults,
      memorySize: 1024,
      timeout: SCAN_WORKER_TIMEOUT,
    });
    // mailer and sms: the lead's completion email, and a monitoring rescan's alerts (email, SMS).
    bindings.bindAll(worker, ['table', 'reports', 'mailer', 'sms']);
    worker.addEventSource(
      new SqsEventSource(this.queue, {
        batchSize: SCAN_BATCH_SIZE,
        reportBatchItemFailures: true,
        maxConcurrency: SCAN_MAX_CONCURRENCY,
      }),
    );
    this.worker = worker;
    return worker;
  }
}
