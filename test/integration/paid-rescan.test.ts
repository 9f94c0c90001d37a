import { AdminSetUserPasswordCommand, CognitoIdentityProviderClient, InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_CREDENTIALS } from '../../lambdas/composition.js';
import type { Audit } from '../../lambdas/domain/audit.js';
import { freeRescanMessages } from '../../lambdas/domain/free-rescan.js';
import { paymentMessages } from '../../lambdas/domain/payments.contract.js';
import { addDomain, verifyAddressByCode } from '../support/accounts.js';
import { postJson, startTestStack, type TestStack, validLead, waitForAudit } from '../support/local-stack.js';

/**
 * The Pro Audit's free re-scan (DECISIONS "What paid audits add") over the whole local stack:
 * `POST /api/audits/{auditId}/rescans` after a Pro Audit bought through the local test checkout, and
 * its refusals. Audits that must not be scanned again (basic, expired, running, someone else's) are
 * stored through the repository, so no job ever picks them up; a payment 31 days old is an audit whose
 * `updatedAt` (when the payment granted it) is 31 days back.
 */

let t: TestStack;
const users: Record<'a' | 'b', { userId: string; token: string }> = {} as never;
let paidAudit: string;

async function signIn(email: string, givenName: string): Promise<{ userId: string; token: string }> {
  const password = 'Correct-Horse-42';
  const { userId } = await t.stack.deps.users.createUser({ email, givenName, familyName: 'Owner' }, 'Temporary-Pass-123');
  const cognito = new CognitoIdentityProviderClient({ endpoint: t.stack.endpoints.cognito, region: 'ap-southeast-2', credentials: LOCAL_CREDENTIALS });
  await cognito.send(new AdminSetUserPasswordCommand({ UserPoolId: t.stack.userPool.userPoolId, Username: email, Password: password, Permanent: true }));
  const auth = await cognito.send(
    new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: t.stack.userPool.userPoolClientId, AuthParameters: { USERNAME: email, PASSWORD: password } }),
  );
  return { userId, token: auth.AuthenticationResult!.IdToken! };
}

type Body = Record<string, unknown> & { error?: string; message?: string };

async function call(method: string, path: string, token?: string) {
  const response = await fetch(`${t.stack.url}${path}`, { method, headers: token ? { authorization: `Bearer ${token}` } : {} });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : {}) as Body };
}

const rescan = (auditId: string, token?: string) => call('POST', `/api/audits/${auditId}/rescans`, token);
const report = async (auditId: string) => (await call('GET', `/api/audits/${auditId}`)).body as { audit: Audit; result: Record<string, unknown> };
const scansUsed = async (token: string) => ((await call('GET', '/api/me', token)).body.subscription as { scansUsed: number; scansLimit: number });

let counter = 0;
/** A completed report with one issue, stored directly: nothing is queued for it. */
async function storedAudit(owner: { userId?: string; email: string }, status: 'completed' | 'in_progress' = 'completed'): Promise<string> {
  counter += 1;
  const suffix = String(counter).padStart(12, '0');
  const now = new Date().toISOString();
  const audit: Audit = { id: `aaaaaaaa-0000-4000-8000-${suffix}`, ...(owner.userId ? { ownerId: owner.userId } : {}), targetUrl: 'https://shop.example.test/', host: 'shop.example.test', status: 'queued', createdAt: now, checks: [] };
  await t.stack.deps.audits.createLeadWithAudit(
    { id: `bbbbbbbb-0000-4000-8000-${suffix}`, firstName: 'Ada', lastName: 'Owner', businessName: 'Shop', email: owner.email, mobileNumber: '', webUrl: audit.targetUrl, host: audit.host, ...(owner.userId ? { userId: owner.userId } : {}), createdAt: now },
    { ...audit, leadId: `bbbbbbbb-0000-4000-8000-${suffix}` },
  );
  await t.stack.deps.audits.markInProgress(audit.id, now);
  await t.stack.deps.audits.saveCheck(audit.id, {
    name: 'http',
    status: 'ok',
    findings: [{ id: 'http.xcto.missing', check: 'http', title: 'No X-Content-Type-Options header', severity: 'low', category: 'Web Security', description: 'x', recommendation: 'Send X-Content-Type-Options: nosniff.' }],
  });
  if (status === 'completed') await t.stack.deps.audits.complete(audit.id, { score: 95, grade: 'A', riskLevel: 'low', completedAt: now });
  return audit.id;
}

/** What the payment webhook records on the audit, `daysAgo` days back. */
async function grant(auditId: string, planType: 'basic' | 'pro', daysAgo = 0, session = `cs_test_${auditId.slice(-6)}_${planType}`) {
  const paidAt = new Date(Date.now() - daysAgo * 86_400_000);
  await t.stack.deps.audits.markPremium(auditId, {
    planType,
    paymentSessionId: session,
    badgeEligibleUntil: new Date(paidAt.getTime() + 90 * 86_400_000).toISOString(),
    updatedAt: paidAt.toISOString(),
  });
}

beforeAll(async () => {
  t = await startTestStack({ SCAN_ALLOW_PRIVATE_TARGETS: '1' });
  users.a = await signIn('a@shop.example.test', 'Ada');
  users.b = await signIn('b@example.test', 'Bea');
  // DECISIONS "Scan modes" [attacker]: the address proven by its code first, so the lead is active and attaches to the account at once.
  await verifyAddressByCode(t, '127.0.0.1', 'a@shop.example.test', validLead.webUrl);
  const owned = await postJson(`${t.stack.url}/api/leads`, { ...validLead, email: 'a@shop.example.test', createAccount: true });
  paidAudit = String(owned.body.auditId);
  expect((await waitForAudit(t.stack.url, paidAudit, 40_000)).status).toBe('completed');
  // A paid audit needs the buyer's verified domain (DECISIONS "Scan modes").
  await addDomain(t, users.a.userId, 'shop.example.test');

  // The Pro Audit through the local test checkout: Pay sends the signed webhook events.
  const checkout = await fetch(`${t.stack.url}/api/checkout-sessions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${users.a.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ planId: 'pro-audit', auditId: paidAudit }),
  });
  const { sessionId } = (await checkout.json()) as { sessionId: string };
  const paid = await fetch(`${t.stack.url}/_local/checkout/${sessionId}/pay`, { method: 'POST', redirect: 'manual' });
  expect(paid.status).toBe(303);
  expect((await waitForAudit(t.stack.url, paidAudit, 90_000)).status).toBe('completed');
}, 180_000);

afterAll(async () => {
  await t?.close();
});

describe('POST /api/audits/{auditId}/rescans', () => {
  it('needs a signed-in user', async () => {
    const reply = await rescan(paidAudit);
    expect([reply.status, reply.body.error]).toEqual([401, 'unauthorized']);
  });

  it('answers 404 for an unknown or malformed audit id', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-an-id']) {
      const reply = await rescan(id, users.a.token);
      expect([reply.status, reply.body]).toEqual([404, { error: 'audit_not_found', message: 'Audit not found' }]);
    }
  });

  it("refuses another user's Pro Audit with 403", async () => {
    const reply = await rescan(paidAudit, users.b.token);
    expect([reply.status, reply.body]).toEqual([403, { error: 'audit_forbidden', message: paymentMessages.auditNotYours }]);
  });

  it('queues the deep scan again once for the owner, outside the plan’s scans, and refuses the second time', async () => {
    // Prepare: the trial's scans all used up, so a counted scan would be refused.
    const before = await report(paidAudit);
    expect(before.result).toMatchObject({ plan_type: 'pro', scan_depth: 'deep', free_rescan: { usedAt: null } });
    const { scansLimit } = await scansUsed(users.a.token);
    for (let i = 0; i < scansLimit; i += 1) expect(await t.stack.deps.domains.countScan(users.a.userId, scansLimit)).toBe(true);
    const firstCompletion = before.audit.completedAt!;

    // Act
    const first = await rescan(paidAudit, users.a.token);
    const second = await rescan(paidAudit, users.a.token);

    // Assess
    expect(first.status).toBe(202);
    expect(first.body).toEqual({ auditId: paidAudit, status: 'queued', scanDepth: 'deep', freeRescanUsedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), message: freeRescanMessages.started });
    expect([second.status, second.body]).toEqual([409, { error: 'free_rescan_used', message: freeRescanMessages.used }]);
    const running = await report(paidAudit);
    expect(['queued', 'in_progress']).toContain(running.audit.status);
    expect(running.result.free_rescan).toEqual({ availableUntil: expect.any(String), usedAt: first.body.freeRescanUsedAt });

    const done = await waitForAudit(t.stack.url, paidAudit, 90_000);
    expect(done.status).toBe('completed');
    const after = await report(paidAudit);
    expect(Date.parse(after.audit.completedAt!)).toBeGreaterThan(Date.parse(firstCompletion));
    expect(after.audit.checks.map((c) => c.name)).toContain('subdomain-surface');
    expect(after.result).toMatchObject({ scan_depth: 'deep', plan_type: 'pro', free_rescan: { usedAt: first.body.freeRescanUsedAt } });
    expect((after.result.remediation_plan as { items: unknown[] }).items.length).toBeGreaterThan(0);
    expect(await scansUsed(users.a.token)).toMatchObject({ scansUsed: scansLimit, scansLimit });

    const third = await rescan(paidAudit, users.a.token);
    expect([third.status, third.body.error]).toEqual([409, 'free_rescan_used']);
  }, 120_000);

  it('refuses a Basic Audit and a free report with 403: the re-scan comes with the Pro Audit', async () => {
    const basic = await storedAudit({ userId: users.a.userId, email: 'a@shop.example.test' });
    await grant(basic, 'basic');
    const free = await storedAudit({ userId: users.a.userId, email: 'a@shop.example.test' });
    for (const id of [basic, free]) {
      const reply = await rescan(id, users.a.token);
      expect([reply.status, reply.body]).toEqual([403, { error: 'rescan_not_included', message: freeRescanMessages.notIncluded }]);
    }
  });

  it('refuses with 409 more than 30 days after the payment', async () => {
    const old = await storedAudit({ userId: users.a.userId, email: 'a@shop.example.test' });
    await grant(old, 'pro', 31);
    const reply = await rescan(old, users.a.token);
    expect([reply.status, reply.body]).toEqual([409, { error: 'free_rescan_expired', message: freeRescanMessages.expired }]);
    expect((await report(old)).audit.status).toBe('completed');
  });

  it('refuses with 409 while a scan of the report is running', async () => {
    const running = await storedAudit({ userId: users.a.userId, email: 'a@shop.example.test' }, 'in_progress');
    await grant(running, 'pro');
    const reply = await rescan(running, users.a.token);
    expect([reply.status, reply.body]).toEqual([409, { error: 'audit_scan_running', message: freeRescanMessages.running }]);
  });

  it('lets the account whose email the report was stored under use it, and nobody else', async () => {
    // A lead's report from before the account existed (no owner): the same rule as buying the audit.
    const lead = await storedAudit({ email: 'a@shop.example.test' }, 'in_progress');
    await grant(lead, 'pro');
    expect((await rescan(lead, users.a.token)).body.error).toBe('audit_scan_running');
    expect((await rescan(lead, users.b.token)).body.error).toBe('audit_forbidden');
  });
});

describe('the free re-scan claim in the table', () => {
  it('is one conditional write per purchase: a second claim fails, a new Pro purchase has its own', async () => {
    const audits = t.stack.deps.audits;
    const id = await storedAudit({ userId: users.a.userId, email: 'a@shop.example.test' });
    await grant(id, 'pro', 0, 'cs_test_first');
    const claimedAt = new Date().toISOString();

    expect(await audits.claimFreeRescan(id, { paymentSessionId: 'cs_test_first', claimedAt })).toBe(true);
    expect(await audits.getAudit(id)).toMatchObject({ status: 'queued', depth: 'deep', freeRescanUsedAt: claimedAt });
    // Finish the re-scan by hand (no job was queued): a finished audit with its re-scan used.
    await audits.markInProgress(id, claimedAt);
    await audits.complete(id, { score: 100, grade: 'A', riskLevel: 'low', completedAt: new Date().toISOString() });
    expect(await audits.claimFreeRescan(id, { paymentSessionId: 'cs_test_first', claimedAt })).toBe(false);

    await grant(id, 'pro', 0, 'cs_test_second');
    expect((await audits.getAudit(id))!.freeRescanUsedAt).toBeUndefined();
    expect(await audits.claimFreeRescan(id, { paymentSessionId: 'cs_test_first', claimedAt })).toBe(false);
    expect(await audits.claimFreeRescan(id, { paymentSessionId: 'cs_test_second', claimedAt })).toBe(true);
  });

  it('never claims a Basic Audit', async () => {
    const id = await storedAudit({ userId: users.a.userId, email: 'a@shop.example.test' });
    await grant(id, 'basic', 0, 'cs_test_basic');
    expect(await t.stack.deps.audits.claimFreeRescan(id, { paymentSessionId: 'cs_test_basic', claimedAt: new Date().toISOString() })).toBe(false);
    expect((await t.stack.deps.audits.getAudit(id))!.status).toBe('completed');
  });
});
