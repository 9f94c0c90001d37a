import { Duration } from 'aws-cdk-lib';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { workerFunctions } from '../../lambdas/routes.js';
import type { Bindings } from '../constructs/bindings.js';
import { reserveConcurrency } from '../constructs/concurrency.js';
import { type FunctionDefaults, type FunctionNetwork, ProjectFunction } from '../constructs/project-function.js';

/**
 * Timing contract of the scan pipeline (the sweeper's "stuck" limit must exceed a job's worst
 * case: MAX_RECEIVE_COUNT deliveries, each hidden for the visibility timeout).
 */
export const SCAN_WORKER_TIMEOUT = Duration.seconds(workerFunctions['scan-worker'].timeoutSeconds);
/** AWS's guidance for SQS event sources: at least six times the function timeout. */
export const SCAN_QUEUE_VISIBILITY_TIMEOUT = Duration.seconds(SCAN_WORKER_TIMEOUT.toSeconds() * 6);
export const SCAN_MAX_RECEIVE_COUNT = 3;
export const SCAN_BATCH_SIZE = 2;
/** Caps concurrent workers so a burst of leads cannot fan out into hundreds of scanners. */
export const SCAN_MAX_CONCURRENCY = 10;
/**
 * Scans can never starve the API. A function's reserved concurrency both guarantees and caps it; the
 * functions without one (all the API's) share the rest of the account's quota, the unreserved pool.
 * The worker reserves exactly what its event source may use (AWS: reserved ≥ the SQS maximum
 * concurrency, or the poller is throttled), the scheduled functions one each (lib/schedule), and
 * nothing else reserves; so however many scans are queued, they hold at most these executions, and
 * Lambda never lets reservations take the unreserved pool below 100 (reserving more fails the
 * deploy instead), which is the API's room to answer. A new account's quota can be 10 concurrent
 * executions, under that minimum: no function can reserve anything and the deploy fails until the
 * quota is raised (Service Quotas, "Concurrent executions"; README "Lambda concurrency quota").
 */
export const SCAN_RESERVED_CONCURRENCY = SCAN_MAX_CONCURRENCY;

export interface ScanningProps {
  readonly defaults: FunctionDefaults;
  /** Fixed egress (lib/scanning/scanner-egress.ts): the worker runs in its private subnets. @default Lambda's own addresses */
  readonly egress?: FunctionNetwork;
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
      bundle: 'scan-worker',
      defaults: this.props.defaults,
      timeout: SCAN_WORKER_TIMEOUT,
      network: this.props.egress,
    });
    reserveConcurrency(worker, SCAN_RESERVED_CONCURRENCY);
    bindings.bindAll(worker, workerFunctions['scan-worker'].uses);
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
