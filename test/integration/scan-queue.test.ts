import { ReceiveMessageCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_RECEIVE_COUNT } from '../../bin/local/provision.js';
import { startQueuePoller } from '../../bin/local/queue-poller.js';
import { LOCAL_CREDENTIALS } from '../../lambdas/composition.js';
import { startTestStack, type TestStack } from '../support/local-stack.js';

let t: TestStack;

beforeAll(async () => {
  t = await startTestStack();
  // This file drives the queue itself.
  await t.stack.stopWorker();
});
afterAll(async () => {
  await t?.close();
});

describe('the local scan queue keeps the SQS contract', () => {
  it('moves a job that fails every time to the dead-letter queue, and retries it no more than the redrive allows', async () => {
    const sqs = new SQSClient({ endpoint: t.stack.endpoints.sqs, region: 'ap-southeast-2', credentials: LOCAL_CREDENTIALS });
    const attempts: string[] = [];
    const poller = startQueuePoller(sqs, t.stack.queues.scanQueueUrl, async (event) => {
      attempts.push(...event.Records.map((r) => r.body));
      return { batchItemFailures: event.Records.map((r) => ({ itemIdentifier: r.messageId })) };
    });
    try {
      await sqs.send(new SendMessageCommand({ QueueUrl: t.stack.queues.scanQueueUrl, MessageBody: JSON.stringify({ auditId: 'poison', kind: 'scan' }) }));

      let dead: string | undefined;
      const deadline = Date.now() + 40_000;
      while (!dead && Date.now() < deadline) {
        const { Messages = [] } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: t.stack.queues.scanDlqUrl, WaitTimeSeconds: 1 }));
        dead = Messages[0]?.Body;
      }

      expect(dead).toBe(JSON.stringify({ auditId: 'poison', kind: 'scan' }));
      // SQS moves a message once its receive count passes maxReceiveCount (3); local-aws-sqs already
      // moves it on the receive that reaches 3, so the worker sees it twice or three times, never more.
      expect(attempts.length).toBeGreaterThanOrEqual(2);
      expect(attempts.length).toBeLessThanOrEqual(MAX_RECEIVE_COUNT);
    } finally {
      await poller.stop();
    }
  }, 60_000);
});
