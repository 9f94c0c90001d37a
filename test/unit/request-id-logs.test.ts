import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiEvent } from '../../lambdas/api/http.js';
import { functionFromSources } from '../support/function-handler.js';

/**
 * Issue 30 item 7: every log line of an invocation names Lambda's request id. The public API function
 * is built from its sources as the bundle builds it (test/support/function-handler.ts) and invoked
 * with a Lambda context; its table is a closed loopback port, so the request fails inside the handler
 * and the function logs the error (lambdas/api/http.ts errorReply), as it would on AWS.
 */
const savedEnv = { ...process.env };

function lambdaContext(requestId: string): Context {
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName: 'rampart-PublicApiFn',
    functionVersion: '7',
    invokedFunctionArn: 'arn:aws:lambda:ap-southeast-2:123456789012:function:rampart-PublicApiFn:live',
    memoryLimitInMB: '512',
    awsRequestId: requestId,
    logGroupName: '/aws/lambda/rampart-PublicApiFn',
    logStreamName: 'local',
    getRemainingTimeInMillis: () => 10_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

function verifyCodeEvent(): ApiEvent {
  const body = JSON.stringify({ email: 'owner@shop-example.com.au', webUrl: 'https://shop-example.com.au', verificationCode: '123456' });
  return {
    version: '2.0',
    routeKey: 'POST /api/verification-codes/verify',
    rawPath: '/api/verification-codes/verify',
    rawQueryString: '',
    headers: { 'content-type': 'application/json' },
    body,
    isBase64Encoded: false,
    requestContext: { http: { method: 'POST', path: '/api/verification-codes/verify', protocol: 'HTTP/1.1', sourceIp: '203.0.113.7', userAgent: 'test' } },
  } as unknown as ApiEvent;
}

/** The JSON log lines written to stdout and stderr while `work` runs. */
async function logLines(work: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
  const written: string[] = [];
  const keep = (chunk: string | Uint8Array) => {
    written.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    return true;
  };
  // Powertools writes errors to stderr and the rest to stdout, as Lambda's runtime collects both.
  const spies = [vi.spyOn(process.stdout, 'write').mockImplementation(keep), vi.spyOn(process.stderr, 'write').mockImplementation(keep)];
  try {
    await work();
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  return written
    .join('')
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

beforeAll(() => {
  Object.assign(process.env, {
    AWS_REGION: 'ap-southeast-2',
    AWS_ACCESS_KEY_ID: 'test',
    AWS_SECRET_ACCESS_KEY: 'test',
    AWS_MAX_ATTEMPTS: '1',
    LOG_LEVEL: 'INFO',
    TABLE_NAME: 'rampart-table',
    SCAN_QUEUE_URL: 'http://127.0.0.1:1/000000000000/free',
    PAID_SCAN_QUEUE_URL: 'http://127.0.0.1:1/000000000000/paid',
    MONITORING_SCAN_QUEUE_URL: 'http://127.0.0.1:1/000000000000/monitoring',
    REPORTS_BUCKET: 'rampart-reports',
    MAIL_FROM: 'no-reply@mail.rampart-test.com',
    USER_POOL_ID: 'ap-southeast-2_test',
    USER_POOL_CLIENT_ID: 'testclient',
    // A closed port on loopback: the table read is refused at once.
    DYNAMODB_ENDPOINT: 'http://127.0.0.1:1',
  });
  delete process.env.ORIGIN_VERIFY_SECRET;
});

afterEach(() => vi.restoreAllMocks());

afterAll(() => {
  process.env = savedEnv;
});

describe('an API function on Lambda', { timeout: 60_000 }, () => {
  it("writes Lambda's request id, and the function's name, into the log line of each invocation", async () => {
    const handler = await functionFromSources('public-api');
    const first = randomUUID();
    const second = randomUUID();
    const firstLines = await logLines(async () => expect((await handler(verifyCodeEvent(), lambdaContext(first))).statusCode).toBe(500));
    const secondLines = await logLines(async () => expect((await handler(verifyCodeEvent(), lambdaContext(second))).statusCode).toBe(500));

    const errorLines = (lines: Record<string, unknown>[]) => lines.filter((line) => line.message === 'Unhandled error in handler');
    expect(errorLines(firstLines)).toHaveLength(1);
    expect(errorLines(secondLines)).toHaveLength(1);
    expect(errorLines(firstLines)[0]).toMatchObject({ function_request_id: first, function_name: 'rampart-PublicApiFn' });
    // The next invocation's lines name its own request, not the first one's.
    expect(errorLines(secondLines)[0]).toMatchObject({ function_request_id: second, function_name: 'rampart-PublicApiFn' });
    for (const line of [...firstLines, ...secondLines]) expect(line.function_request_id).toBeDefined();
  });

  it('logs without a request id when called without a Lambda context (the local server)', async () => {
    const handler = await functionFromSources('public-api');
    const lines = await logLines(async () => expect((await handler(verifyCodeEvent())).statusCode).toBe(500));
    expect(lines.filter((line) => line.message === 'Unhandled error in handler')).toHaveLength(1);
    expect(lines.every((line) => line.function_request_id === undefined)).toBe(true);
  });
});
