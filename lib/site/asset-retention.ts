import { readdirSync } from 'node:fs';
import path from 'node:path';
import { type CfnElement, Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction as LambdaTarget } from 'aws-cdk-lib/aws-events-targets';
import { Architecture, Code, Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Bucket } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { LOG_RETENTION_DAYS } from '../../lambdas/domain/retention.js';
import { FUNCTION_RUNTIME } from '../constructs/project-function.js';

/**
 * Old site assets are kept for a week after the deploy that replaced them (issue 30 item 7): a browser
 * that loaded the previous index.html still lazy-loads that build's hashed chunks, and a deploy that
 * pruned them at once broke its next page. Why this design:
 * - S3 lifecycle rules count from an object's upload, and `s3 sync` never re-uploads an unchanged
 *   chunk, so a rule cannot tell a chunk still in use from one retired yesterday; object tags would
 *   have to be set after the upload by code anyway.
 * - So the deploy writes the build's asset list (ASSET_MANIFEST_KEY, with the pages), the hashed
 *   assets are uploaded without pruning, and a small daily function marks each `assets/` object not in
 *   the current list as retired (the day it first saw it so, in RETIRED_STATE_KEY) and deletes it once
 *   it has been retired ASSET_RETENTION_DAYS. A chunk that is current again (a rollback) is unmarked.
 *   Retired is counted from the first run after the deploy, so every chunk lives at least the week.
 */
export const ASSET_RETENTION_DAYS = 7;
/** The current build's asset keys, written by the pages' deployment (lib/site/site.ts). */
export const ASSET_MANIFEST_KEY = '_deploy/assets.json';
/** When each asset no longer in the build was first seen so: `{ key: ISO time }`, the cleanup's own state. */
export const RETIRED_STATE_KEY = '_deploy/retired.json';

/** Every file of a build under `prefix` (`assets/`), as S3 keys. */
export function buildAssetKeys(dist: string, prefix: string): string[] {
  const dir = path.join(dist, prefix);
  const entries = readdirSync(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.posix.join(prefix, path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/')))
    .sort();
}

/**
 * The cleanup's handler, plain CommonJS for Lambda's inline code (the runtime's own AWS SDK v3).
 * `makeHandler(client, bucket, now)` is exported for the tests, which run this very text.
 */
export const ASSET_CLEANUP_SOURCE = `
const { S3Client, ListObjectsV2Command, GetObjectCommand, PutObjectCommand, DeleteObjectsCommand } = require('@aws-sdk/client-s3');
const DAY = 86400000;
const readJson = async (s3, Bucket, Key, fallback) => {
  try { return JSON.parse(await (await s3.send(new GetObjectCommand({ Bucket, Key }))).Body.transformToString()); }
  catch (e) { if (e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404) return fallback; throw e; }
};
const makeHandler = (s3, Bucket, now = () => Date.now()) => async () => {
  const manifest = await readJson(s3, Bucket, ${JSON.stringify(ASSET_MANIFEST_KEY)}, null);
  if (!manifest || !Array.isArray(manifest.assets)) return { skipped: 'no asset manifest' };
  const current = new Set(manifest.assets);
  const prefix = manifest.prefix;
  const retired = await readJson(s3, Bucket, ${JSON.stringify(RETIRED_STATE_KEY)}, {});
  const next = {};
  const expired = [];
  let token;
  do {
    const page = await s3.send(new ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken: token }));
    for (const { Key } of page.Contents ?? []) {
      if (current.has(Key)) continue;
      const since = retired[Key] ?? new Date(now()).toISOString();
      if (now() - Date.parse(since) >= ${ASSET_RETENTION_DAYS} * DAY) expired.push(Key);
      else next[Key] = since;
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  for (let i = 0; i < expired.length; i += 1000) {
    await s3.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects: expired.slice(i, i + 1000).map((Key) => ({ Key })), Quiet: true } }));
  }
  await s3.send(new PutObjectCommand({ Bucket, Key: ${JSON.stringify(RETIRED_STATE_KEY)}, Body: JSON.stringify(next), ContentType: 'application/json' }));
  return { deleted: expired.length, retired: Object.keys(next).length };
};
exports.makeHandler = makeHandler;
exports.handler = (event) => makeHandler(new S3Client({}), process.env.SITE_BUCKET)(event);
`;

export interface AssetRetentionProps {
  readonly bucket: Bucket;
  /** The hashed assets' prefix (`assets/`): the only objects the cleanup may delete. */
  readonly prefix: string;
}

/** The daily cleanup of retired site assets (see ASSET_RETENTION_DAYS). */
export class AssetRetention extends Construct {
  readonly fn: LambdaFunction;
  /** The daily schedule (its failed invocations alarm, as every schedule's do). */
  readonly rule: Rule;

  constructor(scope: Construct, id: string, props: AssetRetentionProps) {
    super(scope, id);
    const logGroup = new LogGroup(this, 'Logs', {
      retention: LOG_RETENTION_DAYS.functionLogs satisfies RetentionDays,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.fn = new LambdaFunction(this, 'Cleanup', {
      description: `Deletes site assets ${ASSET_RETENTION_DAYS} days after a deploy retired them`,
      code: Code.fromInline(ASSET_CLEANUP_SOURCE),
      handler: 'index.handler',
      runtime: FUNCTION_RUNTIME,
      architecture: Architecture.ARM_64,
      memorySize: 256,
      timeout: Duration.minutes(2),
      logGroup,
      environment: { SITE_BUCKET: props.bucket.bucketName },
    });
    props.bucket.grantRead(this.fn, ASSET_MANIFEST_KEY);
    props.bucket.grantRead(this.fn, RETIRED_STATE_KEY);
    props.bucket.grantPut(this.fn, RETIRED_STATE_KEY);
    props.bucket.grantDelete(this.fn, `${props.prefix}*`);
    // ListObjectsV2 on the bucket (the read grant above is on one key).
    props.bucket.grantRead(this.fn, `${props.prefix}*`);
    this.rule = new Rule(this, 'Daily', {
      description: 'Deletes site assets retired a week ago',
      schedule: Schedule.rate(Duration.days(1)),
      targets: [new LambdaTarget(this.fn, { retryAttempts: 2 })],
    });
    Validations.of(this.fn).acknowledge(
      {
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        reason: 'The basic execution role only lets the function write its own CloudWatch logs.',
      },
      { id: 'AwsSolutions-L1', reason: `${FUNCTION_RUNTIME.name} is the project's chosen runtime (the one it is developed and tested on); upgrades are deliberate.` },
      { id: 'AwsSolutions-IAM5[Action::s3:GetObject*]', reason: 'CDK grantRead: reading the asset manifest and the retired list (one key each) and listing the assets.' },
      { id: 'AwsSolutions-IAM5[Action::s3:GetBucket*]', reason: 'CDK grantRead: the site bucket only.' },
      { id: 'AwsSolutions-IAM5[Action::s3:List*]', reason: 'Listing the hashed assets to find the retired ones.' },
      { id: 'AwsSolutions-IAM5[Action::s3:DeleteObject*]', reason: 'Deleting retired hashed assets: scoped to the assets/ prefix of the site bucket.' },
      { id: 'AwsSolutions-IAM5[Action::s3:Abort*]', reason: 'CDK grantPut on the one retired-list key.' },
      {
        id: `AwsSolutions-IAM5[Resource::<${Stack.of(this).getLogicalId(props.bucket.node.defaultChild as CfnElement)}.Arn>/${props.prefix}*]`,
        reason: 'The hashed assets under the prefix: the ones it lists and deletes once retired a week.',
      },
    );
  }
}
