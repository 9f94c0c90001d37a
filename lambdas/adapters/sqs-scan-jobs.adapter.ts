import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { ScanJob } from '../domain/audit.js';
import type { ScanJobs } from '../domain/ports.js';

export class SqsScanJobs implements ScanJobs {
  constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async enqueue(job: ScanJob): Promise<void> {
    await this.sqs.send(new SendMessageCommand({ QueueUrl: this.queueUrl, MessageBody: JSON.stringify(job) }));
  }
}
