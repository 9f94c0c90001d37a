import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { Deps } from '../composition/core.js';
import { scanJobSchema } from '../domain/audit.js';
import { runScan } from '../use-cases/run-scan.js';
import { queueMessage } from './queue-message.js';

export type ScanWorker = (event: SQSEvent) => Promise<SQSBatchResponse>;

/**
 * The scan worker: one SQS batch in, partial batch failures out, so one bad record never
 * re-runs its neighbours. A record that is not a scan job is dropped (logged), not retried.
 */
export function make(deps: Deps): ScanWorker {
  const processor = new BatchProcessor(EventType.SQS);
  const recordHandler = async (record: SQSRecord) => {
    const job = queueMessage(deps, record, scanJobSchema, 'a scan job');
    if (!job) return;
    const outcome = await runScan(deps, job);
    deps.log.info('Scan job done', { auditId: job.auditId, outcome });
  };
  return (event) => processPartialResponse(event, recordHandler, processor, { processInParallel: true });
}
