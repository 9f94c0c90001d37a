/* eslint-disable @typescript-eslint/no-explicit-any -- a synthesized template is untyped JSON; the assertions below check its shape */
import { App, Stack } from 'aws-cdk-lib';
import { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUSINESS_METRICS } from '../../lambdas/domain/metrics.port.js';
import { API_5XX_RATE_PERCENT, Alarms, SCAN_QUEUE_AGE_LIMIT, SES_BOUNCE_RATE_LIMIT, SES_COMPLAINT_RATE_LIMIT } from '../../lib/alarms/alarms.js';
import { projectFunctions } from '../../lib/alarms/project-functions.js';
import { SCAN_CONCURRENCY_DEFAULTS, SCAN_RESERVED_CONCURRENCY } from '../../lib/scanning/scanning.js';
import { SCHEDULED_RESERVED_CONCURRENCY } from '../../lib/schedule/schedule.js';
import { fakeFrontendBuild, removeTempDirs, synthProduct, type Synthesized } from './synth.js';

type Resource = { Type: string; Properties: Record<string, any>; DependsOn?: string[] };
type Resources = Record<string, Resource>;

let synthesized: Synthesized;
let resources: Resources;
let outputs: Record<string, { Value: unknown }>;

const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
const alarms = () => ofType('AWS::CloudWatch::Alarm');
/** The project's own functions: everything but CDK's BucketDeployment handler. */
const projectFunctionIds = () =>
  ofType('AWS::Lambda::Function')
    .map(([id]) => id)
    .filter((id) => !id.startsWith('CustomCDKBucketDeployment'));
const topicId = () => {
  const topics = ofType('AWS::SNS::Topic').filter(([, t]) => t.Properties.DisplayName === 'Operator alarms');
  expect(topics).toHaveLength(1);
  return topics[0]![0];
};
/** The one alarm whose single metric matches. */
const alarmOn = (match: (p: Record<string, any>) => boolean, what: string) => {
  const found = alarms().filter(([, a]) => match(a.Properties));
  expect(found, what).toHaveLength(1);
  return found[0]![1].Properties;
};
const dimension = (p: Record<string, any>, name: string) => (p.Dimensions as { Name: string; Value: unknown }[] | undefined)?.find((d) => d.Name === name)?.Value;

beforeAll(() => {
  // Prepare: one synth of the whole product (with the site, so CDK's BucketDeployment handler exists too).
  synthesized = synthProduct({ frontendDist: fakeFrontendBuild() });
  const json = synthesized.template.toJSON() as { Resources: Resources; Outputs: Record<string, { Value: unknown }> };
  resources = json.Resources;
  outputs = json.Outputs;
});

afterAll(removeTempDirs);

describe('alarms', () => {
  it('all act on the one operator topic, which the stack outputs as AlarmTopicArn', () => {
    const topic = topicId();
    expect(outputs.AlarmTopicArn?.Value).toEqual({ Ref: topic });
    expect(alarms().length).toBeGreaterThan(0);
    for (const [id, alarm] of alarms()) {
      expect(alarm.Properties.AlarmActions, id).toEqual([{ Ref: topic }]);
      expect(alarm.Properties.ComparisonOperator, id).toBe('GreaterThanOrEqualToThreshold');
      expect(alarm.Properties.TreatMissingData, id).toBe('notBreaching');
    }
  });

  it("watch every project function's errors and throttles (and no CDK handler's)", () => {
    const functions = projectFunctionIds();
    expect(functions.length).toBeGreaterThanOrEqual(4);
    for (const metricName of ['Errors', 'Throttles']) {
      const watched = alarms()
        .filter(([, a]) => a.Properties.Namespace === 'AWS/Lambda' && a.Properties.MetricName === metricName)
        .map(([, a]) => (dimension(a.Properties, 'FunctionName') as { Ref: string }).Ref);
      expect(watched.sort(), metricName).toEqual([...functions].sort());
    }
    const errors = alarmOn((p) => p.MetricName === 'Errors' && JSON.stringify(dimension(p, 'FunctionName')).includes('ScanningScanWorker'), 'the worker errors alarm');
    expect(errors).toMatchObject({ Statistic: 'Sum', Period: 300, Threshold: 1, EvaluationPeriods: 1 });
  });

  it('watch the HTTP API 5xx rate: 5xx over Count on AWS/ApiGateway by ApiId', () => {
    const [apiId] = ofType('AWS::ApiGatewayV2::Api')[0]!;
    const rate = alarmOn((p) => Array.isArray(p.Metrics) && (p.Metrics as { Label?: string }[]).some((m) => m.Label === 'API 5xx (% of requests)'), 'the API 5xx rate alarm');
    expect(rate.Threshold).toBe(API_5XX_RATE_PERCENT);
    const queries = rate.Metrics as any[];
    const expression = queries.find((q) => q.Expression);
    expect(expression.Expression).toContain('100 * errors / requests');
    expect(expression.ReturnData).not.toBe(false);
    const byId = Object.fromEntries(queries.filter((q) => q.MetricStat).map((q) => [q.Id, q.MetricStat]));
    for (const [id, metricName] of [['errors', '5xx'], ['requests', 'Count']] as const) {
      expect(byId[id]).toMatchObject({
        Metric: { Namespace: 'AWS/ApiGateway', MetricName: metricName, Dimensions: [{ Name: 'ApiId', Value: { Ref: apiId } }] },
        Stat: 'Sum',
        Period: 300,
      });
    }
  });

  it("watch each scan queue's oldest message and each dead-letter queue", () => {
    // The scan queues (the monitoring-fanout queue's dead letters alarm too: test/infra/monitoring-fanout.test.ts).
    const mains = ofType('AWS::SQS::Queue').filter(([id, q]) => q.Properties.RedrivePolicy && !id.startsWith('MonitoringFanout'));
    expect(mains).toHaveLength(3);
    for (const [mainId, main] of mains) {
      const [dlqId] = main.Properties.RedrivePolicy.deadLetterTargetArn['Fn::GetAtt'] as [string, string];
      const age = alarmOn((p) => p.MetricName === 'ApproximateAgeOfOldestMessage' && (dimension(p, 'QueueName') as any)?.['Fn::GetAtt']?.[0] === mainId, `${mainId}'s age alarm`);
      expect(age).toMatchObject({ Namespace: 'AWS/SQS', Statistic: 'Maximum', Threshold: SCAN_QUEUE_AGE_LIMIT.toSeconds() });
      const dlq = alarmOn((p) => p.MetricName === 'ApproximateNumberOfMessagesVisible' && (dimension(p, 'QueueName') as any)?.['Fn::GetAtt']?.[0] === dlqId, `${dlqId}'s dead-letter alarm`);
      expect(dlq).toMatchObject({ Namespace: 'AWS/SQS', Threshold: 1 });
    }
  });

  it('watch SES bounce and complaint rates well below the suspension rates (10%, 0.5%)', () => {
    const bounce = alarmOn((p) => p.MetricName === 'Reputation.BounceRate', 'the bounce rate alarm');
    const complaint = alarmOn((p) => p.MetricName === 'Reputation.ComplaintRate', 'the complaint rate alarm');
    expect(bounce).toMatchObject({ Namespace: 'AWS/SES', Threshold: SES_BOUNCE_RATE_LIMIT });
    expect(complaint).toMatchObject({ Namespace: 'AWS/SES', Threshold: SES_COMPLAINT_RATE_LIMIT });
    expect(SES_BOUNCE_RATE_LIMIT).toBeLessThanOrEqual(0.05);
    expect(SES_COMPLAINT_RATE_LIMIT).toBeLessThanOrEqual(0.001);
  });

  it('watch every schedule for failed invocations', () => {
    const rules = ofType('AWS::Events::Rule').map(([id]) => id);
    // The sweeper, the monitoring quarter hour and the monthly reports (issue 30 item 3), and the site's daily asset cleanup (lib/site/asset-retention.ts).
    expect(rules).toHaveLength(4);
    const watched = alarms()
      .filter(([, a]) => a.Properties.Namespace === 'AWS/Events' && a.Properties.MetricName === 'FailedInvocations')
      .map(([, a]) => (dimension(a.Properties, 'RuleName') as { Ref: string }).Ref);
    expect(watched.sort()).toEqual(rules.sort());
  });

  it('alarm on the first notification given up (NotificationsAbandoned in the Rampart namespace, this deployment)', () => {
    const abandoned = alarmOn((p) => p.MetricName === BUSINESS_METRICS.notificationsAbandoned, 'the abandoned-notification alarm');
    expect(abandoned).toMatchObject({ Namespace: 'Rampart', Statistic: 'Sum', Threshold: 1, Dimensions: [{ Name: 'service', Value: 'rampart' }] });
  });

  it('alarm on the first mail route refused by the product-wide ceiling (MailCeilingReached in the Rampart namespace, this deployment)', () => {
    const ceiling = alarmOn((p) => p.MetricName === BUSINESS_METRICS.mailCeilingReached, 'the mail ceiling alarm');
    expect(BUSINESS_METRICS.mailCeilingReached).toBe('MailCeilingReached');
    expect(ceiling).toMatchObject({ Namespace: 'Rampart', Statistic: 'Sum', Threshold: 1, Period: 300, Dimensions: [{ Name: 'service', Value: 'rampart' }] });
  });

  it('refuse a function added after the alarms were built (it would go unwatched)', () => {
    // Prepare
    const app = new App();
    const stack = new Stack(app, 'Late');
    const fn = () => ({ runtime: Runtime.NODEJS_22_X, handler: 'index.handler', code: Code.fromInline('0') });
    new LambdaFunction(stack, 'Early', fn());
    new Alarms(stack, 'Alarms', {
      serviceName: 'late',
      httpApi: new HttpApi(stack, 'Api'),
      scanQueues: [new Queue(stack, 'Queue')],
      deadLetterQueues: [new Queue(stack, 'Dlq')],
      scheduledRules: [],
    });
    new LambdaFunction(stack, 'Late', fn());

    // Act
    const synth = () => app.synth();

    // Assess
    expect(synth).toThrow(/Late\/Late was added after the alarms were built/);
  });

  it("count CDK's BucketDeployment handler out of the project's functions", () => {
    // Prepare
    const stack = new Stack(new App(), 'Deploy');
    const own = new LambdaFunction(stack, 'Own', { runtime: Runtime.NODEJS_22_X, handler: 'index.handler', code: Code.fromInline('0') });
    new BucketDeployment(stack, 'Site', { sources: [Source.data('index.html', 'hi')], destinationBucket: new Bucket(stack, 'Bucket') });

    // Act
    const found = projectFunctions(stack);

    // Assess
    expect(found).toEqual([own]);
  });
});

describe('dashboard', () => {
  it('shows the business metrics, the API, the queue, the functions and the alarms', () => {
    const dashboards = ofType('AWS::CloudWatch::Dashboard');
    expect(dashboards).toHaveLength(1);
    expect(outputs.DashboardName?.Value).toEqual({ Ref: dashboards[0]![0] });
    const body = JSON.stringify(dashboards[0]![1].Properties.DashboardBody);
    for (const name of Object.values(BUSINESS_METRICS).filter((n) => n !== BUSINESS_METRICS.checkDuration)) expect(body, name).toContain(`\\"${name}\\"`);
    // Check durations by check id: a search over the `check` dimension, one line per check.
    expect(body).toContain(`SEARCH('{Rampart,check,service} MetricName=\\\\\\"CheckDurationMs\\\\\\" service=\\\\\\"rampart\\\\\\"', 'p90', 300)`);
    for (const name of ['5xx', 'Count', 'Latency', 'ApproximateNumberOfMessagesVisible', 'ApproximateAgeOfOldestMessage', 'Errors', 'Throttles', 'Duration', 'Reputation.BounceRate', 'Bounce', 'Complaint']) {
      expect(body, name).toContain(`\\"${name}\\"`);
    }
    expect(body).toContain('alarm');
    for (const fnId of projectFunctionIds()) expect(body, fnId).toContain(fnId);
  });
});

describe('operations settings', () => {
  it('counts SES sending events in CloudWatch by configuration set (the event destination)', () => {
    const [configSetId] = ofType('AWS::SES::ConfigurationSet')[0]!;
    const destinations = ofType('AWS::SES::ConfigurationSetEventDestination');
    expect(destinations).toHaveLength(1);
    const { Properties } = destinations[0]![1];
    expect(Properties.ConfigurationSetName).toEqual({ Ref: configSetId });
    expect(Properties.EventDestination).toMatchObject({
      Enabled: true,
      CloudWatchDestination: {
        DimensionConfigurations: [{ DimensionName: 'ses:configuration-set', DimensionValueSource: 'messageTag', DefaultDimensionValue: { Ref: configSetId } }],
      },
    });
    expect(Properties.EventDestination.MatchingEventTypes).toEqual(expect.arrayContaining(['send', 'bounce', 'complaint', 'delivery', 'reject']));
  });

  it('protects the table from deletion', () => {
    const tables = ofType('AWS::DynamoDB::Table');
    expect(tables).toHaveLength(1);
    expect(tables[0]![1].Properties.DeletionProtectionEnabled).toBe(true);
  });

  it('lets SMS functions publish to phone numbers only: every sns:Publish on * comes with a Deny on all SNS ARNs', () => {
    const statementsOf = (policy: Resource) => policy.Properties.PolicyDocument.Statement as { Effect: string; Action: string | string[]; Resource: unknown }[];
    // With the stack's region given, the partition is a literal and minimizePolicies merges the Allow with X-Ray's (also on *).
    const publishes = (s: { Action: string | string[] }) => [s.Action].flat().includes('sns:Publish');
    const smsPolicies = ofType('AWS::IAM::Policy').filter(([, p]) => statementsOf(p).some((s) => publishes(s) && s.Effect === 'Allow'));
    expect(smsPolicies.length).toBeGreaterThanOrEqual(2);
    for (const [id, policy] of smsPolicies) {
      const publish = statementsOf(policy).filter(publishes);
      expect(publish.map((s) => [s.Effect, s.Resource]), id).toEqual([
        ['Allow', '*'],
        ['Deny', 'arn:aws:sns:*:*:*'],
      ]);
      expect(publish[1]!.Action, id).toBe('sns:Publish');
    }
  });

  it('reserves concurrency for the scan worker and the schedules only, so scans never take the API functions\' pool', () => {
    const reserved = Object.fromEntries(
      ofType('AWS::Lambda::Function')
        .filter(([, f]) => f.Properties.ReservedConcurrentExecutions !== undefined)
        .map(([id, f]) => [id.replace(/[0-9A-F]{8}$/, ''), f.Properties.ReservedConcurrentExecutions]),
    );
    expect(reserved).toEqual({
      ScanningScanWorker: SCAN_RESERVED_CONCURRENCY,
      ScheduleSweeper: SCHEDULED_RESERVED_CONCURRENCY,
      ScheduleMonitoringScheduler: SCHEDULED_RESERVED_CONCURRENCY,
    });
    // The SQS pollers together never invoke more than the reservation, so they are never throttled by it.
    // The scan queues' pollers (the monitoring-fanout worker reserves nothing; its maximum: test/infra/monitoring-fanout.test.ts).
    const maxima = ofType('AWS::Lambda::EventSourceMapping').filter(([, mapping]) => !String(mapping.Properties.FunctionName.Ref).startsWith('MonitoringFanoutWorker')).map(([, mapping]) => (mapping.Properties.ScalingConfig as { MaximumConcurrency: number }).MaximumConcurrency);
    expect(maxima.sort()).toEqual(Object.values(SCAN_CONCURRENCY_DEFAULTS).sort());
    expect(SCAN_RESERVED_CONCURRENCY).toBe(maxima.reduce((a, b) => a + b, 0));
  });
});
