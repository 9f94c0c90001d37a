/**
 * Issue 30 item 6: HIBP's plan rate is the key's, not a process's. Two HIBP clients, as two scan
 * workers would hold (each its own DynamoDB client), share the plan's rate through the table's
 * counter (the local table on dynalite), against a loopback stand-in for HIBP that records what
 * reaches it.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_REGION } from '../../bin/local/provision.js';
import { DynamoDbRateLimiter } from '../../lambdas/adapters/dynamodb-rate-limits.adapter.js';
import { LOCAL_CREDENTIALS } from '../../lambdas/composition.js';
import { tableHibpLimit } from '../../lambdas/composition/scanner.js';
import { createHibpClient, type HibpClient } from '../../lambdas/scanner/net/hibp-client.js';
import { startHibpServer, type HibpServer } from '../support/hibp-server.js';
import { startTestStack, type TestStack } from '../support/local-stack.js';

const API_KEY = '0123456789abcdef0123456789abcdef';
const PLAN_PER_MINUTE = 3;

let t: TestStack;
let hibp: HibpServer;
/** The clock the counters read: one minute's window unless a test moves it. */
let now = new Date('2026-12-07T10:00:10.000Z');

/** A scanner process: its own DynamoDB client and limiter on the shared table, its own HIBP client (its own pacing). */
function scannerProcess(shared: boolean): HibpClient {
  const db = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: t.stack.endpoints.dynamodb, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS }));
  const limiter = new DynamoDbRateLimiter(db, t.stack.config.TABLE_NAME!, { now: () => now });
  return createHibpClient({
    apiKey: API_KEY,
    baseUrl: hibp.apiBaseUrl,
    userAgent: 'Rampart-test',
    rateLimit: { requests: PLAN_PER_MINUTE, windowMs: 60_000 },
    // No waiting: a lookup either goes now or answers rate-limited, so the counts are exact.
    maxRetryWaitMs: 0,
    ...(shared ? { sharedLimit: tableHibpLimit(limiter, PLAN_PER_MINUTE) } : {}),
  });
}

beforeAll(async () => {
  t = await startTestStack();
  hibp = await startHibpServer({ apiKey: API_KEY, accounts: {} });
});
afterAll(async () => {
  await hibp?.close();
  await t?.close();
});

const lookups = (client: HibpClient, n: number, tag: string) =>
  Array.from({ length: n }, (_, i) => client.breachedAccount(`person${i}.${tag}@shop.example.test`));

describe('the HIBP plan rate shared through the table', () => {
  it('holds across two scanner processes: 8 lookups at once, only the plan’s 3 a minute reach HIBP', async () => {
    // Prepare
    hibp.requests.length = 0;
    const a = scannerProcess(true);
    const b = scannerProcess(true);

    // Act: both processes look up 4 addresses at the same moment.
    const results = await Promise.all([...lookups(a, 4, 'a'), ...lookups(b, 4, 'b')]);

    // Assert
    expect(results.map((r) => r.outcome).sort(), JSON.stringify(results)).toEqual([...Array(PLAN_PER_MINUTE).fill('ok'), ...Array(8 - PLAN_PER_MINUTE).fill('rate-limited')]);
    expect(hibp.requests.filter((r) => r.path.includes('/breachedaccount/'))).toHaveLength(PLAN_PER_MINUTE);
    expect(results.filter((r) => r.outcome === 'ok')).toHaveLength(PLAN_PER_MINUTE);
    const limited = results.filter((r) => r.outcome === 'rate-limited');
    expect(limited).toHaveLength(8 - PLAN_PER_MINUTE);
    for (const r of limited) {
      expect(r).toMatchObject({ outcome: 'rate-limited', reason: expect.stringContaining('shared by every scanner') });
      // The window is the clock minute: the next slot opens at 10:01:00, 50 s from now.
      expect((r as { retryAfterSeconds: number }).retryAfterSeconds).toBe(50);
    }
  });

  it('opens again in the next minute, for either process', async () => {
    hibp.requests.length = 0;
    now = new Date('2026-12-07T10:01:02.000Z');
    const b = scannerProcess(true);

    const result = await b.breachedAccount('late@shop.example.test');

    expect(result.outcome).toBe('ok');
    expect(hibp.requests).toHaveLength(1);
  });

  it('without the shared limit, each process paces only itself: twice the plan reaches HIBP (what the table prevents)', async () => {
    hibp.requests.length = 0;
    const a = scannerProcess(false);
    const b = scannerProcess(false);

    await Promise.all([...lookups(a, 4, 'c'), ...lookups(b, 4, 'd')]);

    expect(hibp.requests).toHaveLength(2 * PLAN_PER_MINUTE);
  });
});
