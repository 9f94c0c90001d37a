import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { ScanJob, ScanLane } from '../domain/audit.js';
import type { ScanJobs } from '../domain/ports.js';

/** One queue per lane (free, paid, monitoring): the job goes to its lane's queue. */
export class SqsScanJobs implements ScanJobs {
  constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrls: Readonly<Record<ScanLane, string>>,
  ) {}

  async enqueue(job: ScanJob, lane: ScanLane): Promise<void> {
    const queueUrl = this.queueUrls[lane];
    if (!queueUrl) throw new Error(`No scan queue for the lane "${String(lane)}"`);
    await this.sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(job) }));
  }
}
