import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiEvent, ApiHandler } from '../../lambdas/api/http.js';
import { ORIGIN_VERIFY_HEADER } from '../../lambdas/api/origin-verify.js';
import { LOCAL_WEBHOOK_SECRET } from '../../lambdas/config.js';
import { functionFromSources } from '../support/function-handler.js';
import { startTestStack, type TestStack } from '../support/local-stack.js';

/**
 * The API functions' Lambda handlers (lambdas/functions/api-function.ts) as API Gateway calls them on AWS, configured from
 * the environment over the local emulators: with ORIGIN_VERIFY_SECRET set only requests carrying
 * CloudFront's `x-origin-verify` reach the handler (the public, webhook and agent routes alike);
 * unset, every request does, as under `npm start`.
 */
const SECRET = 'Zq8wLr3VtN6yBm1KcX5pHd9JsF2gA7eUoT4iRvW0nQkYbMzCxElPaSjGhDfIuO';
let t: TestStack;
const savedEnv = { ...process.env };

function lambdaEvent(method: string, path: string, headers: Record<string, string>, body?: string): ApiEvent {
  return {
    version: '2.0',
    routeKey: `${method} ${path}`,
    rawPath: path,
    rawQueryString: '',
    headers,
    body,
    isBase64Encoded: false,
    requestContext: { http: { method, path, protocol: 'HTTP/1.1', sourceIp: '203.0.113.7', userAgent: 'Amazon CloudFront' } },
  } as unknown as ApiEvent;
}

/** The function's handler built afresh from the sources, so it reads the environment as it is now (a cold start). */
const coldStart = functionFromSources;

const bodyOf = (reply: Awaited<ReturnType<ApiHandler>>) => JSON.parse(String(reply.body)) as Record<string, unknown>;

function signedPing(): { body: string; signature: string } {
  // A type the webhook ignores: it verifies the signature and answers, changing nothing.
  const body = JSON.stringify({ id: `evt_origin_${Date.now()}`, object: 'event', type: 'customer.created', created: Math.floor(Date.now() / 1000), data: { object: {} } });
  return { body, signature: Stripe.webhooks.generateTestHeaderString({ payload: body, secret: LOCAL_WEBHOOK_SECRET }) };
}

beforeAll(async () => {
  t = await startTestStack();
  await t.stack.stopWorker();
  const { config, endpoints } = t.stack;
  // What the stack gives the functions on AWS (each requires its routes' resources at cold start), with the emulators' endpoints instead of AWS's.
  Object.assign(process.env, {
    AWS_REGION: config.AWS_REGION,
    LOG_LEVEL: 'ERROR',
    TABLE_NAME: config.TABLE_NAME,
    SCAN_QUEUE_URL: config.SCAN_QUEUE_URL,
    PAID_SCAN_QUEUE_URL: config.PAID_SCAN_QUEUE_URL,
    MONITORING_SCAN_QUEUE_URL: config.MONITORING_SCAN_QUEUE_URL,
    REPORTS_BUCKET: config.REPORTS_BUCKET,
    MAIL_FROM: config.MAIL_FROM,
    USER_POOL_ID: config.USER_POOL_ID,
    USER_POOL_CLIENT_ID: config.USER_POOL_CLIENT_ID,
    DYNAMODB_ENDPOINT: endpoints.dynamodb,
    SQS_ENDPOINT: endpoints.sqs,
    SES_ENDPOINT: endpoints.ses,
    S3_ENDPOINT: endpoints.s3,
    COGNITO_ENDPOINT: endpoints.cognito,
  });
}, 60_000);

afterAll(async () => {
  process.env = savedEnv;
  await t?.close();
});

describe('with ORIGIN_VERIFY_SECRET set (on AWS)', () => {
  let health: ApiHandler;
  let webhook: ApiHandler;
  let agentReport: ApiHandler;

  beforeAll(async () => {
    process.env.ORIGIN_VERIFY_SECRET = SECRET;
    health = await coldStart('public-api');
    webhook = await coldStart('payments');
    agentReport = await coldStart('agents');
  });

  it('answers 403 forbidden_origin to a request straight to execute-api: no header, or a wrong one', async () => {
    const attempts: Record<string, string>[] = [{}, { [ORIGIN_VERIFY_HEADER]: 'not-the-secret-but-long-enough-to-look-like-one' }];
    for (const headers of attempts) {
      const reply = await health(lambdaEvent('GET', '/api/health', headers));
      expect([reply.statusCode, bodyOf(reply)]).toEqual([403, { error: 'forbidden_origin', message: 'The API answers only through the site.' }]);
    }
  });

  it('serves a public route with the header CloudFront adds', async () => {
    const reply = await health(lambdaEvent('GET', '/api/health', { [ORIGIN_VERIFY_HEADER]: SECRET }));
    expect([reply.statusCode, bodyOf(reply)]).toEqual([200, { status: 'ok', product: 'Rampart' }]);
  });

  it('lets a signed Stripe webhook through with the header, and refuses the same event without it before its signature is read', async () => {
    // Prepare
    const { body, signature } = signedPing();

    // Act
    const through = await webhook(lambdaEvent('POST', '/api/stripe/webhook', { [ORIGIN_VERIFY_HEADER]: SECRET, 'stripe-signature': signature, 'content-type': 'application/json' }, body));
    const direct = await webhook(lambdaEvent('POST', '/api/stripe/webhook', { 'stripe-signature': signature, 'content-type': 'application/json' }, body));

    // Assess
    expect([through.statusCode, bodyOf(through)]).toEqual([200, { received: true, ignored: true }]);
    expect([direct.statusCode, bodyOf(direct).error]).toEqual([403, 'forbidden_origin']);
  });

  it("brings an agent's report to the agent check with the header (401 for a missing agent token), 403 without", async () => {
    const report = JSON.stringify({ agent_id: 'a1' });
    const through = await agentReport(lambdaEvent('POST', '/api/agents/reports', { [ORIGIN_VERIFY_HEADER]: SECRET }, report));
    const direct = await agentReport(lambdaEvent('POST', '/api/agents/reports', {}, report));
    expect(through.statusCode).toBe(401);
    expect(bodyOf(through).error).not.toBe('forbidden_origin');
    expect([direct.statusCode, bodyOf(direct).error]).toEqual([403, 'forbidden_origin']);
  });
});

describe('with ORIGIN_VERIFY_SECRET unset (npm start, the tests)', () => {
  it('serves requests without the header as before', async () => {
    // Prepare
    delete process.env.ORIGIN_VERIFY_SECRET;
    const health = await coldStart('public-api');
    const webhook = await coldStart('payments');
    const { body, signature } = signedPing();

    // Act
    const healthReply = await health(lambdaEvent('GET', '/api/health', {}));
    const webhookReply = await webhook(lambdaEvent('POST', '/api/stripe/webhook', { 'stripe-signature': signature }, body));

    // Assess
    expect([healthReply.statusCode, bodyOf(healthReply)]).toEqual([200, { status: 'ok', product: 'Rampart' }]);
    expect([webhookReply.statusCode, bodyOf(webhookReply)]).toEqual([200, { received: true, ignored: true }]);
  });
});
