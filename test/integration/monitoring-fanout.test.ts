import { type Message, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeps, type Deps, LOCAL_CREDENTIALS } from '../../lambdas/composition.js';
import type { Config } from '../../lambdas/config.js';
import { MONITORING_CADENCE, rescanSlotStart } from '../../lambdas/domain/monitoring.js';
import type { StoredSubscription } from '../../lambdas/domain/ports.js';
import { make as makeFanoutWorker } from '../../lambdas/workers/monitoring-fanout.js';
import { make as makeScheduler } from '../../lambdas/workers/monitoring-scheduler.js';
import { LOCAL_REGION } from '../../bin/local/provision.js';
import { addDomain } from '../support/accounts.js';
import { startTestStack, type TestStack } from '../support/local-stack.js';

/**
 * The monitoring fan-out (issue 30 item 3) over the local stack's queues: the scheduler sends one
 * message per subscriber with due domains to the monitoring-fanout queue (and claims nothing); the
 * monitoring-fanout worker, given those messages as Lambda's SQS event source gives them, queues the
 * rescans; the same messages delivered again queue nothing more; a subscriber whose rescans fail is
 * reported alone as a batch item failure. The scan worker is stopped: queued rescans stay queued audits.
 */

const DAY = MONITORING_CADENCE['monitor-plus'].periodMs;
const SUBSCRIBERS = 12;
const DOMAINS_EACH = 2;
const userIds = Array.from({ length: SUBSCRIBERS }, (_, n) => `fanout-user-${String(n).padStart(2, '0')}`);
const domainsOf = (userId: string) => Array.from({ length: DOMAINS_EACH }, (_, d) => `${userId}-${d}.example.test`);
/** This subscriber's subscription cannot be read while its message is handled: its rescans fail. */
const FAILING = userIds[5]!;

/** A first moment with no domain's daily slot starting in the half hour after it (test/integration/monitoring-due-index.test.ts). */
const T0 = (() => {
  const all = userIds.flatMap(domainsOf);
  let at = Date.now() + 60_000;
  while (all.some((domain) => rescanSlotStart(domain, DAY, new Date(at)).getTime() !== rescanSlotStart(domain, DAY, new Date(at + 30 * 60_000)).getTime())) at += 60_000;
  return new Date(at);
})();

let t: TestStack;
let fanoutConfig: Config;
let sqs: SQSClient;
const plus = (): StoredSubscription => ({ planId: 'monitor-plus', status: 'active', source: 'stripe', currentPeriodStart: '2026-01-01T00:00:00.000Z', currentPeriodEnd: '2099-01-01T00:00:00.000Z' });

/** Deps at `now` over the stack's config with the fan-out queue. */
const depsAt = (now: Date): Deps => buildDeps(fanoutConfig, { clock: { now: () => now } });

/** The same, but the failing subscriber's subscription read throws. */
function failingDepsAt(now: Date): Deps {
  const deps = depsAt(now);
  const accounts = deps.accounts;
  const failing = new Proxy(accounts, {
    get(target, key, receiver) {
      if (key === 'getSubscription') {
        return async (userId: string) => {
          if (userId === FAILING) throw new Error('the table refused the read');
          return target.getSubscription(userId);
        };
      }
      const value = Reflect.get(target, key, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return Object.defineProperty(Object.create(deps), 'accounts', { value: failing }) as Deps;
}

/** Receives from the fan-out queue until `count` messages came (or nothing more comes). */
async function receiveAll(count: number): Promise<Message[]> {
  const received: Message[] = [];
  for (let empty = 0; received.length < count && empty < 3; ) {
    const { Messages = [] } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: t.stack.queues.monitoringFanout.queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }));
    if (Messages.length === 0) empty += 1;
    received.push(...Messages);
  }
  return received;
}

const eventOf = (messages: readonly Message[]): SQSEvent => ({
  Records: messages.map((m) => ({
    messageId: m.MessageId!,
    receiptHandle: m.ReceiptHandle!,
    body: m.Body ?? '',
    attributes: { ApproximateReceiveCount: '1', SentTimestamp: String(Date.now()), SenderId: 'test', ApproximateFirstReceiveTimestamp: String(Date.now()) },
    messageAttributes: {},
    md5OfBody: m.MD5OfBody ?? '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:local:000000000000:rampart-monitoring-fanout',
    awsRegion: 'local',
  })),
});

/** The hosts of every monitoring audit queued so far, one entry per audit. */
async function monitoringAudits(): Promise<string[]> {
  const hosts: string[] = [];
  for (const userId of userIds) {
    const { audits } = await t.stack.deps.accounts.listOwnedAudits(userId, 100);
    for (const { auditId } of audits) {
      const audit = await t.stack.deps.audits.getAudit(auditId);
      if (audit?.origin === 'monitoring') hosts.push(audit.host);
    }
  }
  return hosts.sort();
}

const dueAt = async (now: Date) => (await t.stack.deps.monitoring.dueDomains(now.toISOString(), 1_000)).map((due) => due.domain).sort();

let messages: Message[];

beforeAll(async () => {
  t = await startTestStack();
  await t.stack.stopWorker();
  fanoutConfig = { ...t.stack.config, MONITORING_FANOUT_QUEUE_URL: t.stack.queues.monitoringFanout.queueUrl };
  sqs = new SQSClient({ endpoint: t.stack.endpoints.sqs, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
  for (const userId of userIds) {
    await t.stack.deps.accounts.saveSubscription(userId, plus());
    for (const domain of domainsOf(userId)) await addDomain(t, userId, domain, { at: '2026-01-01T00:00:00.000Z' });
  }
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('the monitoring fan-out', () => {
  it('sends one message per subscriber with due domains, and queues no rescan itself', async () => {
    // Act
    const run = await makeScheduler(depsAt(T0))({ jobs: ['rescans'] });
    messages = await receiveAll(SUBSCRIBERS + 1);

    // Assess: twelve subscribers, twelve messages (two SendMessageBatch calls), each with the subscriber's domains.
    expect(run).toMatchObject({ rescansSent: SUBSCRIBERS, rescansQueued: 0 });
    const bodies = messages.map((m) => JSON.parse(m.Body!) as { userId: string; domains: string[] });
    expect(bodies.map((body) => body.userId).sort()).toEqual(userIds);
    for (const body of bodies) expect(body.domains.sort(), body.userId).toEqual(domainsOf(body.userId));
    expect(await monitoringAudits()).toEqual([]);
    expect(await dueAt(T0)).toHaveLength(SUBSCRIBERS * DOMAINS_EACH);
  });

  it('queues the rescans of each message; a failing subscriber is reported alone and the others are done', async () => {
    // Act
    const response = await makeFanoutWorker(failingDepsAt(new Date(T0.getTime() + 5_000)))(eventOf(messages));

    // Assess
    const failingMessage = messages.find((m) => (JSON.parse(m.Body!) as { userId: string }).userId === FAILING)!;
    expect(response.batchItemFailures).toEqual([{ itemIdentifier: failingMessage.MessageId }]);
    const others = userIds.filter((userId) => userId !== FAILING).flatMap(domainsOf).sort();
    expect(await monitoringAudits()).toEqual(others);
    // The failing subscriber's domains stay due (its message comes back); the others' moved to their next slot.
    expect(await dueAt(new Date(T0.getTime() + 10_000))).toEqual(domainsOf(FAILING));
  });

  it('queues nothing more when the same messages are delivered again', async () => {
    // Prepare
    const before = await monitoringAudits();
    const succeeded = messages.filter((m) => (JSON.parse(m.Body!) as { userId: string }).userId !== FAILING);

    // Act
    const again = await makeFanoutWorker(failingDepsAt(new Date(T0.getTime() + 60_000)))(eventOf(succeeded));

    // Assess
    expect(again.batchItemFailures).toEqual([]);
    expect(before).toHaveLength((SUBSCRIBERS - 1) * DOMAINS_EACH);
    expect(await monitoringAudits()).toEqual(before);
  });

  it('queues the failing subscriber’s rescans once its message comes back and succeeds', async () => {
    const failingMessage = messages.filter((m) => (JSON.parse(m.Body!) as { userId: string }).userId === FAILING);
    const healthy = depsAt(new Date(T0.getTime() + 120_000));

    const retried = await makeFanoutWorker(healthy)(eventOf(failingMessage));

    expect(retried.batchItemFailures).toEqual([]);
    expect(await monitoringAudits()).toEqual(userIds.flatMap(domainsOf).sort());
    expect(await dueAt(new Date(T0.getTime() + 130_000))).toEqual([]);
  });
});

describe('the monitoring fan-out of the local stack (npm start)', () => {
  let local: TestStack;
  afterAll(async () => {
    await local?.close();
  });

  it('sends a due subscriber through the fan-out queue to its worker, which queues the rescans', async () => {
    // Prepare: the stack as `npm start` runs it (the scheduler told of the queue, its worker polling it).
    local = await startTestStack({}, { monitoringFanout: true });
    const userId = 'fanout-local-user';
    await local.stack.deps.accounts.saveSubscription(userId, plus());
    for (const domain of domainsOf(userId)) await addDomain(local, userId, domain, { at: '2026-01-01T00:00:00.000Z' });

    // Act
    const run = await makeScheduler(local.stack.deps)({ jobs: ['rescans'] });
    const deadline = Date.now() + 20_000;
    let hosts: string[] = [];
    while (Date.now() < deadline && hosts.length < DOMAINS_EACH) {
      const { audits } = await local.stack.deps.accounts.listOwnedAudits(userId, 10);
      hosts = (await Promise.all(audits.map(({ auditId }) => local.stack.deps.audits.getAudit(auditId)))).filter((audit) => audit?.origin === 'monitoring').map((audit) => audit!.host);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }

    // Assess
    expect(local.stack.config.MONITORING_FANOUT_QUEUE_URL).toBe(local.stack.queues.monitoringFanout.queueUrl);
    expect(run).toMatchObject({ rescansSent: 1, rescansQueued: 0 });
    expect(hosts.sort()).toEqual(domainsOf(userId));
  }, 60_000);
});
