/* eslint-disable @typescript-eslint/no-explicit-any -- a synthesized template is untyped JSON; the assertions below check its shape */
import { App, Stack } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { AwsSolutionsChecks } from 'cdk-nag';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiFunctionName, apiFunctions, type RouteDefinition, routes, tableAccessOf } from '../../lambdas/routes.js';
import { API_4XX_RATE_PERCENT, API_429_RATE_PERCENT } from '../../lib/alarms/alarms.js';
import { API_THROTTLED_METRIC } from '../../lib/api/api.js';
import { ROUTE_THROTTLES } from '../../lib/api/throttles.js';
import { ProjectFunction, XRAY_ACTIONS } from '../../lib/constructs/project-function.js';
import { removeTempDirs, synthProduct } from './synth.js';

type Resource = { Type: string; Properties: Record<string, any>; DependsOn?: string[] };
type Resources = Record<string, Resource>;
type Statement = { Sid?: string; Effect: string; Principal?: any; Action: string | string[]; Resource?: unknown; Condition?: Record<string, Record<string, unknown>> };

let resources: Resources;
const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
const actionsOf = (st: Statement) => [st.Action].flat();

beforeAll(() => {
  // Prepare: one synth of the product without bundling (the template's IAM, policies and settings are the same).
  const { template } = synthProduct({ frontendDist: null, context: { 'aws:cdk:bundling-stacks': [] } });
  resources = (template.toJSON() as { Resources: Resources }).Resources;
});

afterAll(removeTempDirs);

describe('alarm delivery (issue 30 item 1)', () => {
  /** The statements of every topic policy attached to the topic `topicId`. */
  const topicStatements = (topicId: string): Statement[] =>
    ofType('AWS::SNS::TopicPolicy')
      .filter(([, p]) => (p.Properties.Topics as unknown[]).some((t) => JSON.stringify(t) === JSON.stringify({ Ref: topicId })))
      .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as Statement[]);

  it("every alarm's SNS action is a topic whose policy lets CloudWatch publish, for this account only", () => {
    const alarms = ofType('AWS::CloudWatch::Alarm');
    expect(alarms.length).toBeGreaterThan(20);
    const targets = new Set<string>();
    for (const [id, alarm] of alarms) {
      const actions = (alarm.Properties.AlarmActions ?? []) as { Ref?: string }[];
      expect(actions.length, id).toBeGreaterThan(0);
      for (const action of actions) {
        expect(action.Ref, `${id}: an action on a topic of this stack`).toBeDefined();
        expect(resources[action.Ref!]?.Type, id).toBe('AWS::SNS::Topic');
        targets.add(action.Ref!);
      }
    }
    for (const topic of targets) {
      const allows = topicStatements(topic).filter(
        (st) => st.Effect === 'Allow' && JSON.stringify(st.Principal) === JSON.stringify({ Service: 'cloudwatch.amazonaws.com' }) && actionsOf(st).includes('sns:Publish'),
      );
      expect(allows, topic).toHaveLength(1);
      expect(allows[0]!.Resource, topic).toEqual({ Ref: topic });
      expect(allows[0]!.Condition?.StringEquals?.['aws:SourceAccount'], topic).toEqual({ Ref: 'AWS::AccountId' });
      // The stack's region is explicit (TEST_DEPLOY_ENV); the account is the deploying one.
      expect(allows[0]!.Condition?.ArnLike?.['aws:SourceArn'], topic).toEqual({
        'Fn::Join': ['', ['arn:aws:cloudwatch:ap-southeast-2:', { Ref: 'AWS::AccountId' }, ':alarm:*']],
      });
    }
  });

  it('keeps the TLS-only Deny, and no Deny that would stop CloudWatch over TLS', () => {
    const topic = ofType('AWS::SNS::Topic').find(([, t]) => t.Properties.DisplayName === 'Operator alarms')![0];
    const denies = topicStatements(topic).filter((st) => st.Effect === 'Deny');
    expect(denies).toHaveLength(1);
    expect(denies[0]!.Condition).toEqual({ Bool: { 'aws:SecureTransport': 'false' } });
  });

  it('no other service publishes to a topic of the stack: the alarm topic is the only one', () => {
    // SES events go to CloudWatch dimensions (lib/notify/notify.ts), there are no budgets or EventBridge topic targets.
    expect(ofType('AWS::SNS::Topic').map(([id]) => id)).toHaveLength(1);
    expect(ofType('AWS::Budgets::Budget')).toEqual([]);
    const eventTargets = ofType('AWS::Events::Rule').flatMap(([, r]) => (r.Properties.Targets ?? []) as { Arn: unknown }[]);
    expect(eventTargets.filter((t) => JSON.stringify(t.Arn).includes('Topic'))).toEqual([]);
    const sesDestinations = ofType('AWS::SES::ConfigurationSetEventDestination').map(([, d]) => d.Properties.EventDestination);
    expect(sesDestinations.length).toBeGreaterThan(0);
    for (const destination of sesDestinations) expect(destination.SnsDestination).toBeUndefined();
  });
});

describe('least privilege (issue 30 item 5)', () => {
  const READ = ['dynamodb:BatchGetItem', 'dynamodb:ConditionCheckItem', 'dynamodb:DescribeTable', 'dynamodb:GetItem', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator', 'dynamodb:Query', 'dynamodb:Scan'];
  const WRITE = ['dynamodb:BatchWriteItem', 'dynamodb:DeleteItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'];

  /** Every Allow statement of the policies attached to a function's role, with the policy's logical id. */
  const allowsOf = (fnId: string) => {
    const roleId = resources[fnId]!.Properties.Role['Fn::GetAtt'][0] as string;
    return ofType('AWS::IAM::Policy')
      .filter(([, p]) => (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === roleId))
      .flatMap(([policyId, p]) => (p.Properties.PolicyDocument.Statement as Statement[]).map((st) => ({ policyId, st })))
      .filter(({ st }) => st.Effect === 'Allow');
  };
  const functionIdOf = (prefix: string) => {
    const ids = ofType('AWS::Lambda::Function').map(([id]) => id).filter((id) => new RegExp(`^${prefix}[0-9A-F]{8}$`).test(id));
    expect(ids, prefix).toHaveLength(1);
    return ids[0]!;
  };
  const pascal = (name: string) => name.replace(/(^|-)([a-z0-9])/g, (_, __, c: string) => c.toUpperCase());
  const tableActionsOf = (fnId: string) => [...new Set(allowsOf(fnId).flatMap(({ st }) => actionsOf(st)).filter((a) => a.startsWith('dynamodb:')))].sort();

  it("grants each API function the table read-only exactly when the manifest says all its table routes only read", () => {
    const readOnly: string[] = [];
    for (const fn of Object.keys(apiFunctions) as ApiFunctionName[]) {
      const access = tableAccessOf(fn);
      const granted = tableActionsOf(functionIdOf(`Api${pascal(fn)}Fn`));
      if (access === undefined) expect(granted, fn).toEqual([]);
      else if (access === 'read') {
        readOnly.push(fn);
        expect(granted, fn).toEqual(READ);
      } else expect(granted, fn).toEqual([...READ, ...WRITE].sort());
    }
    // The badge alone serves only reads (its two routes); every other function has a route that writes.
    expect(readOnly).toEqual(['badge']);
    expect((routes as readonly RouteDefinition[]).filter((r) => r.tableAccess === 'read').map((r) => r.name).sort()).toEqual(['get-badge', 'get-badge-status']);
  });

  it('keeps the workers read-write (they record scans, alerts and notifications)', () => {
    for (const prefix of ['ScanningScanWorker', 'ScheduleSweeper', 'ScheduleMonitoringScheduler']) {
      expect(tableActionsOf(functionIdOf(prefix)), prefix).toEqual([...READ, ...WRITE].sort());
    }
  });

  it('gives "*" only to X-Ray (its own policy, its two actions) and SMS (its own policy, sns:Publish)', () => {
    const projectFunctions = ofType('AWS::Lambda::Function').filter(([, f]) => f.Properties.TracingConfig?.Mode === 'Active');
    expect(projectFunctions.length).toBeGreaterThanOrEqual(9);
    for (const [fnId, fn] of projectFunctions) {
      const wildcards = allowsOf(fnId).filter(({ st }) => st.Resource === '*');
      const byPolicy = new Map<string, string[]>();
      for (const { policyId, st } of wildcards) byPolicy.set(policyId, [...(byPolicy.get(policyId) ?? []), ...actionsOf(st)]);
      const xray = [...byPolicy].filter(([id]) => id.includes('XRayTracing'));
      expect(xray.map(([, actions]) => actions.sort()), fnId).toEqual([[...XRAY_ACTIONS].sort()]);
      // The function waits for its X-Ray policy (Lambda refuses active tracing without it).
      expect(fn.DependsOn, fnId).toContain(xray[0]![0]);
      const rest = [...byPolicy].filter(([id]) => !id.includes('XRayTracing'));
      for (const [policyId, actions] of rest) {
        expect(policyId, fnId).toMatch(/SmsPublish/);
        expect(actions, fnId).toEqual(['sns:Publish']);
      }
    }
  });
});

describe('the X-Ray acknowledgement covers X-Ray only (cdk-nag)', () => {
  /** A stack with one project function (no bundling), optionally with another wildcard statement. */
  const nagOf = (extra?: PolicyStatement) => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    const stack = new Stack(app, 'Probe', { env: { region: 'ap-southeast-2' } });
    const fn = new ProjectFunction(stack, 'Probe', {
      bundle: 'badge',
      defaults: { productName: 'Rampart', siteUrl: 'https://example.org', logLevel: 'INFO', serviceName: 'rampart' },
    });
    if (extra) fn.addToRolePolicy(extra);
    const report = new AwsSolutionsChecks().validateScope(app);
    return report.violations.filter((v) => v.ruleName.startsWith('AwsSolutions-IAM5')).flatMap((v) => v.violatingResources.map((r) => `${r.constructPath}`));
  };

  it('has no finding for the X-Ray policy, and one for any other Resource "*" on the function', () => {
    expect(nagOf()).toEqual([]);
    const findings = nagOf(new PolicyStatement({ actions: ['s3:ListAllMyBuckets'], resources: ['*'] }));
    expect(findings).toHaveLength(1);
    expect(findings[0]).toBe('Probe/Probe/ServiceRole/DefaultPolicy/Resource');
  });
});

describe('per-route throttles and the API alarms (issue 30 item 2)', () => {
  const stage = () => {
    const stages = ofType('AWS::ApiGatewayV2::Stage');
    expect(stages).toHaveLength(1);
    return stages[0]!;
  };

  it('gives the stage the default route throttle and every polled, agent, webhook and public-write route its own', () => {
    const [stageId, { Properties, DependsOn }] = stage();
    expect(Properties.DefaultRouteSettings).toMatchObject({ ThrottlingRateLimit: ROUTE_THROTTLES.default.rateLimit, ThrottlingBurstLimit: ROUTE_THROTTLES.default.burstLimit });
    const settings = Properties.RouteSettings as Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }>;
    const expected = (cls: keyof typeof ROUTE_THROTTLES) => ({ ThrottlingRateLimit: ROUTE_THROTTLES[cls].rateLimit, ThrottlingBurstLimit: ROUTE_THROTTLES[cls].burstLimit });
    expect(settings['POST /api/stripe/webhook']).toEqual(expected('webhook'));
    expect(settings['GET /api/audits/{auditId}']).toEqual(expected('poll'));
    for (const key of ['POST /api/agents/registrations', 'POST /api/agents/reports', 'POST /api/agents/telemetry']) expect(settings[key], key).toEqual(expected('agent'));
    expect(settings['POST /api/leads']).toEqual(expected('public-write'));
    // Every setting names a route the API has, created before the stage (else the deploy fails on an unknown route key).
    const routeKeys = new Map(ofType('AWS::ApiGatewayV2::Route').map(([id, r]) => [r.Properties.RouteKey as string, id]));
    expect(Object.keys(settings).length).toBeGreaterThanOrEqual(12);
    for (const key of Object.keys(settings)) {
      expect(routeKeys.has(key), key).toBe(true);
      expect(DependsOn ?? [], `${stageId} waits for ${key}`).toContain(routeKeys.get(key));
    }
    // Agents and the webhook are never on the default bucket, whatever the manifest adds.
    for (const route of routes as readonly RouteDefinition[]) {
      if (route.auth === 'agent' || route.auth === 'webhook') expect(settings[`${route.method} ${route.path}`], route.name).toBeDefined();
    }
  });

  it('sizes the classes to the load model: the polled audit and agents above the default, the webhook on its own', () => {
    expect(ROUTE_THROTTLES.poll.rateLimit).toBeGreaterThanOrEqual(2 * 90);
    expect(ROUTE_THROTTLES.agent.rateLimit).toBeGreaterThanOrEqual(2 * 100);
    expect(ROUTE_THROTTLES.default.rateLimit).toBeGreaterThanOrEqual(2 * 20);
    for (const t of Object.values(ROUTE_THROTTLES)) expect(t.burstLimit).toBe(2 * t.rateLimit);
  });

  it('counts 429s from the access logs by API and alarms on the 4xx and 429 shares of requests', () => {
    const [, { Properties }] = stage();
    const format = JSON.parse(Properties.AccessLogSettings.Format as string) as Record<string, string>;
    expect(format).toMatchObject({ apiId: '$context.apiId', status: '$context.status' });
    const filters = ofType('AWS::Logs::MetricFilter').filter(([, f]) => f.Properties.MetricTransformations[0].MetricName === API_THROTTLED_METRIC);
    expect(filters).toHaveLength(1);
    expect(filters[0]![1].Properties.FilterPattern).toBe('{ $.status = "429" }');
    expect(filters[0]![1].Properties.MetricTransformations[0].Dimensions).toEqual([{ Key: 'ApiId', Value: '$.apiId' }]);

    const alarmWith = (label: string) => {
      const found = ofType('AWS::CloudWatch::Alarm').filter(([, a]) => (a.Properties.Metrics as { Label?: string }[] | undefined)?.some((m) => m.Label === label));
      expect(found, label).toHaveLength(1);
      return found[0]![1].Properties;
    };
    const clientErrors = alarmWith('API 4xx (% of requests)');
    expect(clientErrors.Threshold).toBe(API_4XX_RATE_PERCENT);
    expect(clientErrors.EvaluationPeriods).toBe(2);
    expect(JSON.stringify(clientErrors.Metrics)).toContain('"MetricName":"4xx"');
    const throttled = alarmWith('API 429 (% of requests)');
    expect(throttled.Threshold).toBe(API_429_RATE_PERCENT);
    expect(JSON.stringify(throttled.Metrics)).toContain(`"MetricName":"${API_THROTTLED_METRIC}"`);
  });
});
