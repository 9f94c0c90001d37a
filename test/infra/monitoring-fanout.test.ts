/* eslint-disable @typescript-eslint/no-explicit-any -- a synthesized template is untyped JSON; the assertions below check its shape */
/**
 * Issue 30 item 3, the fan-out: the monitoring-fanout queue with its dead letters (three receives),
 * its own worker fed ten subscribers at a time with partial batch failures, the scheduler allowed to
 * send to it and nothing else to, the worker allowed to consume it and not to send to it; the
 * scheduler told the queue's URL. Read back from the synthesized template.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FANOUT_BATCH_SIZE, FANOUT_MAX_CONCURRENCY, FANOUT_MAX_RECEIVE_COUNT, FANOUT_QUEUE_VISIBILITY_TIMEOUT, FANOUT_WORKER_TIMEOUT } from '../../lib/schedule/monitoring-fanout.js';
import { removeTempDirs, synthProduct } from './synth.js';

type Resource = { Type: string; Properties: Record<string, any> };
type Resources = Record<string, Resource>;

let resources: Resources;
const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
const idStarting = (prefix: string, type: string) => {
  const found = ofType(type).filter(([id]) => id.startsWith(prefix));
  expect(found, `one ${type} ${prefix}*`).toHaveLength(1);
  return found[0]![0];
};
/** The SQS actions a function's role is allowed on the queue with this logical id. */
const sqsActionsOn = (functionId: string, queueId: string) => {
  const roleId = resources[functionId]!.Properties.Role['Fn::GetAtt'][0] as string;
  return ofType('AWS::IAM::Policy')
    .filter(([, p]) => (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === roleId))
    .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as { Effect: string; Action: string | string[]; Resource: unknown }[])
    .filter((st) => st.Effect === 'Allow' && [st.Resource].flat().some((r) => JSON.stringify(r).includes(`"${queueId}"`)))
    .flatMap((st) => [st.Action].flat())
    .sort();
};

beforeAll(() => {
  const { template } = synthProduct({ frontendDist: null });
  resources = (template.toJSON() as { Resources: Resources }).Resources;
}, 240_000);
afterAll(removeTempDirs);

describe('the monitoring-fanout queue', () => {
  it('has its dead letters after three receives, hidden six times the worker timeout, encrypted and TLS only', () => {
    const queueId = idStarting('MonitoringFanoutFanoutQueue', 'AWS::SQS::Queue');
    const dlqId = idStarting('MonitoringFanoutFanoutDeadLetters', 'AWS::SQS::Queue');
    expect(resources[queueId]!.Properties).toMatchObject({
      VisibilityTimeout: FANOUT_WORKER_TIMEOUT.toSeconds() * 6,
      SqsManagedSseEnabled: true,
      RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [dlqId, 'Arn'] }, maxReceiveCount: 3 },
    });
    expect(FANOUT_MAX_RECEIVE_COUNT).toBe(3);
    expect(FANOUT_QUEUE_VISIBILITY_TIMEOUT.toSeconds()).toBe(360);
    // A dead letter alarms, as the scan queues' do.
    const alarms = ofType('AWS::CloudWatch::Alarm').filter(([, a]) => JSON.stringify(a.Properties.Dimensions ?? []).includes(dlqId));
    expect(alarms.map(([, a]) => a.Properties.MetricName)).toEqual(['ApproximateNumberOfMessagesVisible']);
  });

  it('feeds its own worker ten subscribers at a time, with partial batch failures, at most two at once', () => {
    const queueId = idStarting('MonitoringFanoutFanoutQueue', 'AWS::SQS::Queue');
    const workerId = idStarting('MonitoringFanoutWorker', 'AWS::Lambda::Function');
    const mappings = ofType('AWS::Lambda::EventSourceMapping').filter(([, m]) => JSON.stringify(m.Properties.EventSourceArn).includes(`"${queueId}"`));
    expect(mappings.map(([, m]) => m.Properties)).toEqual([
      expect.objectContaining({ FunctionName: { Ref: workerId }, BatchSize: 10, FunctionResponseTypes: ['ReportBatchItemFailures'], ScalingConfig: { MaximumConcurrency: 2 } }),
    ]);
    expect([FANOUT_BATCH_SIZE, FANOUT_MAX_CONCURRENCY]).toEqual([10, 2]);
    expect(resources[workerId]!.Properties.Timeout).toBe(60);
    // Not a reservation: the stack's reserved total (README's quota check) is unchanged.
    expect(resources[workerId]!.Properties.ReservedConcurrentExecutions).toBeUndefined();
  });

  it('lets the scheduler send to it and the worker consume it, and no other function either', () => {
    const queueId = idStarting('MonitoringFanoutFanoutQueue', 'AWS::SQS::Queue');
    const schedulerId = idStarting('ScheduleMonitoringScheduler', 'AWS::Lambda::Function');
    const workerId = idStarting('MonitoringFanoutWorker', 'AWS::Lambda::Function');

    expect(sqsActionsOn(schedulerId, queueId)).toEqual(['sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:SendMessage']);
    expect(sqsActionsOn(workerId, queueId)).toEqual(['sqs:ChangeMessageVisibility', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:ReceiveMessage']);
    const others = ofType('AWS::Lambda::Function').filter(([id]) => id !== schedulerId && id !== workerId);
    expect(others.length).toBeGreaterThan(5);
    for (const [id] of others) if (resources[id]!.Properties.Role) expect(sqsActionsOn(id, queueId), id).toEqual([]);
    // The scheduler is told where to send; the worker, which only receives, is not.
    expect(resources[schedulerId]!.Properties.Environment.Variables.MONITORING_FANOUT_QUEUE_URL).toEqual({ Ref: queueId });
    expect(resources[workerId]!.Properties.Environment.Variables.MONITORING_FANOUT_QUEUE_URL).toBeUndefined();
    // The worker queues scans as the scheduler did: it may send to the monitoring scan queue.
    expect(sqsActionsOn(workerId, idStarting('ScanningMonitoringScanQueue', 'AWS::SQS::Queue'))).toContain('sqs:SendMessage');
  });
});
