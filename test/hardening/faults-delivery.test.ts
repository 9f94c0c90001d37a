import type { SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deps } from '../../lambdas/composition.js';
import { make as makeScanWorker } from '../../lambdas/workers/scan-worker.js';
import { postJson, startTestStack, type TestStack, validLead, waitForAudit } from '../support/local-stack.js';

/**
 * Issue 11, "Faults": SES and S3 failing, and a worker job that throws. A failure is retried or
 * reported, never swallowed: no email or report is lost, and one bad job never takes its batch
 * neighbours down with it. The faults are injected into the real adapters of the local stack.
 */
let t: TestStack;
const api = (path: string) => `${t.stack.url}${path}`;

interface MailboxEmail {
  subject: string;
  destination: { to: string[] };
}

async function mailTo(address: string): Promise<MailboxEmail[]> {
  const store = (await fetch(`${t.stack.mailboxUrl}/store`).then((r) => r.json())) as { emails: MailboxEmail[] };
  return store.emails.filter((e) => e.destination.to.includes(address));
}

/** Makes one method of a real adapter throw its first `times` calls, then behave again. */
function failFirst<T extends object, K extends keyof T>(target: T, method: K, times: number, error: Error): { calls: () => number; restore: () => void } {
  const original = target[method] as unknown as (...args: unknown[]) => Promise<unknown>;
  let calls = 0;
  (target as Record<K, unknown>)[method] = async (...args: unknown[]) => {
    calls += 1;
    if (calls <= times) throw error;
    return original.apply(target, args);
  };
  return { calls: () => calls, restore: () => delete (target as Record<K, unknown>)[method] };
}

beforeAll(async () => {
  t = await startTestStack({ SCAN_ALLOW_PRIVATE_TARGETS: '1' });
});
afterAll(async () => {
  await t?.close();
});

describe('SES failing', () => {
  it('retries the job until the completion email is sent, exactly once', { timeout: 60_000 }, async () => {
    const email = 'ses-fault@example.test';
    const fault = failFirst(t.stack.deps.mailer, 'send', 1, Object.assign(new Error('Throttling: Maximum sending rate exceeded'), { name: 'Throttling' }));
    try {
      const lead = await postJson(api('/api/leads'), { ...validLead, email });
      expect(lead.status).toBe(201);
      const audit = await waitForAudit(t.stack.url, String(lead.body.auditId));
      expect(audit.status).toBe('completed');

      // The queue redelivers after its retry delay (5 s locally).
      const deadline = Date.now() + 30_000;
      while ((await mailTo(email)).length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250));
      await new Promise((resolve) => setTimeout(resolve, 1_000));

      expect(fault.calls()).toBe(2);
      expect((await mailTo(email)).map((m) => m.subject)).toHaveLength(1);
    } finally {
      fault.restore();
    }
  });
});

describe('S3 failing', () => {
  it('answers the PDF request with a clean error, stores nothing half-made, and serves it on the next try', { timeout: 60_000 }, async () => {
    const lead = await postJson(api('/api/leads'), { ...validLead, email: 's3-fault@example.test' });
    const auditId = String(lead.body.auditId);
    expect((await waitForAudit(t.stack.url, auditId)).status).toBe('completed');
    const fault = failFirst(t.stack.deps.reports, 'put', 1, Object.assign(new Error('SlowDown: Please reduce your request rate.'), { name: 'SlowDown' }));
    try {
      const failed = await fetch(api(`/api/audits/${auditId}/report.pdf`), { redirect: 'manual' });
      const failure = (await failed.json()) as Record<string, unknown>;
      expect(failed.status).toBe(500);
      expect(failure).toEqual({ error: 'internal_error', message: 'Something went wrong on our side. Please try again.' });
      expect(await t.stack.deps.reports.exists(`reports/${auditId}.pdf`)).toBe(false);

      const retried = await fetch(api(`/api/audits/${auditId}/report.pdf`), { redirect: 'manual' });
      expect(retried.status).toBe(302);
      const pdf = await fetch(retried.headers.get('location') ?? '');
      expect(pdf.status).toBe(200);
      expect(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString()).toBe('%PDF-');
      expect(fault.calls()).toBe(2);
    } finally {
      fault.restore();
    }
  });
});

describe('a scan job that throws', () => {
  it('fails only itself in its batch: its neighbours complete and are not retried', { timeout: 60_000 }, async () => {
    // This test drives the worker itself, with records it builds.
    await t.stack.stopWorker();
    const ids: string[] = [];
    for (const email of ['batch-a@example.test', 'batch-b@example.test', 'batch-c@example.test']) {
      const lead = await postJson(api('/api/leads'), { ...validLead, email });
      ids.push(String(lead.body.auditId));
    }
    const poisoned = ids[1]!;
    // The table throws for one audit only (a hot partition, say): the job for it fails, the others must not.
    const audits = t.stack.deps.audits;
    const deps = new Proxy(t.stack.deps, {
      get(target, key, receiver) {
        if (key !== 'audits') return Reflect.get(target, key, receiver) as unknown;
        return new Proxy(audits, {
          get(inner, name) {
            const value = Reflect.get(inner, name, inner) as unknown;
            if (name !== 'getAudit' || typeof value !== 'function') return typeof value === 'function' ? value.bind(inner) : value;
            return async (id: string) => {
              if (id === poisoned) throw Object.assign(new Error('ProvisionedThroughputExceededException'), { name: 'ProvisionedThroughputExceededException' });
              return (value as (id: string) => Promise<unknown>).call(inner, id);
            };
          },
        });
      },
    }) as Deps;
    const event = {
      Records: ids.map((auditId, i) => ({
        messageId: `m-${i}`,
        receiptHandle: `r-${i}`,
        body: JSON.stringify({ auditId, kind: 'scan' }),
        attributes: { ApproximateReceiveCount: '1', SentTimestamp: String(Date.now()), SenderId: 'test', ApproximateFirstReceiveTimestamp: String(Date.now()) },
        messageAttributes: {},
        md5OfBody: '',
        eventSource: 'aws:sqs',
        eventSourceARN: 'arn:aws:sqs:ap-southeast-2:000000000000:rampart-scan-jobs',
        awsRegion: 'ap-southeast-2',
      })),
    } as SQSEvent;

    const response = await makeScanWorker(deps)(event);

    expect(response.batchItemFailures).toEqual([{ itemIdentifier: 'm-1' }]);
    const statuses = await Promise.all(ids.map(async (id) => (await t.stack.deps.audits.getAudit(id))?.status));
    expect(statuses).toEqual(['completed', 'queued', 'completed']);
  });
});
