import { expect } from 'vitest';
import { buildDeps } from '../../lambdas/composition.js';
import type { Audit } from '../../lambdas/domain/audit.js';
import { scheduleMonitoringRescans } from '../../lambdas/use-cases/monitoring.js';
import { type TestStack, waitForAudit } from './local-stack.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The real scheduler run at `now` (deps whose clock reads `now`) must queue exactly one rescan for
 * the user; waits for the real worker to complete it and to fold it into the user's issue history
 * of `domain` (the worker does that after marking the audit completed, which is what the API shows
 * first), and returns the stored audit.
 */
export async function monitoringRescan(t: TestStack, user: { userId: string }, domain: string, now: Date, timeoutMs = 60_000): Promise<Audit> {
  const { queued } = await scheduleMonitoringRescans(buildDeps(t.stack.config, { clock: { now: () => now } }), now);
  const mine = queued.filter((q) => q.userId === user.userId);
  expect(mine).toHaveLength(1);
  const auditId = mine[0]!.auditId;
  expect((await waitForAudit(t.stack.url, auditId, timeoutMs)).status).toBe('completed');
  const deadline = Date.now() + 20_000;
  while ((await t.stack.deps.issueHistory.get(user.userId, domain))?.lastAuditId !== auditId && Date.now() < deadline) await sleep(100);
  return (await t.stack.deps.audits.getAudit(auditId))!;
}
