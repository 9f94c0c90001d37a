/**
 * Feeds the local scan queue to the scan worker the way Lambda's SQS event source does:
 * receive a batch, call the handler, delete what succeeded, and leave the reported failures
 * to come back after a short delay (until the redrive policy moves them to the dead-letter queue).
 */
import {
  ChangeMessageVisibilityBatchCommand,
  DeleteMessageBatchCommand,
  ReceiveMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { SQSEvent } from 'aws-lambda';
import { type ScanLane, scanLanes } from '../../lambdas/domain/audit.js';
import type { ScanWorker } from '../../lambdas/workers/scan-worker.js';

/** lib/scanning/scanning.ts SCAN_BATCH_SIZE (not imported: the local stack does not load aws-cdk-lib). */
const SCAN_BATCH_SIZE = 1;

export interface QueuePoller {
  stop(): Promise<void>;
}

const RETRY_DELAY_SECONDS = 5;

/**
 * One poller per scan queue (free, paid, monitoring), as the stack gives each queue its own event
 * source on AWS: a burst on one queue never holds up another's jobs. One job a receive, as on AWS
 * (SCAN_BATCH_SIZE).
 */
export function startScanConsumers(sqs: SQSClient, queueUrls: Readonly<Record<ScanLane, string>>, worker: ScanWorker, options: { onError?: (error: unknown) => void } = {}): QueuePoller {
  const pollers = scanLanes.map((lane) => startQueuePoller(sqs, queueUrls[lane], worker, { batchSize: SCAN_BATCH_SIZE, onError: options.onError }));
  return {
    async stop() {
      await Promise.all(pollers.map((poller) => poller.stop()));
    },
  };
}

export function startQueuePoller(sqs: SQSClient, queueUrl: string, worker: ScanWorker, options: { batchSize?: number; onError?: (error: unknown) => void } = {}): QueuePoller {
  const controller = new AbortController();
  const batchSize = options.batchSize ?? 5;

  const loop = async () => {
    while (!controller.signal.aborted) {
      try {
        const { Messages = [] } = await sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: queueUrl,
            MaxNumberOfMessages: batchSize,
            WaitTimeSeconds: 1,
            MessageSystemAttributeNames: ['ApproximateReceiveCount', 'SentTimestamp'],
          }),
          { abortSignal: controller.signal },
        );
        if (Messages.length === 0) continue;
        const event: SQSEvent = {
          Records: Messages.map((m) => ({
            messageId: m.MessageId!,
            receiptHandle: m.ReceiptHandle!,
            body: m.Body ?? '',
            attributes: {
              ApproximateReceiveCount: m.Attributes?.ApproximateReceiveCount ?? '1',
              SentTimestamp: m.Attributes?.SentTimestamp ?? String(Date.now()),
              SenderId: 'local',
              ApproximateFirstReceiveTimestamp: String(Date.now()),
            },
            messageAttributes: {},
            md5OfBody: m.MD5OfBody ?? '',
            eventSource: 'aws:sqs',
            eventSourceARN: 'arn:aws:sqs:local:000000000000:scan-jobs',
            awsRegion: 'local',
          })),
        };
        // A worker that throws fails its whole batch (Lambda's rule; powertools throws when every record failed).
        const failed = await worker(event).then(
          ({ batchItemFailures }) => new Set(batchItemFailures.map((f) => f.itemIdentifier)),
          (error: unknown) => {
            options.onError?.(error);
            return new Set(Messages.map((m) => m.MessageId!));
          },
        );
        const done = Messages.filter((m) => !failed.has(m.MessageId!));
        if (done.length > 0) {
          await sqs.send(
            new DeleteMessageBatchCommand({
              QueueUrl: queueUrl,
              Entries: done.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! })),
            }),
          );
        }
        const retry = Messages.filter((m) => failed.has(m.MessageId!));
        if (retry.length > 0) {
          await sqs.send(
            new ChangeMessageVisibilityBatchCommand({
              QueueUrl: queueUrl,
              Entries: retry.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle!, VisibilityTimeout: RETRY_DELAY_SECONDS })),
            }),
          );
        }
      } catch (error) {
        if (controller.signal.aborted) break;
        options.onError?.(error);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
  };
  const running = loop();
  return {
    async stop() {
      controller.abort();
      await running;
    },
  };
}
