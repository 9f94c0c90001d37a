/**
 * Creates what the CDK stack creates on AWS, on the emulators, idempotently: the table and its
 * indexes, the user pool and its client, the scan queues (free, paid, monitoring) and the monitoring-fanout
 * queue with their dead-letter queues, the buckets.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CognitoIdentityProviderClient,
  CreateUserPoolClientCommand,
  CreateUserPoolCommand,
  ListUserPoolsCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient, ResourceNotFoundException } from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { CreateQueueCommand, GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { tableSchema } from '../../lambdas/adapters/table-keys.js';
import { LOCAL_CREDENTIALS } from '../../lambdas/composition.js';
import { type ScanLane, scanLanes } from '../../lambdas/domain/audit.js';
import { PASSWORD_POLICY } from '../../lambdas/domain/password-policy.js';

export const LOCAL_REGION = 'ap-southeast-2';
const credentials = LOCAL_CREDENTIALS;
const clientFor = (endpoint: string) => ({ endpoint, region: LOCAL_REGION, credentials });

export const localNames = {
  table: 'rampart-local',
  /** The free lane's queue keeps the name every scan used before there were lanes. */
  scanQueue: 'rampart-scan-jobs',
  scanDlq: 'rampart-scan-jobs-dlq',
  paidScanQueue: 'rampart-paid-scan-jobs',
  paidScanDlq: 'rampart-paid-scan-jobs-dlq',
  monitoringScanQueue: 'rampart-monitoring-scan-jobs',
  monitoringScanDlq: 'rampart-monitoring-scan-jobs-dlq',
  /** The scheduler's one message per subscriber with due rescans (lib/schedule/monitoring-fanout.ts). */
  monitoringFanoutQueue: 'rampart-monitoring-fanout',
  monitoringFanoutDlq: 'rampart-monitoring-fanout-dlq',
  reportsBucket: 'rampart-reports',
  userPool: 'rampart-users',
  userPoolClient: 'rampart-web',
};

/** Receives before a scan job goes to the dead-letter queue; the same number as on AWS. */
export const MAX_RECEIVE_COUNT = 3;
/** Locally a failed job becomes visible again after this many seconds. */
export const LOCAL_VISIBILITY_TIMEOUT_SECONDS = 90;

export async function ensureTable(endpoint: string): Promise<string> {
  const db = new DynamoDBClient(clientFor(endpoint));
  const TableName = localNames.table;
  try {
    await db.send(new DescribeTableCommand({ TableName }));
    return await tableActive(db, TableName);
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException) && (error as Error).name !== 'ResourceNotFoundException') throw error;
  }
  const attributes = new Set<string>([tableSchema.partitionKey, tableSchema.sortKey]);
  for (const index of tableSchema.globalIndexes) {
    attributes.add(index.partitionKey);
    attributes.add(index.sortKey);
  }
  await db.send(
    new CreateTableCommand({
      TableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [...attributes].map((AttributeName) => ({ AttributeName, AttributeType: 'S' })),
      KeySchema: [
        { AttributeName: tableSchema.partitionKey, KeyType: 'HASH' },
        { AttributeName: tableSchema.sortKey, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: tableSchema.globalIndexes.map((index) => ({
        IndexName: index.indexName,
        KeySchema: [
          { AttributeName: index.partitionKey, KeyType: 'HASH' },
          { AttributeName: index.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
    }),
  );
  return tableActive(db, TableName);
}

/**
 * dynalite answers CreateTable with CREATING and serves the table (and its indexes) a moment later:
 * start-up's first query waits for ACTIVE, or under load it can meet ResourceNotFoundException.
 */
async function tableActive(db: DynamoDBClient, TableName: string): Promise<string> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const { Table } = await db.send(new DescribeTableCommand({ TableName }));
    const indexesActive = (Table?.GlobalSecondaryIndexes ?? []).every((index) => index.IndexStatus === undefined || index.IndexStatus === 'ACTIVE');
    if (Table?.TableStatus === 'ACTIVE' && indexesActive) return TableName;
    if (Date.now() > deadline) throw new Error(`The local table ${TableName} did not become active`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The scan queues by lane (ScanLane), each with its dead-letter queue, as the stack makes them on AWS. */
export interface LocalScanQueues {
  /** The free lane's queue and dead letters (the names kept from before the lanes). */
  scanQueueUrl: string;
  scanDlqUrl: string;
  byLane: Record<ScanLane, { queueUrl: string; dlqUrl: string }>;
  /** The monitoring-fanout queue and its dead letters (three receives, as on AWS). */
  monitoringFanout: { queueUrl: string; dlqUrl: string };
}

const laneQueueNames: Record<ScanLane, { queue: string; dlq: string }> = {
  free: { queue: localNames.scanQueue, dlq: localNames.scanDlq },
  paid: { queue: localNames.paidScanQueue, dlq: localNames.paidScanDlq },
  monitoring: { queue: localNames.monitoringScanQueue, dlq: localNames.monitoringScanDlq },
};

export async function ensureQueues(endpoint: string): Promise<LocalScanQueues> {
  const sqs = new SQSClient(clientFor(endpoint));
  const byLane = {} as LocalScanQueues['byLane'];
  const queueWithDeadLetters = async (names: { queue: string; dlq: string }) => {
    const dlq = await sqs.send(new CreateQueueCommand({ QueueName: names.dlq, Attributes: { MessageRetentionPeriod: '1209600' } }));
    const { Attributes } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ['QueueArn'] }));
    const main = await sqs.send(
      new CreateQueueCommand({
        QueueName: names.queue,
        Attributes: {
          VisibilityTimeout: String(LOCAL_VISIBILITY_TIMEOUT_SECONDS),
          RedrivePolicy: JSON.stringify({ deadLetterTargetArn: Attributes?.QueueArn, maxReceiveCount: MAX_RECEIVE_COUNT }),
        },
      }),
    );
    return { queueUrl: main.QueueUrl!, dlqUrl: dlq.QueueUrl! };
  };
  for (const lane of scanLanes) byLane[lane] = await queueWithDeadLetters(laneQueueNames[lane]);
  const monitoringFanout = await queueWithDeadLetters({ queue: localNames.monitoringFanoutQueue, dlq: localNames.monitoringFanoutDlq });
  return { scanQueueUrl: byLane.free.queueUrl, scanDlqUrl: byLane.free.dlqUrl, byLane, monitoringFanout };
}

export async function ensureBuckets(endpoint: string): Promise<{ reportsBucket: string }> {
  const s3 = new S3Client({ ...clientFor(endpoint), forcePathStyle: true });
  try {
    await s3.send(new CreateBucketCommand({ Bucket: localNames.reportsBucket }));
  } catch (error) {
    const name = (error as Error).name;
    if (name !== 'BucketAlreadyOwnedByYou' && name !== 'BucketAlreadyExists') throw error;
  }
  return { reportsBucket: localNames.reportsBucket };
}

/** The pool and client ids are kept in the data folder, so accounts survive restarts. */
export async function ensureUserPool(endpoint: string, dataDir: string): Promise<{ userPoolId: string; userPoolClientId: string }> {
  const idsFile = join(dataDir, 'user-pool.json');
  const cognito = new CognitoIdentityProviderClient(clientFor(endpoint));
  if (existsSync(idsFile)) {
    const saved = JSON.parse(readFileSync(idsFile, 'utf8')) as { userPoolId: string; userPoolClientId: string };
    const { UserPools = [] } = await cognito.send(new ListUserPoolsCommand({ MaxResults: 60 }));
    if (UserPools.some((p) => p.Id === saved.userPoolId)) return saved;
  }
  const pool = await cognito.send(
    new CreateUserPoolCommand({
      PoolName: localNames.userPool,
      UsernameAttributes: ['email'],
      AutoVerifiedAttributes: ['email'],
      // As lib/auth: TOTP is offered; a user who turned it on is asked for a code at sign-in.
      MfaConfiguration: 'OPTIONAL',
      // As lib/auth's keepOriginal: a changed email waits for its code (cognito-local honours this).
      UserAttributeUpdateSettings: { AttributesRequireVerificationBeforeUpdate: ['email'] },
      Policies: {
        PasswordPolicy: {
          MinimumLength: PASSWORD_POLICY.minLength,
          RequireLowercase: PASSWORD_POLICY.requireLowercase,
          RequireUppercase: PASSWORD_POLICY.requireUppercase,
          RequireNumbers: PASSWORD_POLICY.requireDigits,
          RequireSymbols: PASSWORD_POLICY.requireSymbols,
        },
      },
    }),
  );
  const userPoolId = pool.UserPool!.Id!;
  const client = await cognito.send(
    new CreateUserPoolClientCommand({
      UserPoolId: userPoolId,
      ClientName: localNames.userPoolClient,
      ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_USER_SRP_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
    }),
  );
  const ids = { userPoolId, userPoolClientId: client.UserPoolClient!.ClientId! };
  writeFileSync(idsFile, JSON.stringify(ids, null, 2));
  return ids;
}
