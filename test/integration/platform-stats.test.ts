import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAuditView } from '../../lambdas/domain/audit-view.js';
import { runScan } from '../../lambdas/use-cases/run-scan.js';
import { postJson, startTestStack, type TestStack, validLead, waitForAudit } from '../support/local-stack.js';

let t: TestStack;

beforeAll(async () => {
  t = await startTestStack({ SCAN_ALLOW_PRIVATE_TARGETS: '1' });
});
afterAll(async () => {
  await t?.close();
});

async function stats() {
  const response = await fetch(`${t.stack.url}/api/stats`);
  return { status: response.status, cacheControl: response.headers.get('cache-control'), body: (await response.json()) as Record<string, unknown> };
}

const seconds = (audit: Record<string, unknown>) => (Date.parse(String(audit.completedAt)) - Date.parse(String(audit.startedAt))) / 1000;
/** The report's own count of critical issues (the counters the results page shows). */
const critical = async (audit: Record<string, unknown>) => buildAuditView((await t.stack.deps.audits.getAudit(String(audit.id)))!).counters.criticalIssues;

describe('GET /api/stats', () => {
  it('starts from nothing measured: no audits, no scan time, no critical issues, no countries', async () => {
    const reply = await stats();
    expect(reply.status).toBe(200);
    expect(reply.cacheControl).toBe('public, max-age=300');
    expect(reply.body).toEqual({
      auditsCompleted: 0,
      countries: 0,
      medianScanSeconds: null,
      averageScanSeconds: null,
      averageCriticalIssues: null,
      samples: { scanTimes: 0, criticalIssues: 0 },
    });
  });

  it('counts each completed audit: the median and average scan times, critical issues per audit and the lead\'s country', async () => {
    const first = await postJson(`${t.stack.url}/api/leads`, validLead);
    const one = await waitForAudit(t.stack.url, String(first.body.auditId), 30_000);
    expect(one.status).toBe('completed');
    expect((await stats()).body).toEqual({
      auditsCompleted: 1,
      countries: 1,
      medianScanSeconds: Math.round(seconds(one)),
      averageScanSeconds: Math.round(seconds(one) * 10) / 10,
      averageCriticalIssues: await critical(one),
      samples: { scanTimes: 1, criticalIssues: 1 },
    });

    const second = await postJson(`${t.stack.url}/api/leads`, { ...validLead, businessName: 'Second' });
    const two = await waitForAudit(t.stack.url, String(second.body.auditId), 30_000);
    expect(two.status).toBe('completed');
    expect((await stats()).body).toEqual({
      auditsCompleted: 2,
      countries: 1,
      medianScanSeconds: Math.round((Math.round(seconds(one)) + Math.round(seconds(two))) / 2),
      averageScanSeconds: Math.round(((seconds(one) + seconds(two)) / 2) * 10) / 10,
      averageCriticalIssues: Math.round((((await critical(one)) + (await critical(two))) / 2) * 10) / 10,
      samples: { scanTimes: 2, criticalIssues: 2 },
    });
  });

  it('does not count a failed audit, nor a completed one delivered again', async () => {
    const before = (await stats()).body;
    const failed = await postJson(`${t.stack.url}/api/leads`, { ...validLead, webUrl: 'nowhere.example.test' });
    expect((await waitForAudit(t.stack.url, String(failed.body.auditId))).status).toBe('failed');
    const done = (await postJson(`${t.stack.url}/api/leads`, { ...validLead, businessName: 'Third' })).body.auditId as string;
    expect((await waitForAudit(t.stack.url, done, 30_000)).status).toBe('completed');
    const afterOne = (await stats()).body;

    // The queue delivers at least once: the same job again changes nothing.
    expect(await runScan(t.stack.deps, { auditId: done, kind: 'scan' })).toBe('skipped');

    expect(afterOne.auditsCompleted).toBe((before.auditsCompleted as number) + 1);
    expect((await stats()).body).toEqual(afterOne);
  });
});
