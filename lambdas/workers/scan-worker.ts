import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { Deps } from '../composition/core.js';
import { scanJobSchema } from '../domain/audit.js';
import { runScan } from '../use-cases/run-scan.js';

export type ScanWorker = (event: SQSEvent) => Promise<SQSBatchResponse>;

/**
 * The scan worker: one SQS batch in, partial batch failures out, so one bad record never
 * re-runs its neighbours. A record that is not a scan job is dropped (logged), not retried.
 */
export function make(deps: Deps): ScanWorker {
  const processor = new BatchProcessor(EventType.SQS);
  const recordHandler = async (record: SQSRecord) => {
    let body: unknown;
    try {
      body = JSON.parse(record.body);
    } catch {
      body = undefined;
    }
    const job = scanJobSchema.safeParse(body);
    if (!job.success) {
      deps.log.error('Dropping a message that is not a scan job', { messageId: record.messageId });
      return;
    }
    const outcome = await runScan(deps, job.data);
    deps.log.info('Scan job done', { auditId: job.data.auditId, outcome });
  };
  return (event) => processPartialResponse(event, recordHandler, processor, { processInParallel: true });
}
