import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { afterEach, describe, expect, it, vi } from 'vitest';

/**
 * Issue 30 item 7: the SDK calls are X-Ray subsegments on Lambda (Powertools Tracer's
 * captureAWSv3Client adds aws-xray-sdk-core's `XRaySDKInstrumentation` middleware), and nothing is
 * patched locally, in the tests or against an emulator, where no X-Ray daemon listens.
 */
const XRAY_MIDDLEWARE = 'XRaySDKInstrumentation';
const saved = { ...process.env };

/** lambdas/composition/aws.ts afresh, so its Tracer reads the environment as it is now (a cold start). */
async function tracedFresh() {
  vi.resetModules();
  return (await import('../../lambdas/composition/aws.js')).traced;
}

const middleware = (client: { middlewareStack: { identify(): string[] } }) => client.middlewareStack.identify().join(' ');

afterEach(() => {
  process.env = { ...saved };
});

describe('SDK clients', () => {
  it('are traced on Lambda (AWS_EXECUTION_ENV set)', async () => {
    process.env.AWS_EXECUTION_ENV = 'AWS_Lambda_nodejs22.x';
    delete process.env.POWERTOOLS_TRACE_ENABLED;
    const traced = await tracedFresh();
    const client = traced(new DynamoDBClient({ region: 'ap-southeast-2' }), undefined);
    expect(middleware(client)).toContain(XRAY_MIDDLEWARE);
  });

  it('are not traced outside Lambda, with POWERTOOLS_TRACE_ENABLED=false, or against an emulator', async () => {
    delete process.env.AWS_EXECUTION_ENV;
    let traced = await tracedFresh();
    expect(middleware(traced(new SQSClient({ region: 'ap-southeast-2' }), undefined))).not.toContain(XRAY_MIDDLEWARE);

    process.env.AWS_EXECUTION_ENV = 'AWS_Lambda_nodejs22.x';
    process.env.POWERTOOLS_TRACE_ENABLED = 'false';
    traced = await tracedFresh();
    expect(middleware(traced(new SQSClient({ region: 'ap-southeast-2' }), undefined))).not.toContain(XRAY_MIDDLEWARE);

    delete process.env.POWERTOOLS_TRACE_ENABLED;
    traced = await tracedFresh();
    expect(middleware(traced(new SQSClient({ region: 'ap-southeast-2' }), 'http://127.0.0.1:9324'))).not.toContain(XRAY_MIDDLEWARE);
  });
});
