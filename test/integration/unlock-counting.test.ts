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
/** Another owner of the site, so the trial's 3 scans of `user` stay for the tests written for them. */
let other: TestUser;
const SITE = 'unlock.example.test';

/** A completed passive report of the user's own, as a foreign address's lead leaves it once claimed. */
async function passiveReport(owner: TestUser = user): Promise<string> {
  const id = randomUUID();
  const at = new Date().toISOString();
  await t.stack.deps.audits.createAudit({ id, ownerId: owner.userId, targetUrl: `https://${SITE}/`, host: SITE, status: 'queued', createdAt: at, checks: [], mode: 'passive' });
  expect(await t.stack.deps.audits.markInProgress(id, at)).toBe(true);
  expect(await t.stack.deps.audits.complete(id, { score: 70, grade: 'C', riskLevel: 'medium', completedAt: at })).toBe(true);
  return id;
}

const scansUsed = async (owner: TestUser = user): Promise<number> => {
  const me = await api(t, 'GET', '/api/me', owner.token);
  expect(me.status).toBe(200);
  return me.body.subscription.scansUsed as number;
};
const startedScans = async () => (await tableItems(t)).filter((item) => item.type === 'started-scan' && item.pk === `USER#${user.userId}`).map((item) => item.auditId);

beforeAll(async () => {
  t = await startTestStack();
  user = await signIn(t, 'una@elsewhere.example.test', 'Una');
  await addDomain(t, user.userId, SITE);
  other = await signIn(t, 'otto@elsewhere.example.test', 'Otto');
  await addDomain(t, other.userId, SITE);
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

    // Assess: the full scan is a new audit (issue 29 item 6), counted once; the partial report stays.
    const newId = String(unlock.body.auditId);
    expect([unlock.status, unlock.body]).toEqual([202, { auditId: newId, status: 'queued', mode: 'active', message: unlockMessages.started }]);
    expect(newId).not.toBe(auditId);
    expect([before, await scansUsed()]).toEqual([0, 1]);
    expect(await startedScans()).toEqual([newId]);
  });

  it('makes exactly one new audit from two unlocks at once: one 202, one 409, one scan counted, the partial report unchanged and linked to it', async () => {
    // Prepare
    const auditId = await passiveReport(other);
    const stored = await t.stack.deps.audits.getAudit(auditId);
    const before = await scansUsed(other);

    // Act
    const replies = await Promise.all([0, 1].map(() => api(t, 'POST', `/api/audits/${auditId}/unlock`, other.token)));

    // Assess
    expect(replies.map((r) => r.status).sort()).toEqual([202, 409]);
    const won = replies.find((r) => r.status === 202)!;
    const lost = replies.find((r) => r.status === 409)!;
    expect(lost.body.error).toMatch(/^(audit_superseded|audit_scan_running)$/);
    const newId = String(won.body.auditId);
    expect(await scansUsed(other)).toBe(before + 1);
    const audits = (await tableItems(t)).filter((item) => item.sk === '#AUDIT' && (item.supersedes as { auditId?: string } | undefined)?.auditId === auditId);
    expect(audits.map((item) => item.id)).toEqual([newId]);
    // The partial report as it was (its mode, checks, times), plus the link to its successor.
    const old = await t.stack.deps.audits.getAudit(auditId);
    expect(old).toEqual({ ...stored, supersededBy: { auditId: newId, createdAt: expect.any(String) } });
    expect(old).toMatchObject({ mode: 'passive', status: 'completed', completedAt: stored!.completedAt });
    const next = await t.stack.deps.audits.getAudit(newId);
    expect(next).toMatchObject({ ownerId: other.userId, host: SITE, targetUrl: `https://${SITE}/`, mode: 'active', supersedes: { auditId, completedAt: stored!.completedAt } });
    expect(next!.createdAt >= stored!.completedAt!).toBe(true);
    expect(old!.supersededBy!.createdAt).toBe(next!.createdAt);
    // A third unlock of the partial report: refused, nothing more counted.
    const again = await api(t, 'POST', `/api/audits/${auditId}/unlock`, other.token);
    expect([again.status, again.body]).toEqual([409, { error: 'audit_superseded', message: unlockMessages.superseded }]);
    expect(await scansUsed(other)).toBe(before + 1);
  });

  it('lists both scans in the history, and the report views link them both ways', async () => {
    // Prepare
    const auditId = await passiveReport(other);
    const unlock = await api(t, 'POST', `/api/audits/${auditId}/unlock`, other.token);
    expect(unlock.status).toBe(202);
    const newId = String(unlock.body.auditId);

    // Act
    const history = await api(t, 'GET', '/api/me/audits', other.token);
    const oldView = await api(t, 'GET', `/api/audits/${auditId}`);
    const newView = await api(t, 'GET', `/api/audits/${newId}`);

    // Assess
    const ids = (history.body.audits as { id: string }[]).map((a) => a.id);
    expect(ids).toEqual(expect.arrayContaining([auditId, newId]));
    const completedAt = (await t.stack.deps.audits.getAudit(auditId))!.completedAt;
    const createdAt = (await t.stack.deps.audits.getAudit(newId))!.createdAt;
    expect(oldView.body.result).toMatchObject({ scan_mode: 'passive', superseded_by: { audit_id: newId, created_at: createdAt } });
    expect(oldView.body.result.supersedes).toBeUndefined();
    expect(newView.body.result).toMatchObject({ supersedes: { audit_id: auditId, completed_at: completedAt } });
    expect(newView.body.result.superseded_by).toBeUndefined();
    // A share link's view names no audit id: neither link.
    const share = await api(t, 'POST', `/api/audits/${auditId}/shares`, other.token);
    expect(share.status).toBe(201);
    const shared = await api(t, 'GET', `/api/shared-audits/${String(share.body.shareToken)}`);
    expect(shared.status).toBe(200);
    expect(shared.body.audit).toMatchObject({ scan_mode: 'passive' });
    expect(JSON.stringify(shared.body)).not.toContain(newId);
    expect(shared.body.audit.superseded_by).toBeUndefined();
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
    expect((await tableItems(t)).filter((item) => item.sk === '#AUDIT' && (item.supersedes as { auditId?: string } | undefined)?.auditId === auditId)).toEqual([]);
  });
  it('takes the mark back when the new audit cannot be made, so the partial report may be unlocked again', async () => {
    // Prepare: the new audit's id is taken already (its conditional put fails).
    const auditId = await passiveReport(other);
    const taken = await passiveReport(other);
    const stored = await t.stack.deps.audits.getAudit(auditId);

    // Act
    const attempt = t.stack.deps.audits.supersedeWithActive(auditId, { id: taken, createdAt: new Date().toISOString() });

    // Assess
    await expect(attempt).rejects.toThrow();
    expect(await t.stack.deps.audits.getAudit(auditId)).toEqual(stored);
    const again = await t.stack.deps.audits.supersedeWithActive(auditId, { id: randomUUID(), createdAt: new Date().toISOString() });
    expect(again).toMatchObject({ mode: 'active', status: 'queued', supersedes: { auditId } });
  });

  it("deletes both the partial report and the full scan's new one with the account", async () => {
    // Prepare: `other`'s reports, one of them unlocked (the tests above left more).
    const auditId = await passiveReport(other);
    const unlock = await api(t, 'POST', `/api/audits/${auditId}/unlock`, other.token);
    expect(unlock.status).toBe(202);
    const newId = String(unlock.body.auditId);
    const itemsOf = async (id: string) => (await tableItems(t)).filter((item) => item.pk === `AUDIT#${id}` || item.auditId === id);
    expect((await itemsOf(auditId)).length).toBeGreaterThan(0);
    expect((await itemsOf(newId)).length).toBeGreaterThan(0);

    // Act
    const deleted = await api(t, 'DELETE', '/api/me', other.token);

    // Assess
    expect(deleted.status).toBe(204);
    expect([await itemsOf(auditId), await itemsOf(newId)]).toEqual([[], []]);
  });
});
