import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from '../support/local-stack.js';

/**
 * A share link's default number of uses over the local stack (DECISIONS "Sharing", README
 * `SHARE_MAX_USES` = 100): the stack is started without setting it, so the default is what is
 * tested; the 100th open works and the 101st is `410 share_exhausted`, one at a time and all at once.
 */

let t: TestStack;
let auditId: string;
const DEFAULT_MAX_USES = 100;
const EXHAUSTED = { success: false, error: 'share_exhausted', message: 'This share link has reached its maximum number of uses.' };

beforeAll(async () => {
  t = await startTestStack();
  // A completed audit written through the repositories, as the scan worker leaves one: a share needs a completed report.
  auditId = crypto.randomUUID();
  const now = Date.now();
  await t.stack.deps.audits.createAudit({ id: auditId, ownerId: 'share-owner', targetUrl: 'https://shop.example.test/', host: 'shop.example.test', status: 'queued', createdAt: new Date(now - 60_000).toISOString(), checks: [] });
  await t.stack.deps.audits.markInProgress(auditId, new Date(now - 50_000).toISOString());
  await t.stack.deps.audits.saveCheck(auditId, { name: 'http', status: 'ok', durationMs: 5, findings: [] });
  await t.stack.deps.audits.complete(auditId, { score: 90, grade: 'A', riskLevel: 'low', completedAt: new Date(now - 10_000).toISOString() });
}, 60_000);

afterAll(async () => {
  await t?.close();
});

async function newShare(): Promise<{ path: string; maxUses: unknown }> {
  const response = await fetch(`${t.stack.url}/api/audits/${auditId}/shares`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  const body = (await response.json()) as { shareToken: string; maxUses: unknown };
  expect(response.status).toBe(201);
  return { path: `${t.stack.url}/api/shared-audits/${body.shareToken}`, maxUses: body.maxUses };
}

const open = async (path: string) => {
  const response = await fetch(path);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

describe('a share link with the default number of uses', () => {
  it('opens for the 100th use, with none left, and refuses the 101st with 410 share_exhausted', async () => {
    // Prepare
    const share = await newShare();

    // Act
    const opens = [];
    for (let use = 1; use <= DEFAULT_MAX_USES; use++) opens.push(await open(share.path));
    const extra = await open(share.path);
    const again = await open(share.path);

    // Assess
    expect(share.maxUses).toBe(DEFAULT_MAX_USES);
    expect(opens.filter((reply) => reply.status !== 200)).toEqual([]);
    expect(opens.map((reply) => reply.body.remainingUses)).toEqual(Array.from({ length: DEFAULT_MAX_USES }, (_, index) => DEFAULT_MAX_USES - 1 - index));
    expect([opens[99]!.status, opens[99]!.body.success, opens[99]!.body.remainingUses]).toEqual([200, true, 0]);
    expect([extra.status, extra.body]).toEqual([410, EXHAUSTED]);
    expect([again.status, again.body]).toEqual([410, EXHAUSTED]);
  }, 60_000);

  it('lets exactly 100 of 110 simultaneous opens through and refuses the other 10', async () => {
    // Prepare
    const share = await newShare();

    // Act
    const replies = await Promise.all(Array.from({ length: DEFAULT_MAX_USES + 10 }, () => open(share.path)));

    // Assess
    expect(replies.filter((reply) => reply.status === 200)).toHaveLength(DEFAULT_MAX_USES);
    expect(new Set(replies.filter((reply) => reply.status === 200).map((reply) => reply.body.remainingUses)).size).toBe(DEFAULT_MAX_USES);
    expect(replies.filter((reply) => reply.status !== 200).map((reply) => [reply.status, reply.body])).toEqual(Array.from({ length: 10 }, () => [410, EXHAUSTED]));
  }, 60_000);
});
