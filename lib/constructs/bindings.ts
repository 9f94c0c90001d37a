import { type CfnElement, Stack, Validations } from 'aws-cdk-lib';
import type { UserPool, UserPoolClient } from 'aws-cdk-lib/aws-cognito';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, Policy, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { Bucket } from 'aws-cdk-lib/aws-s3';
import type { ConfigurationSet, EmailIdentity } from 'aws-cdk-lib/aws-ses';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import type { IConstruct } from 'constructs';
import { resourceKeys, tokenVerificationKeys } from '../../lambdas/config.js';
import type { ScanLane } from '../../lambdas/domain/audit.js';
import type { Resource } from '../../lambdas/routes.js';

/** The environment a resource gives a function: exactly the keys `lambdas/config.ts` asks for. */
export type ResourceEnvironment<R extends Resource> = Record<(typeof resourceKeys)[R][number], string>;

export interface MailerResources {
  readonly identity: EmailIdentity;
  readonly configurationSet: ConfigurationSet;
  readonly mailFrom: string;
}

/** SecureString parameters holding the Stripe keys (created by the operator, README "Plans and payments"). */
export interface StripeParameters {
  readonly secretKeyParameter: string;
  readonly webhookSecretParameter: string;
}

export interface BindableResources {
  readonly table: Table;
  /** The scan queues by lane (lambdas/domain/audit.ts ScanLane): a producer may send to each. */
  readonly scanQueues: Readonly<Record<ScanLane, Queue>>;
  /** The monitoring-fanout queue (lib/schedule/monitoring-fanout.ts). Absent: the scheduler queues rescans in its own run. */
  readonly fanoutQueue?: Queue;
  readonly mailer: MailerResources;
  readonly reports: Bucket;
  readonly userPool: { readonly pool: UserPool; readonly client: UserPoolClient };
  /** Absent: the stack has no Stripe keys and payment routes answer 'Failed to create checkout session'. */
  readonly payments?: StripeParameters;
}

/** How a function may use the table (lambdas/routes.ts `tableAccess`). */
export type TableAccess = 'read' | 'readWrite';

/** The Cognito admin calls the identity adapter makes (lambdas/adapters/cognito-users.adapter.ts). */
export const USER_POOL_ACTIONS = [
  'cognito-idp:AdminCreateUser',
  'cognito-idp:AdminDeleteUser',
  'cognito-idp:AdminGetUser',
  'cognito-idp:AdminSetUserPassword',
  'cognito-idp:AdminUpdateUserAttributes',
  'cognito-idp:ListUsers',
] as const;

/** Logical-ID form cdk-nag uses in IAM5 findings: `<LogicalId.Arn>`. */
function arnToken(resource: IConstruct): string {
  const element = resource.node.defaultChild as CfnElement;
  return `<${Stack.of(resource).getLogicalId(element)}.Arn>`;
}

/**
 * Attaches the product's resources to functions: each bind grants the IAM permissions and sets
 * the environment keys together, so a function never has one without the other.
 */
export class Bindings {
  constructor(private readonly resources: BindableResources) {}

  /**
   * Binds every resource a manifest entry `uses`; the table read-only when `tableAccess` is `read`
   * (lambdas/routes.ts tableAccessOf: every table route of the function only reads).
   */
  bindAll(fn: LambdaFunction, uses: readonly Resource[], options: { tableAccess?: TableAccess } = {}): void {
    for (const resource of uses) this.bind(fn, resource, options);
  }

  bind(fn: LambdaFunction, resource: Resource, options: { tableAccess?: TableAccess } = {}): void {
    switch (resource) {
      case 'table':
        return this.bindTable(fn, options.tableAccess);
      case 'scanQueue':
        return this.bindQueue(fn);
      case 'fanoutQueue':
        return this.bindFanoutQueue(fn);
      case 'mailer':
        return this.bindMailer(fn);
      case 'sms':
        return this.bindSms(fn);
      case 'reports':
        return this.bindReports(fn);
      case 'userPool':
        return this.bindUserPool(fn);
      case 'payments':
        return this.bindPayments(fn);
      default: {
        const unknown: never = resource;
        throw new Error(`No binding for resource ${String(unknown)}`);
      }
    }
  }

  /** `read`: get, query, scan (and their batch forms) only; `readWrite` (the default) adds put, update, delete. */
  bindTable(fn: LambdaFunction, access: TableAccess = 'readWrite'): void {
    const { table } = this.resources;
    if (access === 'read') table.grantReadData(fn);
    else table.grantReadWriteData(fn);
    setEnvironment(fn, 'table', { TABLE_NAME: table.tableName });
    Validations.of(fn).acknowledge({
      id: `AwsSolutions-IAM5[Resource::${arnToken(table)}/index/*]`,
      reason: 'Queries on the single table use its GSIs; the wildcard covers only this table’s indexes.',
    });
  }

  bindQueue(fn: LambdaFunction): void {
    const { free, paid, monitoring } = this.resources.scanQueues;
    for (const queue of [free, paid, monitoring]) queue.grantSendMessages(fn);
    setEnvironment(fn, 'scanQueue', { SCAN_QUEUE_URL: free.queueUrl, PAID_SCAN_QUEUE_URL: paid.queueUrl, MONITORING_SCAN_QUEUE_URL: monitoring.queueUrl });
  }

  /** Send only: the scheduler's one message per subscriber with due rescans (MONITORING_FANOUT_QUEUE_URL). */
  bindFanoutQueue(fn: LambdaFunction): void {
    const { fanoutQueue } = this.resources;
    setEnvironment(fn, 'fanoutQueue', {});
    if (!fanoutQueue) return;
    fanoutQueue.grantSendMessages(fn);
    fn.addEnvironment('MONITORING_FANOUT_QUEUE_URL', fanoutQueue.queueUrl);
  }

  bindMailer(fn: LambdaFunction): void {
    const { identity, configurationSet, mailFrom } = this.resources.mailer;
    identity.grantSendEmail(fn);
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['ses:SendEmail', 'ses:SendRawEmail'],
        resources: [
          Stack.of(fn).formatArn({
            service: 'ses',
            resource: 'configuration-set',
            resourceName: configurationSet.configurationSetName,
          }),
        ],
      }),
    );
    setEnvironment(fn, 'mailer', { MAIL_FROM: mailFrom });
    fn.addEnvironment('SES_CONFIGURATION_SET', configurationSet.configurationSetName);
  }

  /**
   * SMS to phone numbers only. A phone number has no ARN, so the Allow needs Resource "*"; SNS has
   * no condition key for Publish's target (sns:Endpoint and sns:Protocol are Subscribe's), so an
   * explicit Deny on every SNS ARN (topics, platform endpoints) leaves phone numbers as the only target.
   */
  bindSms(fn: LambdaFunction): void {
    // A policy of its own, so that the acknowledgement of its Resource "*" covers sns:Publish and nothing else.
    const sms = new Policy(fn, 'SmsPublish', {
      statements: [
        new PolicyStatement({ actions: ['sns:Publish'], resources: ['*'] }),
        new PolicyStatement({ effect: Effect.DENY, actions: ['sns:Publish'], resources: [`arn:${Stack.of(fn).partition}:sns:*:*:*`] }),
      ],
    });
    fn.role!.attachInlinePolicy(sms);
    setEnvironment(fn, 'sms', {});
    fn.addEnvironment('SMS_MODE', 'sns');
    Validations.of(sms).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'SMS: sns:Publish to a phone number has no resource ARN to scope to; an explicit Deny on every SNS topic and endpoint ARN keeps it to phone numbers.',
    });
  }

  bindReports(fn: LambdaFunction): void {
    const { reports } = this.resources;
    // Write a report, read it back for a presigned GET; no listing, no deleting.
    fn.addToRolePolicy(
      new PolicyStatement({ actions: ['s3:PutObject', 's3:GetObject'], resources: [reports.arnForObjects('*')] }),
    );
    setEnvironment(fn, 'reports', { REPORTS_BUCKET: reports.bucketName });
    Validations.of(fn).acknowledge({
      id: `AwsSolutions-IAM5[Resource::${arnToken(reports)}/*]`,
      reason: 'Report PDFs are keyed per audit; object access is limited to the reports bucket.',
    });
  }

  bindUserPool(fn: LambdaFunction): void {
    const { pool, client } = this.resources.userPool;
    pool.grant(fn, ...USER_POOL_ACTIONS);
    setEnvironment(fn, 'userPool', { USER_POOL_ID: pool.userPoolId, USER_POOL_CLIENT_ID: client.userPoolClientId });
  }

  /**
   * A public route's optional token (`optionalAuth`): the handler verifies Cognito JWTs against the
   * pool's public signing keys, so it needs the pool's ids and no IAM grant.
   */
  bindTokenVerification(fn: LambdaFunction): void {
    const { pool, client } = this.resources.userPool;
    const env: Record<(typeof tokenVerificationKeys)[number], string> = { USER_POOL_ID: pool.userPoolId, USER_POOL_CLIENT_ID: client.userPoolClientId };
    for (const [key, value] of Object.entries(env)) fn.addEnvironment(key, value);
  }

  /**
   * The Stripe keys: the names of two SecureString parameters, read (and decrypted with the
   * account's aws/ssm key) at cold start, so the keys never sit in the function's configuration.
   */
  bindPayments(fn: LambdaFunction): void {
    const { payments } = this.resources;
    setEnvironment(fn, 'payments', {});
    if (!payments) {
      fn.addEnvironment('PAYMENTS_MODE', 'off');
      return;
    }
    const stack = Stack.of(fn);
    const arn = (name: string) => stack.formatArn({ service: 'ssm', resource: 'parameter', resourceName: name.replace(/^\//, '') });
    fn.addToRolePolicy(
      new PolicyStatement({ actions: ['ssm:GetParameters'], resources: [arn(payments.secretKeyParameter), arn(payments.webhookSecretParameter)] }),
    );
    fn.addEnvironment('PAYMENTS_MODE', 'stripe');
    fn.addEnvironment('STRIPE_SECRET_KEY_PARAMETER', payments.secretKeyParameter);
    fn.addEnvironment('STRIPE_WEBHOOK_SECRET_PARAMETER', payments.webhookSecretParameter);
  }
}

function setEnvironment<R extends Resource>(fn: LambdaFunction, _resource: R, env: ResourceEnvironment<R>): void {
  for (const [key, value] of Object.entries(env) as [string, string][]) fn.addEnvironment(key, value);
}
