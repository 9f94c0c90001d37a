/**
 * Issue 30 item 4: free, paid and monitoring scans go to their own queues (each with its dead
 * letters), locally as on AWS, and each queue has its own consumer: a burst of free scans never
 * delays a paying customer's scan.
 */
import { DeleteMessageCommand, GetQueueAttributesCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_RECEIVE_COUNT } from '../../bin/local/provision.js';
import { startScanConsumers } from '../../bin/local/queue-poller.js';
import { LOCAL_CREDENTIALS } from '../../lambdas/composition.js';
import { scanLanes } from '../../lambdas/domain/audit.js';
import { postJson, startTestStack, type TestStack, validLead } from '../support/local-stack.js';

let t: TestStack;
let sqs: SQSClient;

beforeAll(async () => {
  t = await startTestStack();
  // This file drives the queues itself.
  await t.stack.stopWorker();
  sqs = new SQSClient({ endpoint: t.stack.endpoints.sqs, region: 'ap-southeast-2', credentials: LOCAL_CREDENTIALS });
});
afterAll(async () => {
  await t?.close();
});

const urls = () => ({
  free: t.stack.queues.byLane.free.queueUrl,
  paid: t.stack.queues.byLane.paid.queueUrl,
  monitoring: t.stack.queues.byLane.monitoring.queueUrl,
});

describe('scan lanes on the local stack', () => {
  it('are three queues, each redriving to its own dead-letter queue after the same retries', async () => {
    const dlqArns = new Set<string>();
    for (const lane of scanLanes) {
      const { Attributes } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: t.stack.queues.byLane[lane].queueUrl, AttributeNames: ['RedrivePolicy'] }));
      const redrive = JSON.parse(Attributes?.RedrivePolicy ?? '{}') as { deadLetterTargetArn?: string; maxReceiveCount?: number | string };
      expect(Number(redrive.maxReceiveCount), lane).toBe(MAX_RECEIVE_COUNT);
      const { Attributes: dlq } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: t.stack.queues.byLane[lane].dlqUrl, AttributeNames: ['QueueArn'] }));
      expect(redrive.deadLetterTargetArn, lane).toBe(dlq?.QueueArn);
      dlqArns.add(redrive.deadLetterTargetArn!);
    }
    expect(dlqArns.size).toBe(3);
    expect(new Set(Object.values(urls())).size).toBe(3);
  });

  it('the stack’s producer adapter sends each job to its lane’s queue and no other', async () => {
    // Act: the same adapter the functions use (deps.scanJobs), one job per lane.
    for (const lane of scanLanes) await t.stack.deps.scanJobs.enqueue({ auditId: `lane-${lane}`, kind: 'scan' }, lane);

    // Assert: each queue holds exactly its own job (taken off the queue, so the next test starts empty).
    for (const lane of scanLanes) {
      const { Messages = [] } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: urls()[lane], MaxNumberOfMessages: 10, WaitTimeSeconds: 1, VisibilityTimeout: 60 }));
      expect(Messages.map((m) => (JSON.parse(m.Body!) as { auditId: string }).auditId), lane).toEqual([`lane-${lane}`]);
      for (const message of Messages) await sqs.send(new DeleteMessageCommand({ QueueUrl: urls()[lane], ReceiptHandle: message.ReceiptHandle! }));
    }
  }, 30_000);

  it('a free lead’s scan, through the API, lands on the free queue and on no other', async () => {
    // Act: the landing form's request (the worker is stopped, so the job stays queued).
    const created = await postJson(`${t.stack.url}/api/leads`, { ...validLead, email: 'lanes@example.test' });
    expect(created.status).toBe(201);
    const auditId = String(created.body.auditId);

    // Assert
    const onQueue: Record<string, string[]> = {};
    for (const lane of scanLanes) {
      const { Messages = [] } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: urls()[lane], MaxNumberOfMessages: 10, WaitTimeSeconds: 1, VisibilityTimeout: 60 }));
      onQueue[lane] = Messages.map((m) => (JSON.parse(m.Body!) as { auditId: string }).auditId);
      for (const message of Messages) await sqs.send(new DeleteMessageCommand({ QueueUrl: urls()[lane], ReceiptHandle: message.ReceiptHandle! }));
    }
    expect(onQueue).toEqual({ free: [auditId], paid: [], monitoring: [] });
  }, 30_000);

  it('a burst of 20 free scans does not delay a paid one: the paid scan starts at once, on its own consumer', async () => {
    // Prepare: 20 free jobs first, then 1 paid, through the producer adapter; each scan takes 200 ms.
    for (let i = 0; i < 20; i += 1) await t.stack.deps.scanJobs.enqueue({ auditId: `free-${i}`, kind: 'scan' }, 'free');
    await t.stack.deps.scanJobs.enqueue({ auditId: 'paid-0', kind: 'scan', depth: 'deep' }, 'paid');
    const started: string[] = [];
    const finished: string[] = [];
    let done!: () => void;
    const allDone = new Promise<void>((resolve) => (done = resolve));

    // Act: the consumers the local stack runs (one per queue, one job a receive, as on AWS).
    const consumers = startScanConsumers(sqs, urls(), async (event) => {
      for (const record of event.Records) {
        const { auditId } = JSON.parse(record.body) as { auditId: string };
        started.push(auditId);
        await new Promise((resolve) => setTimeout(resolve, 200));
        finished.push(auditId);
        if (finished.length === 21) done();
      }
      return { batchItemFailures: [] };
    });
    try {
      await Promise.race([allDone, new Promise((_, reject) => setTimeout(() => reject(new Error(`only ${finished.length} of 21 finished`)), 30_000))]);
    } finally {
      await consumers.stop();
    }

    // Assert: every job ran once; the paid one started before the second free one finished (with one
    // shared queue it would start 21st, after 4 s of free scans).
    expect([...started].sort()).toEqual([...Array.from({ length: 20 }, (_, i) => `free-${i}`), 'paid-0'].sort());
    const paidAt = started.indexOf('paid-0');
    expect(paidAt).toBeLessThanOrEqual(2);
    expect(finished.indexOf('paid-0')).toBeLessThanOrEqual(2);
    // One at a time per consumer: the free scans ran in their own line, one after another.
    expect(started.filter((id) => id.startsWith('free-')).length).toBe(20);
  }, 45_000);
});
