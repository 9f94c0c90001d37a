import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecordingMetrics } from '../../lambdas/adapters/recording-metrics.adapter.js';
import type { Deps } from '../../lambdas/composition.js';
import { runScan } from '../../lambdas/use-cases/run-scan.js';
import { startTestStack, type TestStack } from '../support/local-stack.js';

let t: TestStack;

beforeAll(async () => {
  t = await startTestStack({ SCAN_ALLOW_PRIVATE_TARGETS: '1' });
});
afterAll(async () => {
  await t?.close();
});

/** An audit of `host` stored but not queued, so only this test's runScan scans it. */
async function storedAudit(host: string): Promise<string> {
  const id = randomUUID();
  await t.stack.deps.audits.createAudit({ id, ownerId: 'metrics-owner', targetUrl: `https://${host}/`, host, status: 'queued', createdAt: new Date().toISOString(), checks: [] });
  return id;
}

describe('scan metrics (Powertools EMF on AWS, recorded here)', () => {
  it("count a completed scan once, with its duration and each check's", { timeout: 60_000 }, async () => {
    // Prepare
    const metrics = new RecordingMetrics();
    const deps: Deps = { ...t.stack.deps, metrics };
    const auditId = await storedAudit('shop.example.test');

    // Act
    const outcome = await runScan(deps, { auditId, kind: 'scan' });
    const again = await runScan(deps, { auditId, kind: 'scan' });

    // Assess
    expect([outcome, again]).toEqual(['completed', 'skipped']);
    expect([metrics.total('ScansStarted'), metrics.total('ScansCompleted'), metrics.total('ScansFailed')]).toEqual([1, 1, 0]);
    const [duration, ...more] = metrics.recorded.filter((m) => m.name === 'ScanDurationMs');
    expect(more).toEqual([]);
    expect(duration!.value).toBeGreaterThan(0);
    const audit = await t.stack.deps.audits.getAudit(auditId);
    const timed = metrics.recorded.filter((m) => m.name === 'CheckDurationMs');
    expect(timed.map((m) => m.dimensions?.check).sort()).toEqual(audit!.checks.map((c) => c.name).sort());
    expect(timed.map((m) => m.value)).toEqual(timed.map((m) => audit!.checks.find((c) => c.name === m.dimensions?.check)!.durationMs));
  });

  it('count a scan whose target does not resolve as started and failed, never completed', { timeout: 60_000 }, async () => {
    // Prepare
    const metrics = new RecordingMetrics();
    const auditId = await storedAudit('nowhere.example.test');

    // Act
    const outcome = await runScan({ ...t.stack.deps, metrics }, { auditId, kind: 'scan' });

    // Assess
    expect(outcome).toBe('failed');
    expect([metrics.total('ScansStarted'), metrics.total('ScansCompleted'), metrics.total('ScansFailed')]).toEqual([1, 0, 1]);
    expect(metrics.recorded.filter((m) => m.name === 'ScanDurationMs' || m.name === 'CheckDurationMs')).toEqual([]);
  });
});
