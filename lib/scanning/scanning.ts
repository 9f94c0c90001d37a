import { Duration } from 'aws-cdk-lib';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { type ScanLane, scanLanes } from '../../lambdas/domain/audit.js';
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
/**
 * One scan per invocation (issue 30 item 4): with two a batch, two scans shared one function's CPU
 * (0.58 vCPU at 1 GB) and a slow one held the other's result until both ended.
 */
export const SCAN_BATCH_SIZE = 1;
/**
 * How many scans of each queue run at once (deploy settings scanConcurrencyFree/Paid/Monitoring),
 * each the maximum concurrency of that queue's SQS event source. A burst of free scans fills only
 * the free queue's share; the paid and monitoring queues keep theirs.
 */
export const SCAN_CONCURRENCY_DEFAULTS: Readonly<Record<ScanLane, number>> = { free: 5, paid: 3, monitoring: 2 };
/**
 * The worker's memory, by measurement (`npm run bench:scan-capacity`, bench/results/scan-capacity.json):
 * a deep scan is mostly waiting on the network; its CPU time is ~0.7 s warm (~1.3 s cold) and the
 * process holds ~200 MB. Lambda gives CPU in proportion to memory (1,769 MB = one vCPU): at 1,024 MB
 * and one scan an invocation (0.58 vCPU) a deep scan takes ~3.8 s, at 1,769 MB ~3.3 s, for 50% more
 * GB-seconds a scan. 1,024 MB with batch size 1 then; raise it (deploy setting scanWorkerMemory) if
 * the duration alarm says scans come near the timeout.
 */
export const SCAN_WORKER_MEMORY_MB = 1024;
/** The p99 duration, as a share of the timeout, from which the worker's duration alarms (lib/alarms). */
export const SCAN_DURATION_ALARM_SHARE = 0.8;

/**
 * Scans can never starve the API. A function's reserved concurrency both guarantees and caps it; the
 * functions without one (all the API's) share the rest of the account's quota, the unreserved pool.
 * The worker reserves exactly what its event sources may use together (AWS: reserved ≥ the SQS maximum
 * concurrency, or the poller is throttled), the scheduled functions one each (lib/schedule), and
 * nothing else reserves; so however many scans are queued, they hold at most these executions, and
 * Lambda never lets reservations take the unreserved pool below 100 (reserving more fails the
 * deploy instead), which is the API's room to answer. A new account's quota can be 10 concurrent
 * executions, under that minimum: no function can reserve anything and the deploy fails until the
 * quota is raised (Service Quotas, "Concurrent executions"; README "Lambda concurrency quota").
 */
export function scanReservedConcurrency(concurrency: Readonly<Record<ScanLane, number>>): number {
  return scanLanes.reduce((sum, lane) => sum + concurrency[lane], 0);
}
/** The reservation with the default settings. */
export const SCAN_RESERVED_CONCURRENCY = scanReservedConcurrency(SCAN_CONCURRENCY_DEFAULTS);

export interface ScanningProps {
  readonly defaults: FunctionDefaults;
  /** Fixed egress (lib/scanning/scanner-egress.ts): the worker runs in its private subnets. @default Lambda's own addresses */
  readonly egress?: FunctionNetwork;
  /** Scans at once per queue (deploy settings). @default SCAN_CONCURRENCY_DEFAULTS */
  readonly concurrency?: Partial<Record<ScanLane, number>>;
  /** @default SCAN_WORKER_MEMORY_MB */
  readonly memorySize?: number;
}

const laneIds: Record<ScanLane, string> = { free: 'Free', paid: 'Paid', monitoring: 'Monitoring' };

/**
 * The scan queues, one per lane (free, paid, monitoring), each with its dead letters, and the worker
 * that drains them. One worker function with one event source per queue, rather than one function
 * per queue: the scan code, bundle, grants and memory are the same for every lane, and an event
 * source's maximum concurrency already gives each queue its own share of workers (reserved = the
 * sum, so one queue's share is always there for it); one function keeps one log group, one set of
 * alarms and one cold-start pool.
 */
export class Scanning extends Construct {
  readonly queues: Readonly<Record<ScanLane, Queue>>;
  readonly deadLetterQueues: Readonly<Record<ScanLane, Queue>>;
  /** The free queue (the one every scan used before there were lanes). */
  readonly queue: Queue;
  /** The free queue's dead letters. */
  readonly deadLetters: Queue;
  readonly concurrency: Readonly<Record<ScanLane, number>>;
  private worker?: ProjectFunction;

  constructor(scope: Construct, id: string, private readonly props: ScanningProps) {
    super(scope, id);
    const given = Object.entries(props.concurrency ?? {}).filter(([, value]) => value !== undefined);
    this.concurrency = { ...SCAN_CONCURRENCY_DEFAULTS, ...Object.fromEntries(given) };
    for (const lane of scanLanes) {
      const value = this.concurrency[lane];
      if (!Number.isInteger(value) || value < 2 || value > 1000) throw new Error(`Scan concurrency for ${lane} scans must be 2 to 1000 (SQS event sources), not ${value}`);
    }
    const queues = {} as Record<ScanLane, Queue>;
    const deadLetterQueues = {} as Record<ScanLane, Queue>;
    for (const lane of scanLanes) {
      // The free lane keeps the original ids, so its queues are the ones a deployed stack has already.
      const prefix = lane === 'free' ? '' : laneIds[lane];
      deadLetterQueues[lane] = new Queue(this, `${prefix}ScanDeadLetters`, {
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        retentionPeriod: Duration.days(14),
      });
      queues[lane] = new Queue(this, `${prefix}ScanQueue`, {
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        visibilityTimeout: SCAN_QUEUE_VISIBILITY_TIMEOUT,
        retentionPeriod: Duration.days(1),
        deadLetterQueue: { queue: deadLetterQueues[lane], maxReceiveCount: SCAN_MAX_RECEIVE_COUNT },
      });
    }
    this.queues = queues;
    this.deadLetterQueues = deadLetterQueues;
    this.queue = queues.free;
    this.deadLetters = deadLetterQueues.free;
  }

  /** The worker, once added. */
  get scanWorker(): ProjectFunction | undefined {
    return this.worker;
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
      memorySize: this.props.memorySize ?? SCAN_WORKER_MEMORY_MB,
      network: this.props.egress,
    });
    reserveConcurrency(worker, scanReservedConcurrency(this.concurrency));
    bindings.bindAll(worker, workerFunctions['scan-worker'].uses);
    for (const lane of scanLanes) {
      worker.addEventSource(
        new SqsEventSource(this.queues[lane], {
          batchSize: SCAN_BATCH_SIZE,
          reportBatchItemFailures: true,
          maxConcurrency: this.concurrency[lane],
        }),
      );
    }
    this.worker = worker;
    return worker;
  }
}
