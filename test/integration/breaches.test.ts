import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckResult } from '../../lambdas/domain/audit.js';
import { adobe, TEST_API_KEY } from '../fixtures/hibp/breaches.js';
import { startHibpServer, type HibpServer } from '../support/hibp-server.js';
import { postJson, startTestStack, type TestStack, validLead, waitForAudit } from '../support/local-stack.js';

let hibp: HibpServer;
let configured: TestStack;
let unconfigured: TestStack;

beforeAll(async () => {
  hibp = await startHibpServer({ apiKey: TEST_API_KEY, accounts: { 'owner@example.test': [adobe] } });
  [configured, unconfigured] = await Promise.all([
    startTestStack({ SCAN_ALLOW_PRIVATE_TARGETS: '1', HIBP_API_KEY: TEST_API_KEY, HIBP_BASE_URL: hibp.apiBaseUrl }),
    startTestStack({ SCAN_ALLOW_PRIVATE_TARGETS: '1' }),
  ]);
});
afterAll(async () => {
  await Promise.all([configured?.close(), unconfigured?.close(), hibp?.close()]);
});

const breachesOf = (audit: Record<string, unknown>) => (audit.checks as CheckResult[]).find((c) => c.name === 'breaches');

describe('breach check in the scan worker', () => {
  it("looks up the lead's own address in Have I Been Pwned and reports the breach", async () => {
    const created = await postJson(`${configured.stack.url}/api/leads`, validLead);
    const audit = await waitForAudit(configured.stack.url, String(created.body.auditId));

    const breaches = breachesOf(audit);
    expect(breaches).toMatchObject({ status: 'ok', data: { status: 'ok', checked: 1, breached: 1 } });
    expect(breaches?.findings.map((f) => f.id)).toEqual(['breaches.account']);
    expect(breaches?.findings[0]?.evidence).toContain('Adobe');
    expect(JSON.stringify(breaches)).not.toContain('owner@example.test');
    expect(hibp.requests.map((r) => r.path)).toContain('/api/v3/breachedaccount/owner%40example.test?truncateResponse=false');
  });

  it('says the breach check is not configured, with no numbers, when there is no key', async () => {
    const created = await postJson(`${unconfigured.stack.url}/api/leads`, validLead);
    const audit = await waitForAudit(unconfigured.stack.url, String(created.body.auditId));

    const breaches = breachesOf(audit);
    expect(breaches).toMatchObject({ status: 'ok', data: { status: 'not-configured' } });
    expect(breaches?.findings.map((f) => [f.id, f.severity])).toEqual([['breaches.not-configured', 'info']]);
  });
});
