/**
 * Creates what the CDK stack creates on AWS, on the emulators, idempotently: the table and its
 * indexes, the user pool and its client, the scan queue with its dead-letter queue, the buckets.
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
import { PASSWORD_POLICY } from '../../lambdas/domain/password-policy.js';

export const LOCAL_REGION = 'ap-southeast-2';
const credentials = LOCAL_CREDENTIALS;
const clientFor = (endpoint: string) => ({ endpoint, region: LOCAL_REGION, credentials });

export const localNames = {
  table: 'rampart-local',
  scanQueue: 'rampart-scan-jobs',
  scanDlq: 'rampart-scan-jobs-dlq',
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

export async function ensureQueues(endpoint: string): Promise<{ scanQueueUrl: string; scanDlqUrl: string }> {
  const sqs = new SQSClient(clientFor(endpoint));
  const dlq = await sqs.send(new CreateQueueCommand({ QueueName: localNames.scanDlq, Attributes: { MessageRetentionPeriod: '1209600' } }));
  const { Attributes } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ['QueueArn'] }));
  const main = await sqs.send(
    new CreateQueueCommand({
      QueueName: localNames.scanQueue,
      Attributes: {
        VisibilityTimeout: String(LOCAL_VISIBILITY_TIMEOUT_SECONDS),
        RedrivePolicy: JSON.stringify({ deadLetterTargetArn: Attributes?.QueueArn, maxReceiveCount: MAX_RECEIVE_COUNT }),
      },
    }),
  );
  return { scanQueueUrl: main.QueueUrl!, scanDlqUrl: dlq.QueueUrl! };
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
