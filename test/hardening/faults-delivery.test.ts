import type { SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RecordingMetrics } from '../../lambdas/adapters/recording-metrics.adapter.js';
import type { Deps } from '../../lambdas/composition.js';
import type { Metrics } from '../../lambdas/domain/metrics.port.js';
import { make as makeScanWorker } from '../../lambdas/workers/scan-worker.js';
import { make as makeSweeper } from '../../lambdas/workers/sweeper.js';
import { verifyAddressByCode } from '../support/accounts.js';
import { postJson, startTestStack, type TestStack, validLead, waitForAudit } from '../support/local-stack.js';
import { type Item, tableItems } from '../support/table.js';

/**
 * Issue 11, "Faults": SES and S3 failing, and a worker job that throws. A failure is retried or
 * reported, never swallowed: one bad job never takes its batch neighbours down with it, and an email
 * SES refuses never fails its scan (DECISIONS "Mail never fails a scan"): the notification outbox
 * retries it on the sweeper's runs, bounded and counted, and gives it up loudly. The faults are
 * injected into the real adapters of the local stack.
 */
let t: TestStack;
const api = (path: string) => `${t.stack.url}${path}`;

interface MailboxEmail {
  subject: string;
  destination: { to: string[] };
}

/** The mail the address got besides the code that proved it (sent before any fault is injected). */
async function mailTo(address: string): Promise<MailboxEmail[]> {
  const store = (await fetch(`${t.stack.mailboxUrl}/store`).then((r) => r.json())) as { emails: MailboxEmail[] };
  return store.emails.filter((e) => e.destination.to.includes(address) && !/verification code/.test(e.subject));
}

/** SES in its sandbox refusing an address nobody verified (MessageRejected). */
function sandboxRefusal(address: string): Error {
  return Object.assign(new Error(`Email address is not verified. The following identities failed the check in region AP-SOUTHEAST-2: ${address}`), { name: 'MessageRejected' });
}

/** The audit's notification in the outbox (the table's own item). */
async function outboxItemOf(auditId: string): Promise<Item> {
  const found = (await tableItems(t)).filter((item) => item.type === 'notification' && (item.about as { auditId?: string } | undefined)?.auditId === auditId);
  if (found.length !== 1) throw new Error(`Expected one outbox item for ${auditId}, found ${found.length}`);
  return found[0]!;
}

/** The stack's own adapters (faults included) with a clock that reads `now`: a sweeper run at a later time. */
function withClock(deps: Deps, now: Date, metrics?: Metrics): Deps {
  return new Proxy(deps, {
    get: (target, key) => (key === 'clock' ? { now: () => now } : key === 'metrics' && metrics ? metrics : (Reflect.get(target, key) as unknown)),
  });
}

const justAfter = (time: string) => new Date(Date.parse(time) + 1_000);

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
  it('completes the audit at once; the outbox sends the refused completion email on a later sweep, exactly once', { timeout: 60_000 }, async () => {
    const email = 'ses-fault@example.test';
    // The address proven by its code first (DECISIONS "Scan modes" [attacker]), so the lead mails no code: the report email is the only send.
    await verifyAddressByCode(t, '127.0.0.1', email, validLead.webUrl);
    const fault = failFirst(t.stack.deps.mailer, 'send', 1, sandboxRefusal(email));
    try {
      const lead = await postJson(api('/api/leads'), { ...validLead, email });
      expect(lead.status).toBe(201);
      const auditId = String(lead.body.auditId);
      const audit = await waitForAudit(t.stack.url, auditId);
      expect(audit.status).toBe('completed');

      // Longer than the queue's retry delay (5 s locally): the old worker failed the job and its redelivery sent the email.
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      expect(fault.calls()).toBe(1);
      expect(await mailTo(email)).toHaveLength(0);
      const waiting = await outboxItemOf(auditId);
      expect(waiting).toMatchObject({ kind: 'audit-completed', status: 'pending', attempts: 1, lastError: expect.stringContaining('Email address is not verified') });

      const sweep = makeSweeper(withClock(t.stack.deps, justAfter(String(waiting.nextAttemptAt))));
      const first = await sweep();
      const second = await sweep();

      expect(first.notifications).toEqual({ sent: 1, retrying: 0, abandoned: 0 });
      expect(second.notifications).toEqual({ sent: 0, retrying: 0, abandoned: 0 });
      expect(fault.calls()).toBe(2);
      expect((await mailTo(email)).map((m) => m.subject)).toEqual([expect.stringContaining('Your Rampart security report for shop.example.test')]);
      const sent = await outboxItemOf(auditId);
      expect(sent).toMatchObject({ status: 'sent', attempts: 2 });
      // Once sent, the outbox keeps only the attempt record: no message, no recipient.
      expect(sent.message).toBeUndefined();
    } finally {
      fault.restore();
    }
  });

  it('gives a notification up after 5 refused attempts: abandoned, counted, and logged at ERROR for the alarm', { timeout: 60_000 }, async () => {
    const email = 'ses-never@example.test';
    // The address proven by its code first (DECISIONS "Scan modes" [attacker]), so the lead mails no code: the report email is the only send.
    await verifyAddressByCode(t, '127.0.0.1', email, validLead.webUrl);
    const fault = failFirst(t.stack.deps.mailer, 'send', Number.POSITIVE_INFINITY, sandboxRefusal(email));
    const errors = vi.spyOn(t.stack.deps.log, 'error');
    try {
      const lead = await postJson(api('/api/leads'), { ...validLead, email });
      const auditId = String(lead.body.auditId);
      expect((await waitForAudit(t.stack.url, auditId)).status).toBe('completed');
      // The worker stores the email and makes its first attempt right after it completes the audit: wait for that attempt's outcome.
      // Stored pending with 0 attempts, then claimed (sending, 1), then back to pending (1) when refused: wait for the last.
      const refusedOnce = async () => {
        const item = await outboxItemOf(auditId).catch(() => undefined);
        return item?.status === 'pending' && Number(item.attempts) === 1;
      };
      for (let i = 0; i < 200 && !(await refusedOnce()); i += 1) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await refusedOnce()).toBe(true);

      const metrics = new RecordingMetrics();
      const runs: Record<string, number>[] = [];
      for (let sweep = 0; sweep < 4; sweep += 1) {
        const item = await outboxItemOf(auditId);
        runs.push((await makeSweeper(withClock(t.stack.deps, justAfter(String(item.nextAttemptAt)), metrics))()).notifications as unknown as Record<string, number>);
      }

      expect(runs).toEqual([
        { sent: 0, retrying: 1, abandoned: 0 },
        { sent: 0, retrying: 1, abandoned: 0 },
        { sent: 0, retrying: 1, abandoned: 0 },
        { sent: 0, retrying: 0, abandoned: 1 },
      ]);
      expect(fault.calls()).toBe(5);
      const abandoned = await outboxItemOf(auditId);
      expect(abandoned).toMatchObject({ status: 'abandoned', attempts: 5, lastError: expect.stringContaining('Email address is not verified') });
      expect(abandoned.message).toBeUndefined();
      expect(errors).toHaveBeenCalledWith('Notification abandoned after 5 attempts', expect.objectContaining({ kind: 'audit-completed', auditId, attempts: 5 }));
      // The business metric the NotificationsAbandoned alarm watches.
      expect(metrics.recorded).toEqual([{ name: 'NotificationsAbandoned', value: 1 }]);
      // Given up is final: a later sweep, however late, tries nothing more.
      const after = await makeSweeper(withClock(t.stack.deps, new Date(Date.now() + 30 * 24 * 3_600_000)))();
      expect(after.notifications).toEqual({ sent: 0, retrying: 0, abandoned: 0 });
      expect(fault.calls()).toBe(5);
      expect(await mailTo(email)).toHaveLength(0);
    } finally {
      errors.mockRestore();
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
