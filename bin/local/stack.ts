/**
 * The whole product on one machine: emulators, provisioning, the HTTP server, the scan worker and
 * the scheduled jobs, in one process. `npm start` and the integration tests both start it here.
 */
import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import { join, resolve } from 'node:path';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { OutboxSms } from '../../lambdas/adapters/sms.adapter.js';
import { buildDeps, type Deps, LOCAL_CREDENTIALS } from '../../lambdas/composition.js';
import { type Config, loadConfig, productSlug, required } from '../../lambdas/config.js';
import type { Audit, ScanLane } from '../../lambdas/domain/audit.js';
import { make as makeScanWorker } from '../../lambdas/workers/scan-worker.js';
import { seedDemoAccount } from '../../lambdas/use-cases/seed-demo.js';
import { make as makeSweeper } from '../../lambdas/workers/sweeper.js';
import { make as makeMonitoringScheduler } from '../../lambdas/workers/monitoring-scheduler.js';
import { make as makeMonitoringFanout } from '../../lambdas/workers/monitoring-fanout.js';
import { type Emulator, freePort, startCognito, startDynamoDb, startS3, startSes, startSqs } from './emulators.js';
import { ensureBuckets, ensureQueues, ensureTable, ensureUserPool, LOCAL_REGION, type LocalScanQueues } from './provision.js';
import { type QueuePoller, startQueuePoller, startScanConsumers } from './queue-poller.js';
import { demoCredentials } from '../../lambdas/domain/demo-account.js';
import type { Metrics } from '../../lambdas/domain/metrics.port.js';
import { startLocalServer } from './server.js';

/** lib/schedule/monitoring-fanout.ts FANOUT_BATCH_SIZE (not imported: the local stack does not load aws-cdk-lib). */
const LOCAL_FANOUT_BATCH_SIZE = 10;

export interface LocalStackOptions {
  /** Where dynalite, s3rver and cognito-local keep their data. */
  dataDir: string;
  /** 0 picks a free port. */
  port?: number;
  host?: string;
  staticDir?: string;
  /**
   * Configuration keys (see README), e.g. SCAN_RESOLVERS or SCAN_ALLOW_PRIVATE_TARGETS. Locally
   * DEMO_MODE defaults to on (DECISIONS "Demo account"): DEMO_MODE=0 turns the demo account off.
   */
  env?: Record<string, string | undefined>;
  sweepIntervalMs?: number;
  /**
   * How often the monitoring scheduler runs (rescans due, waiting alerts, a new knowledge base): once
   * a minute by default, like the sweeper; 0 turns it off (the tests drive it with their own clock).
   */
  monitoringIntervalMs?: number;
  /**
   * The scheduler sends due rescans through the monitoring-fanout queue to its worker, as on AWS
   * (default). Off: the queue exists but the scheduler is not told of it (MONITORING_FANOUT_QUEUE_URL
   * unset) and queues the rescans in its own run, as a stack without the queue does.
   */
  monitoringFanout?: boolean;
  /** Business metrics: none by default (no CloudWatch locally); tests pass a RecordingMetrics to read them. */
  metrics?: Metrics;
}

export interface LocalStack {
  url: string;
  mailboxUrl: string;
  outboxUrl: string;
  config: Config;
  deps: Deps;
  endpoints: { dynamodb: string; sqs: string; ses: string; s3: string; cognito: string };
  userPool: { userPoolId: string; userPoolClientId: string };
  queues: LocalScanQueues;
  /** Stops consuming the scan queues and the monitoring-fanout queue (the API keeps serving): on AWS the workers are separate Lambdas. */
  stopWorker(): Promise<void>;
  stop(): Promise<void>;
}

export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const dataDir = resolve(options.dataDir);
  mkdirSync(dataDir, { recursive: true });
  const host = options.host ?? '127.0.0.1';
  const emulators: Emulator[] = [];
  const track = async <E extends Emulator>(started: Promise<E>): Promise<E> => {
    const emulator = await started;
    emulators.push(emulator);
    return emulator;
  };
  let server: Server | undefined;
  let poller: QueuePoller | undefined;
  let fanoutPoller: QueuePoller | undefined;
  let sweepTimer: NodeJS.Timeout | undefined;
  let monitorTimer: NodeJS.Timeout | undefined;

  const stop = async () => {
    clearInterval(sweepTimer);
    clearInterval(monitorTimer);
    await poller?.stop();
    await fanoutPoller?.stop();
    if (server) {
      server.closeAllConnections();
      await new Promise<void>((done) => server!.close(() => done()));
    }
    await Promise.all(emulators.map((e) => e.close().catch(() => undefined)));
  };

  try {
    const env = options.env ?? {};
    const localEnv = {
      LOG_LEVEL: 'WARN',
      SMS_MODE: 'outbox',
      MAIL_FROM: `no-reply@${productSlug(env.PRODUCT_NAME ?? 'Rampart')}.example`,
      DEMO_MODE: '1',
      ...withoutUnset(env),
      AWS_REGION: LOCAL_REGION,
    };
    // Checked before anything starts: a bad key stops start-up with its name.
    const early = loadConfig(localEnv);
    // The user pool emails its codes through SES, so SES comes first (it starts in milliseconds).
    const ses = await track(startSes());
    const [dynamodb, s3, sqs, cognito] = await Promise.all([
      track(startDynamoDb(join(dataDir, 'dynamodb'))),
      track(startS3(join(dataDir, 's3'))),
      track(startSqs()),
      track(startCognito(join(dataDir, 'cognito'), { sesEndpoint: ses.endpoint, from: required(early, 'MAIL_FROM'), productName: early.PRODUCT_NAME })),
    ]);
    const [tableName, queues, buckets, userPool] = await Promise.all([
      ensureTable(dynamodb.endpoint),
      ensureQueues(sqs.endpoint),
      ensureBuckets(s3.endpoint),
      ensureUserPool(cognito.endpoint, dataDir),
    ]);

    const port = options.port === undefined || options.port === 0 ? await freePort() : options.port;
    const url = `http://${host}:${port}`;
    const config = loadConfig(
      {
        ...localEnv,
        SITE_URL: env.SITE_URL ?? url,
        TABLE_NAME: tableName,
        SCAN_QUEUE_URL: queues.byLane.free.queueUrl,
        PAID_SCAN_QUEUE_URL: queues.byLane.paid.queueUrl,
        MONITORING_SCAN_QUEUE_URL: queues.byLane.monitoring.queueUrl,
        ...(options.monitoringFanout === false ? {} : { MONITORING_FANOUT_QUEUE_URL: queues.monitoringFanout.queueUrl }),
        REPORTS_BUCKET: buckets.reportsBucket,
        USER_POOL_ID: userPool.userPoolId,
        USER_POOL_CLIENT_ID: userPool.userPoolClientId,
        DYNAMODB_ENDPOINT: dynamodb.endpoint,
        SQS_ENDPOINT: sqs.endpoint,
        SES_ENDPOINT: ses.endpoint,
        S3_ENDPOINT: s3.endpoint,
        COGNITO_ENDPOINT: cognito.endpoint,
      },
      ['table', 'scanQueue', 'mailer', 'reports', 'userPool'],
    );
    const deps = buildDeps(config, { metrics: options.metrics });
    const { dropped, restored, refreshed } = dynamodb.indexRepair;
    if (dropped + restored + refreshed > 0) deps.log.warn('Repaired the local table indexes a kill had left unfinished', { dropped, restored, refreshed });
    if (config.DEMO_MODE) await seedDemoAccount(deps);
    const outbox = new OutboxSms(
      DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: dynamodb.endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS })),
      tableName,
      deps.clock,
    );

    server = await startLocalServer(
      {
        deps,
        staticDir: resolve(options.staticDir ?? 'frontend/dist'),
        cognito: { endpoint: cognito.endpoint, userPoolId: userPool.userPoolId, clientId: userPool.userPoolClientId },
        // DECISIONS "Demo account": the login page shows the credentials only in demo mode.
        demo: deps.config.DEMO_MODE ? demoCredentials(deps.config.PRODUCT_NAME) : undefined,
        outbox,
      },
      port,
      host,
    );

    // The local queue lives in memory: audits left unfinished by the last run are queued again.
    const unfinished = await deps.audits.listUnfinished(new Date(Date.now() + 1000).toISOString(), 1000);
    for (const { id } of unfinished) await deps.scanJobs.enqueue({ auditId: id, kind: 'scan' }, localLaneOf(await deps.audits.getAudit(id)));

    const sqsClient = new SQSClient({ endpoint: sqs.endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
    poller = startScanConsumers(sqsClient, { free: queues.byLane.free.queueUrl, paid: queues.byLane.paid.queueUrl, monitoring: queues.byLane.monitoring.queueUrl }, makeScanWorker(deps), {
      onError: (error) => deps.log.error('Local queue poller error', error as Error),
    });
    if (config.MONITORING_FANOUT_QUEUE_URL) {
      // The monitoring-fanout worker, fed as its SQS event source feeds it on AWS (lib/schedule/monitoring-fanout.ts).
      fanoutPoller = startQueuePoller(sqsClient, config.MONITORING_FANOUT_QUEUE_URL, makeMonitoringFanout(deps), {
        batchSize: LOCAL_FANOUT_BATCH_SIZE,
        onError: (error) => deps.log.error('Local monitoring-fanout poller error', error as Error),
      });
    }
    const sweep = makeSweeper(deps);
    sweepTimer = setInterval(() => {
      sweep().catch((error: unknown) => deps.log.error('Sweeper failed', error as Error));
    }, options.sweepIntervalMs ?? 60_000);
    sweepTimer.unref();
    const monitoringIntervalMs = options.monitoringIntervalMs ?? 60_000;
    if (monitoringIntervalMs > 0) {
      const monitor = makeMonitoringScheduler(deps);
      let running = false;
      monitorTimer = setInterval(() => {
        // One run at a time: a slow run (many subscribers) is not overtaken by the next tick.
        if (running) return;
        running = true;
        monitor()
          .catch((error: unknown) => deps.log.error('Monitoring scheduler failed', error as Error))
          .finally(() => (running = false));
      }, monitoringIntervalMs);
      monitorTimer.unref();
    }

    return {
      url,
      mailboxUrl: ses.endpoint,
      outboxUrl: `${url}/_local/outbox`,
      config,
      deps,
      endpoints: { dynamodb: dynamodb.endpoint, sqs: sqs.endpoint, ses: ses.endpoint, s3: s3.endpoint, cognito: cognito.endpoint },
      userPool,
      queues,
      stopWorker: async () => {
        await poller?.stop();
        poller = undefined;
        await fanoutPoller?.stop();
        fanoutPoller = undefined;
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** `KEY=` in the environment means "not set" (loadConfig drops it too), so it must not hide a local default. */
function withoutUnset(env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== ''));
}

/**
 * The lane of an audit left unfinished by the last local run, queued again at start: the producer
 * that chose its lane is gone, so it is read from the audit (a monitoring rescan's origin, a deep scan paid).
 */
function localLaneOf(audit: Pick<Audit, 'origin' | 'depth'> | undefined): ScanLane {
  if (audit?.origin === 'monitoring') return 'monitoring';
  return audit?.depth === 'deep' ? 'paid' : 'free';
}
