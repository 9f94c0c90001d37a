/* eslint-disable @typescript-eslint/no-explicit-any -- a synthesized template is untyped JSON; the assertions below check its shape */
/**
 * Issue 30 item 4: scan capacity. Three queues (free, paid, monitoring), each with its dead letters
 * and its own event source on the one worker (batch size 1, its own maximum concurrency from the
 * deploy settings); the worker reserves their sum and has the measured memory; an alarm when the
 * slowest scans come near the worker's timeout. Read back from synthesized templates.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resourceKeys } from '../../lambdas/config.js';
import { SCAN_CONCURRENCY_DEFAULTS, SCAN_DURATION_ALARM_SHARE, SCAN_MAX_RECEIVE_COUNT, SCAN_WORKER_MEMORY_MB, SCAN_WORKER_TIMEOUT } from '../../lib/scanning/scanning.js';
import { removeTempDirs, synthProduct } from './synth.js';

type Resource = { Type: string; Properties: Record<string, any> };
type Resources = Record<string, Resource>;

function template(env: Record<string, string> = {}, context: Record<string, unknown> = {}): Resources {
  const { template } = synthProduct({ frontendDist: null, env, context });
  return (template.toJSON() as { Resources: Resources }).Resources;
}

const ofType = (resources: Resources, type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
const workerOf = (resources: Resources) => {
  const found = ofType(resources, 'AWS::Lambda::Function').filter(([id]) => id.startsWith('ScanningScanWorker'));
  expect(found).toHaveLength(1);
  return found[0]!;
};
/** The queue a mapping reads, by its logical id (EventSourceArn is Fn::GetAtt [id, Arn]). */
const queueIdOf = (mapping: Resource) => (mapping.Properties.EventSourceArn as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];

let defaults: Resources;
let configured: Resources;

beforeAll(() => {
  defaults = template();
  // Prepare: capacity set at synth as an operator would (context keys), the memory from the environment.
  configured = template({ SCAN_WORKER_MEMORY: '3008' }, { scanConcurrencyFree: '6', scanConcurrencyPaid: '4', scanConcurrencyMonitoring: '3' });
});

afterAll(removeTempDirs);

describe('scan queues', () => {
  it('are three (free, paid, monitoring), each with its own dead-letter queue after the same retries', () => {
    // The scan queues (the monitoring-fanout queue is the scheduler's: test/infra/monitoring-fanout.test.ts).
    const queues = ofType(defaults, 'AWS::SQS::Queue').filter(([id]) => !id.startsWith('MonitoringFanout'));
    const main = queues.filter(([, q]) => q.Properties.RedrivePolicy);
    expect(main.map(([id]) => id.replace(/[0-9A-F]{8}$/, '')).sort()).toEqual(['ScanningMonitoringScanQueue', 'ScanningPaidScanQueue', 'ScanningScanQueue']);
    const deadLetterIds = main.map(([, q]) => q.Properties.RedrivePolicy.deadLetterTargetArn['Fn::GetAtt'][0] as string);
    expect(new Set(deadLetterIds).size).toBe(3);
    for (const id of deadLetterIds) expect(defaults[id]?.Type).toBe('AWS::SQS::Queue');
    for (const [, q] of main) expect(q.Properties.RedrivePolicy.maxReceiveCount).toBe(SCAN_MAX_RECEIVE_COUNT);
  });

  it('each feed the worker one job at a time, with partial batch failures, at its own maximum concurrency', () => {
    const [workerId] = workerOf(defaults);
    // The scan queues' mappings (the monitoring-fanout worker has its own: test/infra/monitoring-fanout.test.ts).
    const mappings = ofType(defaults, 'AWS::Lambda::EventSourceMapping').filter(([, m]) => m.Properties.FunctionName.Ref === workerId);
    expect(mappings).toHaveLength(3);
    const byQueue: Record<string, Record<string, any>> = Object.fromEntries(mappings.map(([, m]) => [queueIdOf(m).replace(/[0-9A-F]{8}$/, ''), m.Properties]));
    expect(Object.keys(byQueue).sort()).toEqual(['ScanningMonitoringScanQueue', 'ScanningPaidScanQueue', 'ScanningScanQueue']);
    for (const properties of Object.values(byQueue)) {
      expect(properties).toMatchObject({ FunctionName: { Ref: workerId }, BatchSize: 1, FunctionResponseTypes: ['ReportBatchItemFailures'] });
    }
    expect(byQueue.ScanningScanQueue!.ScalingConfig).toEqual({ MaximumConcurrency: SCAN_CONCURRENCY_DEFAULTS.free });
    expect(byQueue.ScanningPaidScanQueue!.ScalingConfig).toEqual({ MaximumConcurrency: SCAN_CONCURRENCY_DEFAULTS.paid });
    expect(byQueue.ScanningMonitoringScanQueue!.ScalingConfig).toEqual({ MaximumConcurrency: SCAN_CONCURRENCY_DEFAULTS.monitoring });
  });

  it('take their concurrency and the worker its memory from the deploy settings; the worker reserves their sum', () => {
    const [workerId, worker] = workerOf(configured);
    const maxima = Object.fromEntries(
      ofType(configured, 'AWS::Lambda::EventSourceMapping').filter(([, m]) => m.Properties.FunctionName.Ref === workerId).map(([, m]) => [queueIdOf(m).replace(/[0-9A-F]{8}$/, ''), m.Properties.ScalingConfig.MaximumConcurrency]),
    );
    expect(maxima).toEqual({ ScanningScanQueue: 6, ScanningPaidScanQueue: 4, ScanningMonitoringScanQueue: 3 });
    expect(worker.Properties.ReservedConcurrentExecutions).toBe(13);
    expect(worker.Properties.MemorySize).toBe(3008);
    // Defaults: the measured memory, and the reservation the defaults add up to.
    const [, byDefault] = workerOf(defaults);
    expect(byDefault.Properties.MemorySize).toBe(SCAN_WORKER_MEMORY_MB);
    expect(byDefault.Properties.ReservedConcurrentExecutions).toBe(SCAN_CONCURRENCY_DEFAULTS.free + SCAN_CONCURRENCY_DEFAULTS.paid + SCAN_CONCURRENCY_DEFAULTS.monitoring);
  });

  it('refuses at synth a concurrency SQS would refuse (below 2) and a memory under 1024 MB', () => {
    expect(() => template({}, { scanConcurrencyPaid: '1' })).toThrow(/scanConcurrencyPaid: at least 2/);
    expect(() => template({ SCAN_WORKER_MEMORY: '512' })).toThrow(/scanWorkerMemory: at least 1024 MB/);
  });

  it('are all three given to every producer: send permission and the three queue URLs', () => {
    const producers = ofType(defaults, 'AWS::Lambda::Function').filter(([, f]) => f.Properties.Environment?.Variables?.SCAN_QUEUE_URL);
    expect(producers.length).toBeGreaterThan(0);
    const queueIds = ofType(defaults, 'AWS::SQS::Queue')
      .filter(([id, q]) => q.Properties.RedrivePolicy && !id.startsWith('MonitoringFanout'))
      .map(([id]) => id);
    for (const [id, fn] of producers) {
      const variables = fn.Properties.Environment.Variables as Record<string, { Ref: string }>;
      expect(resourceKeys.scanQueue.map((key) => variables[key]?.Ref).sort(), id).toEqual([...queueIds].sort());
      const roleId = fn.Properties.Role['Fn::GetAtt'][0] as string;
      const statements = ofType(defaults, 'AWS::IAM::Policy')
        .filter(([, p]) => (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === roleId))
        .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: any }[]);
      const sendsTo = statements
        .filter((s) => [s.Action].flat().includes('sqs:SendMessage'))
        .flatMap((s) => [s.Resource].flat().map((r: any) => r['Fn::GetAtt']?.[0] as string))
        // The scheduler also sends to the monitoring-fanout queue (test/infra/monitoring-fanout.test.ts).
        .filter((queueId) => !queueId.startsWith('MonitoringFanout'));
      expect(new Set(sendsTo), id).toEqual(new Set(queueIds));
    }
  });
});

describe('scan duration alarm', () => {
  it(`fires when the worker's p99 duration reaches ${SCAN_DURATION_ALARM_SHARE * 100}% of its timeout`, () => {
    const [workerId] = workerOf(defaults);
    const found = ofType(defaults, 'AWS::CloudWatch::Alarm').filter(
      ([, a]) => a.Properties.MetricName === 'Duration' && a.Properties.Dimensions?.some((d: any) => d.Name === 'FunctionName' && d.Value?.Ref === workerId),
    );
    expect(found).toHaveLength(1);
    const alarm = found[0]![1].Properties;
    expect(alarm.ExtendedStatistic).toBe('p99');
    expect(alarm.Threshold).toBe(SCAN_WORKER_TIMEOUT.toMilliseconds() * 0.8);
    expect(alarm.ComparisonOperator).toBe('GreaterThanOrEqualToThreshold');
    expect(alarm.AlarmActions).toHaveLength(1);
  });

  it('and each queue has its own oldest-message alarm', () => {
    const ageAlarms = ofType(defaults, 'AWS::CloudWatch::Alarm').filter(([, a]) => a.Properties.MetricName === 'ApproximateAgeOfOldestMessage');
    expect(ageAlarms).toHaveLength(3);
    const queues = ageAlarms.map(([, a]) => a.Properties.Dimensions[0].Value['Fn::GetAtt'][0].replace(/[0-9A-F]{8}$/, '')).sort();
    expect(queues).toEqual(['ScanningMonitoringScanQueue', 'ScanningPaidScanQueue', 'ScanningScanQueue']);
  });
});
