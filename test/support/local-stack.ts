import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LocalStack, type LocalStackOptions, startLocalStack } from '../../bin/local/stack.js';
import type { Metrics } from '../../lambdas/domain/metrics.port.js';
import { startDnsServer, type TestDnsServer } from './dns-server.js';
import type { ZoneRecord } from './zone-server.js';

export interface TestStack {
  stack: LocalStack;
  dns: TestDnsServer;
  dataDir: string;
  /** Starts the stack again on the same data folder (a restart of `npm start`). */
  restart(): Promise<LocalStack>;
  close(): Promise<void>;
}

/** The test zone: every scan in tests resolves through this server, never the system resolver. */
export const TEST_ZONE: Record<string, string[]> = {
  'shop.example.test': ['127.0.0.1'],
  'www.example.test': ['127.0.0.1'],
  'private.example.test': ['10.0.0.7'],
  'metadata.example.test': ['169.254.169.254'],
};

/** TEST_ZONE as zone-server records, for tests that serve a zone of their own around the same names. */
export const TEST_ZONE_RECORDS: ZoneRecord[] = Object.entries(TEST_ZONE).flatMap(([name, addresses]) => addresses.map((data) => ({ name, type: 'A' as const, ttl: 60, data })));

/**
 * Every test posts from 127.0.0.1 with the same few emails and sites, so the hourly abuse limits are
 * raised for test stacks; test/integration/lead-abuse.test.ts passes the production numbers back in.
 */
export const TEST_RATE_LIMITS = {
  RATE_LIMIT_LEADS_PER_IP: '10000',
  RATE_LIMIT_LEADS_PER_EMAIL: '10000',
  RATE_LIMIT_LEADS_PER_SITE: '10000',
  RATE_LIMIT_CODES_PER_IP: '10000',
  RATE_LIMIT_CODES_PER_EMAIL: '10000',
  RATE_LIMIT_CODE_CHECKS_PER_IP: '10000',
};

/** `site.staticDir`: serve a built site (frontend/dist) instead of none; `site.metrics`: record the business metrics. */
/**
 * `monitoringFanout`: off by default, so a test's scheduler run queues its rescans before it returns
 * (the queue exists either way: test/integration/monitoring-fanout.test.ts drives it).
 */
export async function startTestStack(env: LocalStackOptions['env'] = {}, site: { staticDir?: string; metrics?: Metrics; monitoringFanout?: boolean } = {}): Promise<TestStack> {
  const dataDir = mkdtempSync(join(tmpdir(), 'rampart-test-'));
  const dns = await startDnsServer(TEST_ZONE);
  const options: LocalStackOptions = {
    dataDir,
    port: 0,
    staticDir: site.staticDir ?? join(dataDir, 'no-site'),
    // Monitoring runs when a test says so, with the test's clock (test/integration/monitoring.test.ts).
    monitoringIntervalMs: 0,
    monitoringFanout: site.monitoringFanout ?? false,
    metrics: site.metrics,
    // No demo account unless a test asks for it (DEMO_MODE: '1'): tests count users and audits.
    env: { LOG_LEVEL: 'ERROR', SCAN_RESOLVERS: `127.0.0.1:${dns.port}`, SCAN_DNS_TIMEOUT_MS: '1000', SCAN_EXCLUDE_PORTS: '2024', DEMO_MODE: '0', TWO_STEP_FOR_TEAMS: 'off', ...TEST_RATE_LIMITS, ...env },
  };
  const handle: TestStack = {
    stack: await startLocalStack(options),
    dns,
    dataDir,
    async restart() {
      await handle.stack.stop();
      handle.stack = await startLocalStack(options);
      return handle.stack;
    },
    async close() {
      await handle.stack.stop();
      await dns.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return handle;
}

export const validLead = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  businessName: 'Analytical Engines',
  webUrl: 'https://shop.example.test',
  email: 'owner@example.test',
  mobileNumber: '+61412345678',
  agreedToTerms: true,
  agreedToDataCollection: true,
};

export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> };
}

/** Polls an audit until it ends (or the deadline passes); returns the last answer. */
export async function waitForAudit(baseUrl: string, auditId: string, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await fetch(`${baseUrl}/api/audits/${auditId}`);
    const body = (await response.json()) as { audit: { status: string } & Record<string, unknown> };
    if (['completed', 'failed'].includes(body.audit.status) || Date.now() > deadline) return body.audit;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
