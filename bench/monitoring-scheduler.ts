/**
 * `npm run bench:scheduler [-- --label before|after] [--subscribers N]`: the monitoring scheduler
 * over 10,000 subscribers × 3 verified domains in the local table (dynalite), as it stands at
 * steady state (every domain rescanned in its current slot, last month's reports built, the
 * knowledge base checked). Then it runs the real scheduler (lambdas/workers/monitoring-scheduler.ts)
 * every 15 minutes of an injected clock and prints, per run, the DynamoDB requests (counted by a
 * middleware on the one document client every adapter shares), the time, and both per due domain.
 * Half the subscribers are on Monitor Lite (weekly), half on Monitor Plus (daily): about 180 domains
 * fall due per quarter hour. The goal (issue 30 item 3): cost proportional to what is due.
 *
 * The scan worker is stopped: a queued rescan stays a queued audit (the scan itself is not measured).
 * The seeded domains carry their due-index place (as the scheduler leaves it), which the code
 * before the index ignored; `--backfill` seeds them without it and measures the migration first.
 *
 * `--fanout`: the scheduler sends each subscriber's due domains to the monitoring-fanout queue (as on
 * AWS); per run the bench prints the messages and SendMessageBatch calls, then hands the messages to
 * the monitoring-fanout worker (ten a batch, as its event source does) and prints its requests and time.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { type Message, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { SQSEvent } from 'aws-lambda';
import { activeSubscriptionIndex, keys, monitorDueIndex } from '../lambdas/adapters/table-keys.js';
import { buildDeps } from '../lambdas/composition.js';
import { documentClient } from '../lambdas/composition/aws.js';
import { MONITORING_CADENCE, rescanSlotStart } from '../lambdas/domain/monitoring.js';
import { previousMonth } from '../lambdas/domain/monthly-report.js';
import { knowledgeBaseFingerprint } from '../lambdas/scanner/vulndb/index.js';
import { backfillDueIndex } from '../lambdas/use-cases/monitoring-due.js';
import { make as makeScheduler } from '../lambdas/workers/monitoring-scheduler.js';
import { make as makeFanoutWorker } from '../lambdas/workers/monitoring-fanout.js';
import { LOCAL_CREDENTIALS } from '../lambdas/composition.js';
import { LOCAL_REGION } from '../bin/local/provision.js';
import { startTestStack } from '../test/support/local-stack.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const LABEL = arg('label') ?? 'latest';
const SUBSCRIBERS = Number(arg('subscribers') ?? 10_000);
const DOMAINS_EACH = 3;
const RUNS = Number(arg('runs') ?? 4);
/** `--backfill`: the domains are seeded as stored before the due index, and the migration is measured first. */
const BACKFILL = process.argv.includes('--backfill');
/** `--fanout`: through the monitoring-fanout queue and its worker (issue 30 item 3). */
const FANOUT = process.argv.includes('--fanout');
const QUARTER_HOUR = 15 * 60_000;
/** Mid-month, on a quarter hour, ahead of the real clock (the seeded claims are for this moment's slots). */
const T0 = new Date(Date.UTC(2027, 2, 10, 9, 0, 0));

type Item = Record<string, unknown>;

interface RunFigures {
  run: number;
  at: string;
  dueDomains: number;
  rescansQueued: number;
  dynamoRequests: number;
  byCommand: Record<string, number>;
  ms: number;
  requestsPerDueDomain: number | null;
  msPerDueDomain: number | null;
  result: unknown;
  /** With --fanout: what the scheduler sent, and the worker's share of the work. */
  fanout?: { messages: number; sendMessageBatchCalls: number; workerInvocations: number; workerDynamoRequests: number; workerByCommand: Record<string, number>; workerMs: number; workerRequestsPerDueDomain: number | null };
}

async function main() {
  const t = await startTestStack({ LOG_LEVEL: 'ERROR' });
  await t.stack.stopWorker();
  const config = FANOUT ? { ...t.stack.config, MONITORING_FANOUT_QUEUE_URL: t.stack.queues.monitoringFanout.queueUrl } : t.stack.config;
  const sqs = new SQSClient({ endpoint: t.stack.endpoints.sqs, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
  const db = documentClient(config);
  const counts = new Map<string, number>();
  let counting = false;
  db.middlewareStack.add(
    (next, context) => async (args) => {
      if (counting) counts.set(context.commandName ?? '?', (counts.get(context.commandName ?? '?') ?? 0) + 1);
      return next(args);
    },
    { step: 'initialize', name: 'benchRequestCounter' },
  );
  try {
    const plans = (n: number) => (n % 2 === 0 ? 'monitor-lite' : 'monitor-plus') as 'monitor-lite' | 'monitor-plus';
    const domainsOf = (n: number) => Array.from({ length: DOMAINS_EACH }, (_, d) => `site${n}-${d}.bench.test`);
    const month = previousMonth(T0);
    const items: Item[] = [];
    for (let n = 0; n < SUBSCRIBERS; n += 1) {
      const userId = `bench-user-${String(n).padStart(6, '0')}`;
      const planId = plans(n);
      items.push({
        ...keys.subscription(userId),
        type: 'subscription',
        userId,
        planId,
        status: 'active',
        source: 'stripe',
        subscriptionId: `sub_${n}`,
        currentPeriodStart: '2027-03-01T00:00:00.000Z',
        currentPeriodEnd: '2027-04-01T00:00:00.000Z',
        ...activeSubscriptionIndex(userId, 'active'),
      });
      items.push({ ...keys.monthlyReport(userId, month), type: 'monthly-report', userId, month, status: 'ready', claimedAt: '2027-03-01T00:05:00.000Z', generatedAt: '2027-03-01T00:05:01.000Z', emailed: false, pdfKey: `monthly-reports/${userId}/${month}.pdf`, sizeBytes: 1, domains: domainsOf(n) });
      const period = MONITORING_CADENCE[planId].periodMs;
      for (const [d, domain] of domainsOf(n).entries()) {
        const verifiedAt = `2027-01-0${d + 1}T00:00:00.000Z`;
        const slotStart = rescanSlotStart(domain, period, T0);
        // The due index's place (issue 30 item 3) as the scheduler leaves it after this slot's claim; none when measuring the backfill.
        const due = BACKFILL ? {} : monitorDueIndex(userId, domain, new Date(slotStart.getTime() + period).toISOString());
        items.push({ ...keys.userDomain(userId, domain), type: 'domain', id: `${userId}-${d}`, userId, domain, verificationToken: 'x'.repeat(22), verified: true, addedAt: verifiedAt, verifiedAt, verifiedBy: 'dns', checkedAt: T0.toISOString(), gsi1pk: keys.domainVerifiers(domain), gsi1sk: `USER#${userId}`, ...due });
        // Steady state: this slot's rescan is already claimed (and done).
        items.push({ ...keys.monitor(userId, domain), type: 'monitor', domain, slotStart: slotStart.toISOString(), auditId: `seeded-${userId}-${d}`, claimedAt: T0.toISOString() });
      }
    }
    items.push({ ...keys.knowledgeBaseCheck(knowledgeBaseFingerprint()), type: 'knowledge-base-check', fingerprint: knowledgeBaseFingerprint(), checkedAt: T0.toISOString() });
    if (!BACKFILL) items.push({ ...keys.monitorDueBackfill, type: 'monitor-due-backfill', done: true, updatedAt: T0.toISOString() });
    const seedStart = performance.now();
    const batches: Item[][] = [];
    for (let i = 0; i < items.length; i += 25) batches.push(items.slice(i, i + 25));
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < batches.length) {
          let pending: Item[] = batches[next++]!;
          while (pending.length > 0) {
            const reply = await db.send(new BatchWriteCommand({ RequestItems: { [config.TABLE_NAME!]: pending.map((Item) => ({ PutRequest: { Item } })) } }));
            pending = (reply.UnprocessedItems?.[config.TABLE_NAME!] ?? []).map((r) => r.PutRequest!.Item as Item);
          }
        }
      }),
    );
    console.log(`bench:scheduler (${LABEL}): seeded ${SUBSCRIBERS} subscribers × ${DOMAINS_EACH} domains (${items.length} items) in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);

    let migration: { subscribers: number; dynamoRequests: number; byCommand: Record<string, number>; ms: number; result: string } | undefined;
    if (BACKFILL) {
      counts.clear();
      counting = true;
      const started = performance.now();
      const result = await backfillDueIndex(buildDeps(config, { clock: { now: () => T0 } }), T0);
      const ms = Math.round(performance.now() - started);
      counting = false;
      migration = { subscribers: SUBSCRIBERS, dynamoRequests: [...counts.values()].reduce((a, b) => a + b, 0), byCommand: Object.fromEntries([...counts.entries()].sort()), ms, result };
      console.log(`migration (backfill of the due index, once): ${migration.dynamoRequests} DynamoDB requests (${Object.entries(migration.byCommand).map(([c, k]) => `${c.replace(/Command$/, '')} ${k}`).join(', ')}), ${ms} ms, ${result}`);
    }
    const figures: RunFigures[] = [];
    for (let run = 1; run <= RUNS; run += 1) {
      const now = new Date(T0.getTime() + run * QUARTER_HOUR);
      const previous = new Date(now.getTime() - QUARTER_HOUR);
      let dueDomains = 0;
      for (let n = 0; n < SUBSCRIBERS; n += 1) {
        const period = MONITORING_CADENCE[plans(n)].periodMs;
        for (const domain of domainsOf(n)) if (rescanSlotStart(domain, period, now).getTime() > previous.getTime()) dueDomains += 1;
      }
      const deps = buildDeps(config, { clock: { now: () => now } });
      const scheduler = makeScheduler(deps);
      counts.clear();
      counting = true;
      const started = performance.now();
      // The quarter-hour rule's jobs (lib/schedule); the code before issue 30 item 3 ignores the event and runs every job.
      const result = (await scheduler({ jobs: ['rescans', 'alerts', 'kev'] })) as { rescansQueued?: number; rescansSent?: number };
      const ms = performance.now() - started;
      counting = false;
      const dynamoRequests = [...counts.values()].reduce((a, b) => a + b, 0);
      const byCommand = Object.fromEntries([...counts.entries()].sort());
      let fanout: RunFigures['fanout'];
      if (FANOUT) {
        // The run's messages, handed to the worker ten at a time (its event source's batch size).
        const sent = Number(result.rescansSent ?? 0);
        const messages: Message[] = [];
        for (let empty = 0; messages.length < sent && empty < 3; ) {
          const { Messages = [] } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: config.MONITORING_FANOUT_QUEUE_URL!, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }));
          if (Messages.length === 0) empty += 1;
          messages.push(...Messages);
        }
        const worker = makeFanoutWorker(deps);
        counts.clear();
        counting = true;
        const workerStarted = performance.now();
        let invocations = 0;
        for (let i = 0; i < messages.length; i += 10) {
          const { batchItemFailures } = await worker(sqsEventOf(messages.slice(i, i + 10)));
          if (batchItemFailures.length > 0) throw new Error(`The fan-out worker failed ${batchItemFailures.length} messages`);
          invocations += 1;
        }
        const workerMs = Math.round(performance.now() - workerStarted);
        counting = false;
        const workerDynamoRequests = [...counts.values()].reduce((a, b) => a + b, 0);
        fanout = {
          messages: messages.length,
          sendMessageBatchCalls: Math.ceil(sent / 10),
          workerInvocations: invocations,
          workerDynamoRequests,
          workerByCommand: Object.fromEntries([...counts.entries()].sort()),
          workerMs,
          workerRequestsPerDueDomain: dueDomains ? Math.round((workerDynamoRequests / dueDomains) * 10) / 10 : null,
        };
      }
      const row: RunFigures = {
        run,
        at: now.toISOString(),
        dueDomains,
        rescansQueued: Number(result.rescansQueued ?? 0),
        dynamoRequests,
        byCommand,
        ms: Math.round(ms),
        requestsPerDueDomain: dueDomains ? Math.round((dynamoRequests / dueDomains) * 10) / 10 : null,
        msPerDueDomain: dueDomains ? Math.round((ms / dueDomains) * 10) / 10 : null,
        result,
        ...(fanout ? { fanout } : {}),
      };
      figures.push(row);
      console.log(
        `run ${run} at ${row.at}: due ${dueDomains}, queued ${row.rescansQueued}${FANOUT ? `, sent ${Number(result.rescansSent ?? 0)} subscribers` : ''}, DynamoDB requests ${dynamoRequests} (${Object.entries(row.byCommand).map(([c, k]) => `${c.replace(/Command$/, '')} ${k}`).join(', ')}), ${row.ms} ms; per due domain: ${row.requestsPerDueDomain} requests, ${row.msPerDueDomain} ms`,
      );
      if (fanout) {
        console.log(
          `  fan-out: sent ${fanout.messages} messages in ${fanout.sendMessageBatchCalls} SendMessageBatch calls; the worker (${fanout.workerInvocations} invocations of up to 10 messages): DynamoDB requests ${fanout.workerDynamoRequests} (${Object.entries(fanout.workerByCommand).map(([c, k]) => `${c.replace(/Command$/, '')} ${k}`).join(', ')}), ${fanout.workerMs} ms; per due domain: ${fanout.workerRequestsPerDueDomain} requests`,
        );
      }
    }
    // The monthly reports' own rule, once, mid-month (every report built already: what a run costs when there is nothing to do).
    counts.clear();
    counting = true;
    const monthlyStarted = performance.now();
    await makeScheduler(buildDeps(config, { clock: { now: () => T0 } }))({ jobs: ['monthly-reports'] });
    const monthly = { dynamoRequests: [...counts.values()].reduce((a, b) => a + b, 0), byCommand: Object.fromEntries([...counts.entries()].sort()), ms: Math.round(performance.now() - monthlyStarted) };
    counting = false;
    console.log(`monthly-reports job alone (its own schedule: days 1-3 of a month): ${monthly.dynamoRequests} DynamoDB requests, ${monthly.ms} ms`);
    const out = path.join(ROOT, 'bench', 'results', `monitoring-scheduler-${LABEL}.json`);
    mkdirSync(path.dirname(out), { recursive: true });
    writeFileSync(out, `${JSON.stringify({ label: LABEL, measuredAt: new Date().toISOString(), subscribers: SUBSCRIBERS, domainsEach: DOMAINS_EACH, ...(migration ? { migration } : {}), runs: figures, monthlyReportsJob: monthly }, null, 2)}\n`);
    console.log(`written ${path.relative(ROOT, out)}`);
  } finally {
    await t.close();
  }
}

/** Messages as Lambda's SQS event source hands them to the worker. */
function sqsEventOf(messages: readonly Message[]): SQSEvent {
  return {
    Records: messages.map((m) => ({
      messageId: m.MessageId!,
      receiptHandle: m.ReceiptHandle!,
      body: m.Body ?? '',
      attributes: { ApproximateReceiveCount: '1', SentTimestamp: '0', SenderId: 'bench', ApproximateFirstReceiveTimestamp: '0' },
      messageAttributes: {},
      md5OfBody: m.MD5OfBody ?? '',
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:local:000000000000:rampart-monitoring-fanout',
      awsRegion: 'local',
    })),
  };
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
