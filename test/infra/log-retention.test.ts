import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { periodText, retained } from '../../frontend/src/features/legal/retention.js';
import { LOG_RETENTION_DAYS } from '../../lambdas/domain/retention.js';
import { removeTempDirs, synthProduct } from './synth.js';

/**
 * The logs the stack keeps, and what the privacy page says about them (issue 18 item 6: it said
 * "technical logs 6 months" while functions kept theirs 1 month and the API 3). Both read
 * LOG_RETENTION_DAYS (lambdas/domain/retention.ts); this reads the figures back from the synthesized
 * template and compares them with the page's, so neither side can change alone.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- CloudFormation resources, read field by field
type Resources = Record<string, { Type: string; Properties: Record<string, any> }>;
let resources: Resources;

const ofType = (type: string) => Object.entries(resources).filter(([, resource]) => resource.Type === type);
const refOf = (value: unknown): string | undefined => {
  const node = value as { Ref?: string; 'Fn::GetAtt'?: [string, string] } | undefined;
  return node?.Ref ?? node?.['Fn::GetAtt']?.[0];
};

/** Days kept, by kind of log, as the template says: every log group and the access-log bucket. */
function templateRetention(): Record<string, number[]> {
  const functionLogs = new Set(ofType('AWS::Lambda::Function').map(([, fn]) => refOf(fn.Properties.LoggingConfig?.LogGroup)));
  const apiAccessLogs = new Set(ofType('AWS::ApiGatewayV2::Stage').map(([, stage]) => refOf(stage.Properties.AccessLogSettings?.DestinationArn)));
  const logBuckets = new Set(ofType('AWS::S3::Bucket').map(([, bucket]) => refOf(bucket.Properties.LoggingConfiguration?.DestinationBucketName)));
  const kept: Record<string, number[]> = {};
  const add = (kind: string, days: number) => (kept[kind] = [...new Set([...(kept[kind] ?? []), days])]);
  for (const [id, group] of ofType('AWS::Logs::LogGroup')) {
    add(functionLogs.has(id) ? 'functionLogs' : apiAccessLogs.has(id) ? 'apiAccessLogs' : `unknown log group ${id}`, group.Properties.RetentionInDays);
  }
  for (const id of logBuckets) {
    if (id === undefined) continue;
    for (const rule of resources[id]!.Properties.LifecycleConfiguration?.Rules ?? []) add('siteAccessLogs', rule.ExpirationInDays);
  }
  return kept;
}

beforeAll(() => {
  resources = synthProduct({ frontendDist: null, context: { 'aws:cdk:bundling-stacks': [] } }).template.toJSON().Resources as Resources;
});

afterAll(removeTempDirs);

describe('log retention', () => {
  it('keeps function logs, the API access log and the access-log bucket as long as LOG_RETENTION_DAYS says, and no other log', () => {
    // Act
    const kept = templateRetention();

    // Assess
    expect(kept).toEqual({
      functionLogs: [LOG_RETENTION_DAYS.functionLogs],
      apiAccessLogs: [LOG_RETENTION_DAYS.apiAccessLogs],
      siteAccessLogs: [LOG_RETENTION_DAYS.siteAccessLogs],
    });
    expect(ofType('AWS::Logs::LogGroup').length).toBeGreaterThan(2);
  });

  it("states on the privacy page the template's figures: 1 month for server logs, 3 months for the access logs", () => {
    // Act
    const kept = templateRetention();

    // Assess
    expect({ functionLogs: retained.functionLogs, apiAccessLogs: retained.apiAccessLogs, siteAccessLogs: retained.siteAccessLogs }).toEqual({
      functionLogs: periodText(kept.functionLogs![0]!),
      apiAccessLogs: periodText(kept.apiAccessLogs![0]!),
      siteAccessLogs: periodText(kept.siteAccessLogs![0]!),
    });
    expect([retained.functionLogs, retained.apiAccessLogs, retained.siteAccessLogs]).toEqual(['1 month', '3 months', '3 months']);
  });
});
