/* eslint-disable @typescript-eslint/no-explicit-any -- a synthesized template is untyped JSON; the assertions below check its shape */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resourceKeys, tokenVerificationKeys } from '../../lambdas/config.js';
import { BOT_MARKERS } from '../../lambdas/domain/bots.js';
import { PASSWORD_POLICY } from '../../lambdas/domain/password-policy.js';
import { type ApiFunctionName, apiFunctions, type RouteDefinition, routes, routesOf, usesOf, workerFunctions } from '../../lambdas/routes.js';
import { ORIGIN_VERIFY_HEADER } from '../../lambdas/api/origin-verify.js';
import { API_THROTTLE, ORIGIN_VERIFY_KEY } from '../../lib/api/api.js';
import { SCAN_BATCH_SIZE, SCAN_MAX_RECEIVE_COUNT, SCAN_WORKER_TIMEOUT } from '../../lib/scanning/scanning.js';
import { HSTS_MAX_AGE_SECONDS, siteSecurityHeaders, WAZUH_TEST_PAGE_PATHS, wazuhTestSecurityHeaders } from '../../lib/site/security-headers.js';
import { fakeFrontendBuild, nagFindings, removeTempDirs, synthProduct, type Synthesized } from './synth.js';

type Resources = Record<string, { Type: string; Properties: Record<string, any>; Metadata?: Record<string, any> }>;

// AWS managed CloudFront policies (fixed IDs).
const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const ALL_VIEWER_EXCEPT_HOST_HEADER = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';

let synthesized: Synthesized;
let template: Template;
let resources: Resources;

const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
const only = (type: string) => {
  const found = ofType(type);
  expect(found, `exactly one ${type}`).toHaveLength(1);
  return found[0]!;
};
/** The project's cache policy a CloudFront behaviour names by reference. */
const cachePolicyOf = (behavior: { CachePolicyId: unknown }) => {
  const [, policy] = ofType('AWS::CloudFront::CachePolicy').find(([id]) => JSON.stringify(behavior.CachePolicyId) === JSON.stringify({ Ref: id }))!;
  return policy as any;
};
/** The project's own functions: everything but CDK's BucketDeployment handler. */
const projectFunctions = () =>
  // Not CDK's BucketDeployment handler, nor the site's inline asset cleanup (lib/site/asset-retention.ts, test/infra/releases.test.ts).
  ofType('AWS::Lambda::Function').filter(([id]) => !id.startsWith('CustomCDKBucketDeployment') && !id.startsWith('SiteAssetRetention'));
const functionId = (logicalIdPrefix: string) => {
  const match = projectFunctions().filter(([id]) => id.startsWith(logicalIdPrefix));
  expect(match, `one function ${logicalIdPrefix}*`).toHaveLength(1);
  return match[0]![0];
};
const pascal = (name: string) => name.replace(/(^|-)([a-z0-9])/g, (_, __, c: string) => c.toUpperCase());
const envOf = (fnId: string): Record<string, unknown> => resources[fnId]!.Properties.Environment?.Variables ?? {};

beforeAll(() => {
  // Prepare: one synth with real esbuild bundling and a frontend build to deploy, shared by all tests.
  synthesized = synthProduct({ frontendDist: fakeFrontendBuild() });
  template = synthesized.template;
  resources = template.toJSON().Resources as Resources;
});

afterAll(removeTempDirs);

describe('cdk-nag', () => {
  it('leaves no unacknowledged AwsSolutions finding', () => {
    const findings = nagFindings(synthesized.app);
    expect(findings, findings.join('\n')).toEqual([]);
  });

  it('leaves none either without a frontend build (no BucketDeployment)', () => {
    const bare = synthProduct({ frontendDist: null, context: { 'aws:cdk:bundling-stacks': [] } });
    expect(bare.template.findResources('Custom::CDKBucketDeployment')).toEqual({});
    const findings = nagFindings(bare.app);
    expect(findings, findings.join('\n')).toEqual([]);
  });
});

describe('data', () => {
  it('is one on-demand table with pk/sk, gsi1 and gsi2 projecting all, TTL on expiresAt and PITR', () => {
    const [, table] = only('AWS::DynamoDB::Table');
    expect(table.Properties).toMatchObject({
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      BillingMode: 'PAY_PER_REQUEST',
      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
    });
    const indexes = (table.Properties.GlobalSecondaryIndexes as any[]).map((i) => ({
      name: i.IndexName,
      keys: i.KeySchema,
      projection: i.Projection.ProjectionType,
    }));
    expect(indexes).toEqual([
      { name: 'gsi1', keys: [{ AttributeName: 'gsi1pk', KeyType: 'HASH' }, { AttributeName: 'gsi1sk', KeyType: 'RANGE' }], projection: 'ALL' },
      { name: 'gsi2', keys: [{ AttributeName: 'gsi2pk', KeyType: 'HASH' }, { AttributeName: 'gsi2sk', KeyType: 'RANGE' }], projection: 'ALL' },
    ]);
    const attributes = (table.Properties.AttributeDefinitions as any[]).map((a) => `${a.AttributeName}:${a.AttributeType}`).sort();
    expect(attributes).toEqual(['gsi1pk:S', 'gsi1sk:S', 'gsi2pk:S', 'gsi2sk:S', 'pk:S', 'sk:S']);
  });

  it('keeps the table when the stack is deleted', () => {
    template.hasResource('AWS::DynamoDB::Table', { DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
  });
});

describe('auth', () => {
  it('lets customers sign up themselves, confirming their email with a code', () => {
    const [, pool] = only('AWS::Cognito::UserPool');
    expect(pool.Properties).toMatchObject({
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: false },
      AutoVerifiedAttributes: ['email'],
      UsernameAttributes: ['email'],
      VerificationMessageTemplate: {
        DefaultEmailOption: 'CONFIRM_WITH_CODE',
        EmailSubject: 'Your Rampart verification code',
        EmailMessage: expect.stringContaining('{####}'),
      },
    });
  });

  it("sends its emails through SES from MAIL_FROM: the sender's domain identity and the mail configuration set, created before the pool", () => {
    // Prepare
    const [poolId, pool] = only('AWS::Cognito::UserPool');
    const [identityId] = only('AWS::SES::EmailIdentity');
    const [configSetId] = only('AWS::SES::ConfigurationSet');

    // Assess
    expect(pool.Properties.EmailConfiguration).toEqual({
      EmailSendingAccount: 'DEVELOPER',
      From: 'Rampart <no-reply@mail.rampart-test.com>',
      SourceArn: {
        'Fn::Join': ['', ['arn:aws:ses:ap-southeast-2:', { Ref: 'AWS::AccountId' }, ':identity/mail.rampart-test.com']],
      },
      ConfigurationSet: { Ref: configSetId },
    });
    expect((resources[poolId] as { DependsOn?: string[] }).DependsOn).toContain(identityId);
  });

  it("keeps Cognito's default sender with userPoolEmail=cognito (a first deploy, before the domain verifies)", () => {
    // Act
    const bare = synthProduct({ frontendDist: null, env: { USER_POOL_EMAIL: 'cognito' }, context: { 'aws:cdk:bundling-stacks': [] } });

    // Assess
    const pools = Object.values(bare.template.findResources('AWS::Cognito::UserPool')) as { Properties: Record<string, unknown>; DependsOn?: string[] }[];
    expect(pools).toHaveLength(1);
    expect(pools[0]!.Properties.EmailConfiguration).toBeUndefined();
    expect(pools[0]!.DependsOn).toBeUndefined();
  });

  it('enforces the one password policy of lambdas/domain/password-policy.ts', () => {
    const [, pool] = only('AWS::Cognito::UserPool');
    expect(pool.Properties.Policies.PasswordPolicy).toEqual({
      MinimumLength: PASSWORD_POLICY.minLength,
      RequireLowercase: PASSWORD_POLICY.requireLowercase,
      RequireUppercase: PASSWORD_POLICY.requireUppercase,
      RequireNumbers: PASSWORD_POLICY.requireDigits,
      RequireSymbols: PASSWORD_POLICY.requireSymbols,
      TemporaryPasswordValidityDays: 3,
    });
  });
});

describe('functions', () => {
  it('are one per area and worker (lambdas/routes.ts), Node 22 on ARM64 with active tracing, source maps and their own log group', () => {
    const fns = projectFunctions();
    expect(fns).toHaveLength(Object.keys(apiFunctions).length + Object.keys(workerFunctions).length);
    for (const [id, fn] of fns) {
      expect({ id, ...fn.Properties }).toMatchObject({
        id,
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        Handler: expect.stringMatching(/^[a-z0-9-]+\.handler$/),
        TracingConfig: { Mode: 'Active' },
        LoggingConfig: { LogGroup: { Ref: expect.any(String) } },
      });
      expect(envOf(id)).toMatchObject({
        NODE_OPTIONS: '--enable-source-maps',
        PRODUCT_NAME: 'Rampart',
        LOG_LEVEL: 'INFO',
        SITE_URL: expect.anything(),
      });
      const logGroup = resources[fn.Properties.LoggingConfig.LogGroup.Ref]!;
      expect(logGroup.Properties.RetentionInDays).toBe(30);
    }
  });

  it('are bundled by esbuild as ESM with source maps: the entry and only the chunks it can reach', () => {
    for (const [id, fn] of projectFunctions()) {
      const bundle = path.join(synthesized.app.outdir, `asset.${(fn.Properties.Code.S3Key as string).replace(/\.zip$/, '')}`);
      const entryFile = `${(fn.Properties.Handler as string).replace(/\.handler$/, '')}.mjs`;
      const code = readFileSync(path.join(bundle, entryFile), 'utf8');
      expect(code.startsWith("import { createRequire as __rampartCreateRequire } from 'node:module';"), id).toBe(true);
      expect(code, id).toMatch(/\bexport\s*\{[^}]*\bhandler\b/);
      expect(code, id).toMatch(new RegExp(`//# sourceMappingURL=${entryFile.replace('.', '\\.')}\\.map\\s*$`));
      expect(existsSync(path.join(bundle, `${entryFile}.map`)), id).toBe(true);
    }
  });
});

describe('api', () => {
  const routeTarget = (route: Record<string, any>) => {
    const integrationId = (route.Target['Fn::Join'][1] as unknown[])[1] as { Ref: string };
    const integration = resources[integrationId.Ref]!;
    // The integration invokes the function's alias `live` (lib/api/releases.ts); the alias names its function.
    const uri = integration.Properties.IntegrationUri as { Ref: string };
    return resources[uri.Ref]!.Properties.FunctionName.Ref as string;
  };

  it('has exactly the routes of the manifest', () => {
    const synthesizedKeys = ofType('AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties.RouteKey).sort();
    expect(synthesizedKeys).toEqual(routes.map((r) => `${r.method} ${r.path}`).sort());
  });

  it('puts the JWT authorizer on user routes and no authorizer elsewhere', () => {
    const [authorizerId, authorizer] = only('AWS::ApiGatewayV2::Authorizer');
    expect(authorizer.Properties.AuthorizerType).toBe('JWT');
    const byKey = new Map(ofType('AWS::ApiGatewayV2::Route').map(([, r]) => [r.Properties.RouteKey as string, r.Properties]));
    for (const route of routes) {
      const synthesizedRoute = byKey.get(`${route.method} ${route.path}`)!;
      if (route.auth === 'user') {
        expect(synthesizedRoute).toMatchObject({ AuthorizationType: 'JWT', AuthorizerId: { Ref: authorizerId } });
      } else {
        expect(synthesizedRoute.AuthorizationType).toBe('NONE');
        expect(synthesizedRoute.AuthorizerId).toBeUndefined();
      }
    }
  });

  it('routes each entry to the function of its area, which gets the environment of what its routes use, and nothing else', () => {
    const byKey = new Map(ofType('AWS::ApiGatewayV2::Route').map(([, r]) => [r.Properties.RouteKey as string, r.Properties]));
    const targets = new Map<string, Set<string>>();
    for (const route of routes) {
      const fnId = routeTarget(byKey.get(`${route.method} ${route.path}`)!);
      expect(fnId, route.name).toBe(functionId(`Api${pascal(route.fn)}Fn`));
      targets.set(route.fn, (targets.get(route.fn) ?? new Set()).add(fnId));
    }
    expect([...targets.keys()].sort()).toEqual(Object.keys(apiFunctions).sort());
    for (const [fn, ids] of targets) {
      expect(ids.size, fn).toBe(1);
      const env = Object.keys(envOf([...ids][0]!));
      const uses = usesOf(fn as ApiFunctionName);
      for (const resource of uses) expect(env, `${fn} uses ${resource}`).toEqual(expect.arrayContaining([...resourceKeys[resource]]));
      // An optional-token route holds the pool's ids without using the pool (next test).
      const allowed: readonly string[] = routesOf(fn as ApiFunctionName).some((route) => route.optionalAuth) ? tokenVerificationKeys : [];
      for (const resource of (Object.keys(resourceKeys) as (keyof typeof resourceKeys)[]).filter((r) => !uses.includes(r))) {
        for (const key of resourceKeys[resource]) if (!allowed.includes(key)) expect(env, `${fn} does not use ${resource}`).not.toContain(key);
      }
    }
  });

  it('grants no function anything none of its routes (or, for a worker, its declaration) uses', () => {
    // The resource each granted action belongs to (lib/constructs/bindings.ts); X-Ray and logs belong to every function.
    const resourceOf = (action: string): string | undefined => {
      if (action.startsWith('dynamodb:')) return 'table';
      if (action === 'sqs:SendMessage') return 'scanQueue';
      // Sending and consuming both read the queue's attributes and URL.
      if (action === 'sqs:GetQueueAttributes' || action === 'sqs:GetQueueUrl') return 'scanQueue:read';
      // The scan worker's event source: receive, delete, change visibility.
      if (action.startsWith('sqs:')) return 'scanQueue:consume';
      if (action.startsWith('ses:')) return 'mailer';
      if (action.startsWith('sns:')) return 'sms';
      if (action.startsWith('s3:')) return 'reports';
      if (action.startsWith('cognito-idp:')) return 'userPool';
      if (action.startsWith('ssm:')) return 'secrets';
      if (action.startsWith('xray:') || action.startsWith('logs:')) return undefined;
      return `unknown ${action}`;
    };
    const grantedTo = (fnId: string) => {
      const roleId = resources[fnId]!.Properties.Role['Fn::GetAtt'][0] as string;
      const statements = ofType('AWS::IAM::Policy')
        .filter(([, p]) => (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === roleId))
        .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as { Effect: string; Action: string | string[] }[])
        .filter((st) => st.Effect === 'Allow');
      const granted = new Set(statements.flatMap((st) => [st.Action].flat()).map(resourceOf).filter((r): r is string => r !== undefined));
      if (granted.delete('scanQueue:read') && !granted.has('scanQueue') && !granted.has('scanQueue:consume')) granted.add('scanQueue:read');
      return granted;
    };
    // Stripe's keys come from SSM only with stripeParameterPath (not set here): payments grants nothing by itself.
    const expected = (uses: readonly string[]) => new Set(uses.filter((use) => use !== 'payments'));
    for (const fn of Object.keys(apiFunctions) as ApiFunctionName[]) {
      expect([...grantedTo(functionId(`Api${pascal(fn)}Fn`))].sort(), fn).toEqual([...expected(usesOf(fn))].sort());
    }
    const workerIds: Record<keyof typeof workerFunctions, string> = {
      'scan-worker': 'ScanningScanWorker',
      sweeper: 'ScheduleSweeper',
      'monitoring-scheduler': 'ScheduleMonitoringScheduler',
      'monitoring-fanout': 'MonitoringFanoutWorker',
    };
    // Sending to the fan-out queue is sqs:SendMessage as to the scan queues; which queue each may send to: test/infra/monitoring-fanout.test.ts.
    const asGranted = (uses: readonly string[]) => uses.map((use) => (use === 'fanoutQueue' ? 'scanQueue' : use));
    for (const [name, prefix] of Object.entries(workerIds) as [keyof typeof workerFunctions, string][]) {
      const consumes = name === 'scan-worker' || name === 'monitoring-fanout' ? ['scanQueue:consume'] : [];
      expect([...grantedTo(functionId(prefix))].sort(), name).toEqual([...expected(asGranted([...workerFunctions[name].uses, ...consumes]))].sort());
    }
  });

  it("gives the public optionalAuth routes' function the pool's ids to verify a token with, and no authorizer on those routes", () => {
    // Prepare
    const byKey = new Map(ofType('AWS::ApiGatewayV2::Route').map(([, r]) => [r.Properties.RouteKey as string, r.Properties]));
    const optional = (routes as readonly RouteDefinition[]).filter((route) => route.optionalAuth);
    const [pool] = only('AWS::Cognito::UserPool');
    const [client] = only('AWS::Cognito::UserPoolClient');

    // Assess
    expect(optional.map((route) => route.name).sort()).toEqual(['create-lead', 'create-share', 'email-audit', 'get-audit']);
    for (const route of optional) {
      const synthesized = byKey.get(`${route.method} ${route.path}`)!;
      expect(route.auth).toBe('public');
      expect([synthesized.AuthorizationType, synthesized.AuthorizerId]).toEqual(['NONE', undefined]);
      expect(envOf(routeTarget(synthesized))).toMatchObject({ USER_POOL_ID: { Ref: pool }, USER_POOL_CLIENT_ID: { Ref: client } });
    }
    // A function with neither an optional-token route nor the pool gets neither id.
    expect(Object.keys(envOf(functionId('ApiBadgeFn')))).not.toEqual(expect.arrayContaining(['USER_POOL_ID']));
  });

  it('lets the account function delete Cognito users, and the badge function no Cognito call and no write', () => {
    const actionsOf = (fnId: string) => {
      const roleId = resources[fnId]!.Properties.Role['Fn::GetAtt'][0] as string;
      return ofType('AWS::IAM::Policy')
        .filter(([, p]) => (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === roleId))
        .flatMap(([, p]) => (p.Properties.PolicyDocument.Statement as { Action: string | string[] }[]).flatMap((st) => st.Action));
    };
    expect(actionsOf(functionId('ApiAccountFn'))).toContain('cognito-idp:AdminDeleteUser');
    expect(actionsOf(functionId('ApiBadgeFn')).filter((a) => a.startsWith('cognito-idp:'))).toEqual([]);
  });

  it('gives every API function the origin secret as a deploy-time reference to one generated secret, never a value', () => {
    // Prepare
    const [secretId, secret] = only('AWS::SecretsManager::Secret');
    const reference = { 'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: secretId }, ':SecretString:::}}']] };
    const byKey = new Map(ofType('AWS::ApiGatewayV2::Route').map(([, r]) => [r.Properties.RouteKey as string, r.Properties]));

    // Assess: generated by Secrets Manager at deploy time, so no value is in the template.
    expect(secret.Properties.SecretString).toBeUndefined();
    expect(secret.Properties.GenerateSecretString).toMatchObject({ PasswordLength: 64, ExcludePunctuation: true });
    expect(ORIGIN_VERIFY_KEY).toBe('ORIGIN_VERIFY_SECRET');
    for (const route of routes) {
      expect(envOf(routeTarget(byKey.get(`${route.method} ${route.path}`)!))[ORIGIN_VERIFY_KEY], route.name).toEqual(reference);
    }
    // The worker and the scheduled functions take no HTTP requests and get no secret.
    for (const prefix of ['ScanningScanWorker', 'ScheduleSweeper', 'ScheduleMonitoringScheduler']) {
      expect(envOf(functionId(prefix))[ORIGIN_VERIFY_KEY], prefix).toBeUndefined();
    }
  });

  it('updates the API functions only after the distribution, so CloudFront sends the header before they require it', () => {
    const [distributionId] = only('AWS::CloudFront::Distribution');
    const byKey = new Map(ofType('AWS::ApiGatewayV2::Route').map(([, r]) => [r.Properties.RouteKey as string, r.Properties]));
    for (const route of routes) {
      const fn = resources[routeTarget(byKey.get(`${route.method} ${route.path}`)!)] as { DependsOn?: string[] };
      expect(fn.DependsOn, route.name).toContain(distributionId);
    }
  });

  it('logs access as JSON and throttles the default stage', () => {
    const [, stage] = only('AWS::ApiGatewayV2::Stage');
    expect(stage.Properties).toMatchObject({
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: API_THROTTLE.rateLimit, ThrottlingBurstLimit: API_THROTTLE.burstLimit },
      AccessLogSettings: { DestinationArn: expect.anything() },
    });
    expect(JSON.parse(stage.Properties.AccessLogSettings.Format)).toMatchObject({ requestId: '$context.requestId', status: '$context.status' });
  });

  it('has no CORS configuration (same origin through CloudFront)', () => {
    const [, api] = only('AWS::ApiGatewayV2::Api');
    expect(api.Properties.CorsConfiguration).toBeUndefined();
  });
});

describe('scanning', () => {
  it('redrives scan jobs to a dead-letter queue after three receives, TLS only', () => {
    const queues = ofType('AWS::SQS::Queue');
    const [, main] = queues.find(([, q]) => q.Properties.RedrivePolicy)!;
    const [dlqId] = queues.find(([, q]) => !q.Properties.RedrivePolicy)!;
    expect(main.Properties.RedrivePolicy).toEqual({
      deadLetterTargetArn: { 'Fn::GetAtt': [dlqId, 'Arn'] },
      maxReceiveCount: SCAN_MAX_RECEIVE_COUNT,
    });
    expect(SCAN_MAX_RECEIVE_COUNT).toBe(3);
    for (const [id] of queues) {
      template.hasResourceProperties('AWS::SQS::QueuePolicy', {
        Queues: [{ Ref: id }],
        PolicyDocument: {
          Statement: Match.arrayWith([
            Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
          ]),
        },
      });
    }
  });

  it('hides a job for at least six times the worker timeout', () => {
    const workerId = functionId('ScanningScanWorker');
    const [, main] = ofType('AWS::SQS::Queue').find(([, q]) => q.Properties.RedrivePolicy)!;
    const timeout = resources[workerId]!.Properties.Timeout as number;
    expect(timeout).toBe(SCAN_WORKER_TIMEOUT.toSeconds());
    expect(main.Properties.VisibilityTimeout).toBeGreaterThanOrEqual(6 * timeout);
  });

  it('feeds the worker one scan at a time from each queue and takes partial batch failures', () => {
    const workerId = functionId('ScanningScanWorker');
    // The monitoring-fanout worker's mapping is its own (test/infra/monitoring-fanout.test.ts).
    const mappings = ofType('AWS::Lambda::EventSourceMapping').filter(([, m]) => m.Properties.FunctionName.Ref !== functionId('MonitoringFanoutWorker'));
    expect(mappings).toHaveLength(3);
    for (const [, mapping] of mappings) {
      expect(mapping.Properties).toMatchObject({
        FunctionName: { Ref: workerId },
        BatchSize: 1,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
      });
    }
    expect(SCAN_BATCH_SIZE).toBe(1);
  });

  it('binds the worker to the table, the mailer and SMS (a monitoring rescan alerts)', () => {
    const env = envOf(functionId('ScanningScanWorker'));
    expect(Object.keys(env)).toEqual(expect.arrayContaining([...resourceKeys.table, ...resourceKeys.mailer, 'SES_CONFIGURATION_SET']));
    expect(env.REPORTS_BUCKET).toBeUndefined();
    expect(env.SMS_MODE).toBe('sns');
    expect(env.SCAN_QUEUE_URL).toBeUndefined();
  });
});

describe('schedule and alarms', () => {
  const ruleTargeting = (fnId: string) => {
    const rules = ofType('AWS::Events::Rule').filter(([, r]) => JSON.stringify(r.Properties.Targets[0].Arn) === JSON.stringify({ 'Fn::GetAtt': [fnId, 'Arn'] }));
    expect(rules).toHaveLength(1);
    return rules[0]![1];
  };

  it('runs the sweeper every five minutes with the table, the mailer and SMS (the notification outbox)', () => {
    const sweeperId = functionId('ScheduleSweeper');
    expect(ofType('AWS::Events::Rule').filter(([id]) => !id.startsWith('SiteAssetRetention'))).toHaveLength(3);
    expect(ruleTargeting(sweeperId).Properties.ScheduleExpression).toBe('rate(5 minutes)');
    expect(Object.keys(envOf(sweeperId))).toEqual(expect.arrayContaining([...resourceKeys.table, ...resourceKeys.mailer, 'SMS_MODE']));
  });

  it('runs the monitoring scheduler every fifteen minutes with the table, the queue, the mailer, SMS and the reports bucket (monthly reports)', () => {
    const schedulerId = functionId('ScheduleMonitoringScheduler');
    // Issue 30 item 3: the quarter-hour jobs and the monthly reports on rules of their own, each naming its jobs.
    const rules = ofType('AWS::Events::Rule').filter(([, r]) => JSON.stringify(r.Properties.Targets[0].Arn) === JSON.stringify({ 'Fn::GetAtt': [schedulerId, 'Arn'] }));
    const byInput = Object.fromEntries(rules.map(([, r]) => [r.Properties.Targets[0].Input, r.Properties.ScheduleExpression]));
    expect(byInput).toEqual({
      [JSON.stringify({ jobs: ['rescans', 'alerts', 'kev'] })]: 'rate(15 minutes)',
      [JSON.stringify({ jobs: ['monthly-reports'] })]: 'cron(0/15 * 1-3 * ? *)',
    });
    for (const [, rule] of rules) expect(rule.Properties.Targets[0].RetryPolicy).toMatchObject({ MaximumRetryAttempts: 0 });
    const env = envOf(schedulerId);
    expect(Object.keys(env)).toEqual(expect.arrayContaining([...resourceKeys.table, ...resourceKeys.scanQueue, ...resourceKeys.mailer, ...resourceKeys.reports, 'SES_CONFIGURATION_SET']));
    expect(env.SMS_MODE).toBe('sns');
  });

  it('alarms as soon as one job is in any of the dead-letter queues (one per scan queue, and the monitoring fan-out\'s)', () => {
    const dlqIds = ofType('AWS::SQS::Queue')
      .filter(([, q]) => !q.Properties.RedrivePolicy)
      .map(([id]) => id);
    expect(dlqIds).toHaveLength(4);
    expect(dlqIds.filter((id) => id.startsWith('MonitoringFanout'))).toHaveLength(1);
    const alarms = ofType('AWS::CloudWatch::Alarm').filter(([, a]) => a.Properties.MetricName === 'ApproximateNumberOfMessagesVisible');
    expect(alarms).toHaveLength(4);
    for (const dlqId of dlqIds) {
      const found = alarms.filter(([, a]) => a.Properties.Dimensions?.[0]?.Value?.['Fn::GetAtt']?.[0] === dlqId);
      expect(found, dlqId).toHaveLength(1);
      expect(found[0]![1].Properties).toMatchObject({
        MetricName: 'ApproximateNumberOfMessagesVisible',
        Namespace: 'AWS/SQS',
        Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [dlqId, 'QueueName'] } }],
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        AlarmActions: [{ Ref: expect.any(String) }],
      });
    }
  });
});

describe('storage and mail', () => {
  it('keeps report PDFs private, TLS-only, encrypted, logged, for 365 days', () => {
    const [reportsId, reports] = ofType('AWS::S3::Bucket').find(([id]) => id.startsWith('StorageReports'))!;
    expect(reports.Properties).toMatchObject({
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
      LoggingConfiguration: { DestinationBucketName: expect.anything() },
      LifecycleConfiguration: { Rules: [expect.objectContaining({ ExpirationInDays: 365, Status: 'Enabled' })] },
    });
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: reportsId },
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
    });
  });

  it('has an SES domain identity for the sender and a configuration set', () => {
    const [, identity] = only('AWS::SES::EmailIdentity');
    const [configSetId] = only('AWS::SES::ConfigurationSet');
    expect(identity.Properties).toMatchObject({ EmailIdentity: 'mail.rampart-test.com', ConfigurationSetAttributes: { ConfigurationSetName: { Ref: configSetId } } });
  });
});

describe('site', () => {
  const distribution = () => only('AWS::CloudFront::Distribution')[1].Properties.DistributionConfig;
  const siteHeadersPolicy = () =>
    ofType('AWS::CloudFront::ResponseHeadersPolicy').find(([id]) => id.startsWith('SiteSiteHeaders'))![1].Properties.ResponseHeadersPolicyConfig;

  /** Reads the policy back into a header table, the shape of lib/site/security-headers.ts. */
  function headersFromPolicy(config: Record<string, any>): Record<string, string> {
    const security = config.SecurityHeadersConfig ?? {};
    const headers: Record<string, string> = {};
    if (security.ContentSecurityPolicy) headers['content-security-policy'] = security.ContentSecurityPolicy.ContentSecurityPolicy;
    if (security.StrictTransportSecurity) {
      const hsts = security.StrictTransportSecurity;
      headers['strict-transport-security'] = [`max-age=${hsts.AccessControlMaxAgeSec}`, hsts.IncludeSubdomains && 'includeSubDomains', hsts.Preload && 'preload']
        .filter(Boolean)
        .join('; ');
    }
    if (security.ContentTypeOptions) headers['x-content-type-options'] = 'nosniff';
    if (security.FrameOptions) headers['x-frame-options'] = security.FrameOptions.FrameOption;
    if (security.ReferrerPolicy) headers['referrer-policy'] = security.ReferrerPolicy.ReferrerPolicy;
    for (const item of config.CustomHeadersConfig?.Items ?? []) headers[item.Header] = item.Value;
    return headers;
  }
  const normalizeHsts = (headers: Record<string, string>) => ({
    ...headers,
    'strict-transport-security': (headers['strict-transport-security'] ?? '').split(';').map((d) => d.trim().toLowerCase()).sort().join(';'),
  });

  it('sends exactly the security headers of lib/site/security-headers.ts, overriding the origin', () => {
    const config = siteHeadersPolicy();
    expect(normalizeHsts(headersFromPolicy(config))).toEqual(normalizeHsts({ ...siteSecurityHeaders }));
    expect(config.SecurityHeadersConfig.StrictTransportSecurity.AccessControlMaxAgeSec).toBe(HSTS_MAX_AGE_SECONDS);
    const overrides = [
      ...Object.values(config.SecurityHeadersConfig as Record<string, { Override: boolean }>).map((h) => h.Override),
      ...(config.CustomHeadersConfig?.Items ?? []).map((h: { Override: boolean }) => h.Override),
    ];
    expect(overrides.every(Boolean)).toBe(true);
  });

  it('serves the Wazuh tester page alone with connect-src https: (the user’s own manager), like the rest of the site otherwise', () => {
    const config = distribution();
    const [policyId, policy] = ofType('AWS::CloudFront::ResponseHeadersPolicy').find(([id]) => id.startsWith('SiteWazuhTestHeaders'))!;
    expect(normalizeHsts(headersFromPolicy(policy.Properties.ResponseHeadersPolicyConfig))).toEqual(normalizeHsts({ ...wazuhTestSecurityHeaders }));
    expect(wazuhTestSecurityHeaders['content-security-policy']).toContain("connect-src 'self' https:;");
    expect(siteSecurityHeaders['content-security-policy']).not.toMatch(/connect-src[^;]* https:(;|\s|$)/);
    for (const path of WAZUH_TEST_PAGE_PATHS) {
      const behavior = (config.CacheBehaviors as any[]).find((b) => b.PathPattern === path);
      expect(behavior).toMatchObject({
        ResponseHeadersPolicyId: { Ref: policyId },
        TargetOriginId: config.DefaultCacheBehavior.TargetOriginId,
        CachePolicyId: config.DefaultCacheBehavior.CachePolicyId,
        ViewerProtocolPolicy: 'redirect-to-https',
        FunctionAssociations: config.DefaultCacheBehavior.FunctionAssociations,
      });
    }
  });

  it('serves the bucket through origin access control with index.html as root and no error-page rewriting', () => {
    only('AWS::CloudFront::OriginAccessControl');
    const config = distribution();
    expect(config.DefaultRootObject).toBe('index.html');
    expect(config.CustomErrorResponses).toBeUndefined();
    const s3Origin = (config.Origins as any[]).find((o) => o.S3OriginConfig);
    expect(s3Origin.OriginAccessControlId).toBeDefined();
    expect(config.DefaultCacheBehavior.ViewerProtocolPolicy).toBe('redirect-to-https');
  });

  it('sends /api/* to the HTTP API uncached with all viewer headers but Host', () => {
    const config = distribution();
    const apiOrigin = (config.Origins as any[]).find((o) => o.CustomOriginConfig);
    expect(apiOrigin.CustomOriginConfig).toMatchObject({ OriginProtocolPolicy: 'https-only', OriginSSLProtocols: ['TLSv1.2'] });
    const all = config.CacheBehaviors as any[];
    expect(all.map((b) => b.PathPattern).sort()).toEqual(['/agents/*', '/api/*', '/api/badges/*', '/badge/*', '/reports/*.pdf', '/wazuh-test', '/wazuh-test/']);
    const api = all.find((b) => b.PathPattern === '/api/*');
    expect(api).toMatchObject({
      TargetOriginId: apiOrigin.Id,
      CachePolicyId: CACHING_DISABLED,
      OriginRequestPolicyId: ALL_VIEWER_EXCEPT_HOST_HEADER,
      AllowedMethods: expect.arrayContaining(['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE']),
      ViewerProtocolPolicy: 'https-only',
    });
    expect(api.FunctionAssociations).toBeUndefined();
    // The agent installers (issue 10): signed-in downloads, so like the API in every way.
    const { PathPattern: _agentsPattern, ...agents } = all.find((b) => b.PathPattern === '/agents/*');
    const { PathPattern: _apiPattern, ...apiRest } = api;
    expect(agents).toEqual(apiRest);
  });

  it('adds x-origin-verify with the secret’s deploy-time reference on the API origin, the origin of every API behaviour', () => {
    // Prepare
    const config = distribution();
    const [secretId] = only('AWS::SecretsManager::Secret');
    const customOrigins = (config.Origins as any[]).filter((o) => o.CustomOriginConfig);

    // Assess
    expect(customOrigins).toHaveLength(1);
    const [apiOrigin] = customOrigins;
    expect(apiOrigin.OriginCustomHeaders).toEqual([
      { HeaderName: ORIGIN_VERIFY_HEADER, HeaderValue: { 'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: secretId }, ':SecretString:::}}']] } },
    ]);
    // /api/* (webhooks, agents' reports, the public API included), /badge/*, /agents/* and the PDF rewrite.
    const apiBehaviors = (config.CacheBehaviors as any[]).filter((b) => b.TargetOriginId === apiOrigin.Id).map((b) => b.PathPattern).sort();
    expect(apiBehaviors).toEqual(['/agents/*', '/api/*', '/api/badges/*', '/badge/*', '/reports/*.pdf']);
  });

  it('sends /badge/* to the HTTP API cached five minutes per theme, size and style, GET and HEAD only, nothing of the viewer forwarded', () => {
    const config = distribution();
    const apiOrigin = (config.Origins as any[]).find((o) => o.CustomOriginConfig);
    const badge = (config.CacheBehaviors as any[]).find((b) => b.PathPattern === '/badge/*');
    expect(badge).toMatchObject({ TargetOriginId: apiOrigin.Id, AllowedMethods: ['GET', 'HEAD'], ViewerProtocolPolicy: 'https-only' });
    expect(badge.OriginRequestPolicyId).toBeUndefined();
    expect(badge.FunctionAssociations).toBeUndefined();
    const policy = cachePolicyOf(badge);
    expect(policy.Properties.CachePolicyConfig).toMatchObject({
      MinTTL: 0,
      DefaultTTL: 300,
      MaxTTL: 300,
      ParametersInCacheKeyAndForwardedToOrigin: {
        QueryStringsConfig: { QueryStringBehavior: 'whitelist', QueryStrings: ['theme', 'size', 'style'] },
        HeadersConfig: { HeaderBehavior: 'none' },
        CookiesConfig: { CookieBehavior: 'none' },
      },
    });
  });

  it('caches /api/badges/* (the /verify page’s data) five minutes per path, GET and HEAD only, nothing of the viewer forwarded, matched before /api/*', () => {
    // Prepare
    const config = distribution();
    const apiOrigin = (config.Origins as any[]).find((o) => o.CustomOriginConfig);
    const behaviors = config.CacheBehaviors as any[];

    // Act
    const status = behaviors.find((b) => b.PathPattern === '/api/badges/*');

    // Assess
    expect(status).toMatchObject({ TargetOriginId: apiOrigin.Id, AllowedMethods: ['GET', 'HEAD'], ViewerProtocolPolicy: 'https-only' });
    expect(status.OriginRequestPolicyId).toBeUndefined();
    expect(behaviors.findIndex((b) => b.PathPattern === '/api/badges/*')).toBeLessThan(behaviors.findIndex((b) => b.PathPattern === '/api/*'));
    expect(cachePolicyOf(status).Properties.CachePolicyConfig).toMatchObject({
      MinTTL: 0,
      DefaultTTL: 300,
      MaxTTL: 300,
      ParametersInCacheKeyAndForwardedToOrigin: {
        QueryStringsConfig: { QueryStringBehavior: 'none' },
        HeadersConfig: { HeaderBehavior: 'none' },
        CookiesConfig: { CookieBehavior: 'none' },
      },
    });
  });

  it('sends /reports/{id}.pdf to the API through the rewrite function, GET and HEAD only', () => {
    const config = distribution();
    const apiOrigin = (config.Origins as any[]).find((o) => o.CustomOriginConfig);
    const pdf = (config.CacheBehaviors as any[]).find((b) => b.PathPattern === '/reports/*.pdf');
    expect(pdf).toMatchObject({ TargetOriginId: apiOrigin.Id, CachePolicyId: CACHING_DISABLED, AllowedMethods: ['GET', 'HEAD'] });
    const [rewriteId] = Object.entries(template.findResources('AWS::CloudFront::Function')).find(([, fn]) =>
      String((fn as any).Properties.FunctionCode).includes('/report.pdf'),
    )!;
    expect(pdf.FunctionAssociations).toEqual([{ EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [rewriteId, 'FunctionARN'] } }]);
  });

  it('runs the viewer-request function, built from every bot marker, on the default behaviour', () => {
    const [functionId, fn] = Object.entries(template.findResources('AWS::CloudFront::Function')).find(([, f]) =>
      String((f as any).Properties.FunctionCode).includes('BOT_MARKERS'),
    )! as [string, any];
    expect(fn.Properties.FunctionConfig.Runtime).toBe('cloudfront-js-2.0');
    for (const marker of BOT_MARKERS) expect(fn.Properties.FunctionCode).toContain(JSON.stringify(marker));
    expect(distribution().DefaultCacheBehavior.FunctionAssociations).toEqual([
      { EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [functionId, 'FunctionARN'] } },
    ]);
  });

  it('uploads the frontend build: hashed assets immutable, pages revalidated and invalidated', () => {
    const deployments = ofType('Custom::CDKBucketDeployment').map(([, d]) => d.Properties);
    expect(deployments).toHaveLength(2);
    const assets = deployments.find((d) => d.Include)!;
    const pages = deployments.find((d) => !d.Include)!;
    expect(assets.SystemMetadata ?? assets.UserMetadata ?? assets).toMatchObject({ 'cache-control': 'public, max-age=31536000, immutable' });
    expect(pages.SystemMetadata ?? pages).toMatchObject({ 'cache-control': 'no-cache' });
    expect(pages.DistributionPaths).toEqual(['/*']);
    // The asset cleanup's list of retired assets is not the pages' to prune (lib/site/asset-retention.ts).
    expect(pages.Exclude).toEqual(['assets/*', '_deploy/retired.json']);
  });

  it('writes /runtime-config.json with the pool and client ids resolved at deploy time', () => {
    const pages = ofType('Custom::CDKBucketDeployment').map(([, d]) => d.Properties).find((d) => !d.Include)!;
    const pool = ofType('AWS::Cognito::UserPool')[0]![0];
    const client = ofType('AWS::Cognito::UserPoolClient')[0]![0];
    // The build, the runtime configuration and the build's asset list (lib/site/asset-retention.ts).
    expect(pages.SourceObjectKeys).toHaveLength(3);
    const markers = JSON.stringify(pages.SourceMarkers);
    expect(markers).toContain(JSON.stringify({ Ref: pool }));
    expect(markers).toContain(JSON.stringify({ Ref: client }));
  });
});
