import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCAN_LIMIT_MESSAGE } from '../../lambdas/domain/domains.js';
import { unlockMessages } from '../../lambdas/domain/unlock.contract.js';
import { addDomain, api, signIn, type TestUser } from '../support/accounts.js';
import { startTestStack, type TestStack } from '../support/local-stack.js';
import { tableItems } from '../support/table.js';

/**
 * Issue 28 item 11 (finding 14): unlocking a passive report is an active scan and counts against the
 * plan as Quick Scan does (countScanAgainstPlan); with no scans left it is refused with Quick Scan's
 * answer and nothing is rescanned. The trial allows 3 scans. Scans need not finish here.
 */
let t: TestStack;
let user: TestUser;
const SITE = 'unlock.example.test';

/** A completed passive report of the user's own, as a foreign address's lead leaves it once claimed. */
async function passiveReport(): Promise<string> {
  const id = randomUUID();
  const at = new Date().toISOString();
  await t.stack.deps.audits.createAudit({ id, ownerId: user.userId, targetUrl: `https://${SITE}/`, host: SITE, status: 'queued', createdAt: at, checks: [], mode: 'passive' });
  expect(await t.stack.deps.audits.markInProgress(id, at)).toBe(true);
  expect(await t.stack.deps.audits.complete(id, { score: 70, grade: 'C', riskLevel: 'medium', completedAt: at })).toBe(true);
  return id;
}

const scansUsed = async (): Promise<number> => {
  const me = await api(t, 'GET', '/api/me', user.token);
  expect(me.status).toBe(200);
  return me.body.subscription.scansUsed as number;
};
const startedScans = async () => (await tableItems(t)).filter((item) => item.type === 'started-scan' && item.pk === `USER#${user.userId}`).map((item) => item.auditId);

beforeAll(async () => {
  t = await startTestStack();
  user = await signIn(t, 'una@elsewhere.example.test', 'Una');
  await addDomain(t, user.userId, SITE);
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('unlocking a passive report', () => {
  it('counts one scan against the plan, and is in the started scans', async () => {
    // Prepare
    const auditId = await passiveReport();
    const before = await scansUsed();

    // Act
    const unlock = await api(t, 'POST', `/api/audits/${auditId}/unlock`, user.token);

    // Assess
    expect([unlock.status, unlock.body]).toEqual([202, { auditId, status: 'queued', mode: 'active', message: unlockMessages.started }]);
    expect([before, await scansUsed()]).toEqual([0, 1]);
    expect(await startedScans()).toEqual([auditId]);
  });

  it("is refused with Quick Scan's answer when the plan has no scans left, and nothing is rescanned", async () => {
    // Prepare: two Quick Scans use up the trial's 3.
    for (let i = 0; i < 2; i += 1) expect((await api(t, 'POST', '/api/me/scans', user.token, { domain: SITE })).status).toBe(201);
    expect(await scansUsed()).toBe(3);
    const auditId = await passiveReport();
    const stored = await t.stack.deps.audits.getAudit(auditId);

    // Act
    const unlock = await api(t, 'POST', `/api/audits/${auditId}/unlock`, user.token);
    const quick = await api(t, 'POST', '/api/me/scans', user.token, { domain: SITE });

    // Assess
    const refusal = [403, { error: 'scan_limit_reached', message: SCAN_LIMIT_MESSAGE }];
    expect([unlock.status, unlock.body]).toEqual(refusal);
    expect([quick.status, quick.body]).toEqual(refusal);
    expect(await t.stack.deps.audits.getAudit(auditId)).toEqual(stored);
    expect(await scansUsed()).toBe(3);
    expect(await startedScans()).not.toContain(auditId);
  });
});
