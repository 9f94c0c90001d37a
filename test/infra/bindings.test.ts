import { App, type CfnElement, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { UserPool } from 'aws-cdk-lib/aws-cognito';
import { AttributeType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { ConfigurationSet, EmailIdentity, Identity } from 'aws-cdk-lib/aws-ses';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { describe, expect, it } from 'vitest';
import { resourceKeys, tokenVerificationKeys } from '../../lambdas/config.js';
import type { Resource } from '../../lambdas/routes.js';
import { Bindings, type StripeParameters, USER_POOL_ACTIONS } from '../../lib/constructs/bindings.js';

const allResources = Object.keys(resourceKeys) as Resource[];

/** A small stack with one of each resource and one probe function bound to `uses`. */
function bindProbe(uses: readonly Resource[], payments?: StripeParameters, also?: (bindings: Bindings, fn: LambdaFunction) => void) {
  const stack = new Stack(new App(), 'Probe');
  const configurationSet = new ConfigurationSet(stack, 'ConfigSet');
  const pool = new UserPool(stack, 'Pool');
  const bindings = new Bindings({
    table: new Table(stack, 'Table', { partitionKey: { name: 'pk', type: AttributeType.STRING } }),
    scanQueues: { free: new Queue(stack, 'Queue'), paid: new Queue(stack, 'PaidQueue'), monitoring: new Queue(stack, 'MonitoringQueue') },
    mailer: {
      identity: new EmailIdentity(stack, 'Identity', { identity: Identity.domain('example.com') }),
      configurationSet,
      mailFrom: 'no-reply@example.com',
    },
    reports: new Bucket(stack, 'Reports'),
    userPool: { pool, client: pool.addClient('Client') },
    payments,
  });
  const fn = new LambdaFunction(stack, 'Probe', { runtime: Runtime.NODEJS_22_X, handler: 'index.handler', code: Code.fromInline('0') });
  bindings.bindAll(fn, uses);
  also?.(bindings, fn);
  const template = Template.fromStack(stack);
  const [probe] = Object.values(template.findResources('AWS::Lambda::Function'));
  const env = (probe!.Properties.Environment?.Variables ?? {}) as Record<string, unknown>;
  const policies = Object.values(template.findResources('AWS::IAM::Policy'));
  const statements = policies.flatMap((p) => p.Properties.PolicyDocument.Statement as { Effect: string; Action: string | string[]; Resource: unknown }[]);
  const actions = statements.flatMap((s) => s.Action);
  const ids = { pool: stack.getLogicalId(pool.node.defaultChild as CfnElement), client: Object.keys(template.findResources('AWS::Cognito::UserPoolClient'))[0] };
  return { env, actions, statements, ids };
}

describe('bindings', () => {
  it.each(allResources)('bind(%s) sets exactly the keys lambdas/config.ts lists for it', (resource) => {
    const { env } = bindProbe([resource]);
    const extra = { mailer: ['SES_CONFIGURATION_SET'], sms: ['SMS_MODE'], payments: ['PAYMENTS_MODE'] } as Partial<Record<Resource, string[]>>;
    expect(Object.keys(env).sort()).toEqual([...resourceKeys[resource], ...(extra[resource] ?? [])].sort());
  });

  it('grants each resource together with its environment', () => {
    const cases: [Resource, string[]][] = [
      ['table', ['dynamodb:PutItem', 'dynamodb:Query', 'dynamodb:UpdateItem']],
      ['scanQueue', ['sqs:SendMessage']],
      ['mailer', ['ses:SendEmail']],
      ['sms', ['sns:Publish']],
      ['reports', ['s3:PutObject', 's3:GetObject']],
      ['userPool', [...USER_POOL_ACTIONS]],
    ];
    for (const [resource, expected] of cases) {
      expect(bindProbe([resource]).actions, resource).toEqual(expect.arrayContaining(expected));
    }
  });

  it('sets SMS_MODE=sns and grants nothing it was not asked for: sns:Publish to phone numbers, denied on every topic', () => {
    const { env, statements } = bindProbe(['sms']);
    expect(env.SMS_MODE).toBe('sns');
    expect(statements).toEqual([
      { Effect: 'Allow', Action: 'sns:Publish', Resource: '*' },
      { Effect: 'Deny', Action: 'sns:Publish', Resource: { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':sns:*:*:*']] } },
    ]);
  });

  it('payments without Stripe parameters: PAYMENTS_MODE=off and no grant', () => {
    const { env, actions } = bindProbe(['payments']);
    expect(env).toEqual({ PAYMENTS_MODE: 'off' });
    expect(actions).toEqual([]);
  });

  it('payments with Stripe parameters: their names, and ssm:GetParameters on exactly those two', () => {
    const { env, statements } = bindProbe(['payments'], { secretKeyParameter: '/rampart/stripe/secret-key', webhookSecretParameter: '/rampart/stripe/webhook-secret' });
    expect(env).toEqual({
      PAYMENTS_MODE: 'stripe',
      STRIPE_SECRET_KEY_PARAMETER: '/rampart/stripe/secret-key',
      STRIPE_WEBHOOK_SECRET_PARAMETER: '/rampart/stripe/webhook-secret',
    });
    expect(statements).toHaveLength(1);
    expect(statements[0]!.Action).toBe('ssm:GetParameters');
    expect(JSON.stringify(statements[0]!.Resource)).toMatch(/parameter\/rampart\/stripe\/secret-key.*parameter\/rampart\/stripe\/webhook-secret/);
  });

  it("bindTokenVerification (a public route's optional token) sets the pool's two ids and grants nothing", () => {
    const { env, actions, ids } = bindProbe([], undefined, (bindings, fn) => bindings.bindTokenVerification(fn));
    expect(Object.keys(env).sort()).toEqual([...tokenVerificationKeys].sort());
    expect(env).toEqual({ USER_POOL_ID: { Ref: ids.pool }, USER_POOL_CLIENT_ID: { Ref: ids.client } });
    expect(actions).toEqual([]);
  });
});
