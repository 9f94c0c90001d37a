import { SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { DueRescans, RescanFanout } from '../domain/ports.js';

/** SendMessageBatch takes at most ten messages a call. */
export const SEND_BATCH_SIZE = 10;

/** The monitoring-fanout queue: one message per subscriber, `{ userId, domains }`, ten to a SendMessageBatch. */
export class SqsRescanFanout implements RescanFanout {
  constructor(
    private readonly sqs: SQSClient,
    /** Read at the first send: a missing URL fails the send, not building the adapter. */
    private readonly queueUrl: () => string,
  ) {}

  async send(due: readonly DueRescans[]): Promise<{ sent: number; calls: number; refused: string[] }> {
    const queueUrl = this.queueUrl();
    const refused: string[] = [];
    let sent = 0;
    let calls = 0;
    for (let start = 0; start < due.length; start += SEND_BATCH_SIZE) {
      const batch = due.slice(start, start + SEND_BATCH_SIZE);
      calls += 1;
      const { Failed = [], Successful = [] } = await this.sqs.send(
        new SendMessageBatchCommand({
          QueueUrl: queueUrl,
          Entries: batch.map((message, i) => ({ Id: String(i), MessageBody: JSON.stringify({ userId: message.userId, domains: message.domains }) })),
        }),
      );
      sent += Successful.length;
      for (const failure of Failed) refused.push(batch[Number(failure.Id)]!.userId);
    }
    return { sent, calls, refused };
  }
}
