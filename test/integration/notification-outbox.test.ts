import { coverageOf } from '../../lambdas/domain/coverage.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deps } from '../../lambdas/composition.js';
import type { MonitoringChange } from '../../lambdas/domain/monitoring-diff.js';
import { deliverAlert, listAlerts } from '../../lambdas/use-cases/monitoring.js';
import { make as makeSweeper } from '../../lambdas/workers/sweeper.js';
import { api, setSubscription, signIn, verifyAddressByCode } from '../support/accounts.js';
import { postJson, startTestStack, type TestStack, validLead, waitForAudit } from '../support/local-stack.js';
import { mailbox, smsOutbox } from '../support/post-from.js';
import { type Item, tableItems } from '../support/table.js';

/**
 * DECISIONS "Mail never fails a scan", over the whole local stack: SES refusing a message (its sandbox
 * refuses addresses nobody verified) never fails the scan or the request that caused it. The message
 * waits in the notification outbox (the table) and a later sweeper run sends it, once. Covered here: a
 * new account's set-password link, a monitoring rescan's 'scan completed' email, an alert by email and SMS,
 * two sweeps at once, and an attempt cut off mid-send (given up, never sent twice). The refusals are
 * injected into the stack's real adapters; the sweeper runs with a clock set past each wait.
 */
let t: TestStack;

beforeAll(async () => {
  t = await startTestStack({ SCAN_ALLOW_PRIVATE_TARGETS: '1' });
});
afterAll(async () => {
  await t?.close();
});

/** Makes a real adapter refuse what `refused` picks, as SES's sandbox (or SNS) would, until restored. */
function refuse<T extends { send(message: never): Promise<unknown> }>(adapter: T, refused: (message: Parameters<T['send']>[0]) => boolean) {
  const original = adapter.send.bind(adapter) as (message: unknown) => Promise<unknown>;
  let refusals = 0;
  (adapter as { send: unknown }).send = async (message: Parameters<T['send']>[0]) => {
    if (!refused(message)) return original(message);
    refusals += 1;
    throw Object.assign(new Error('Email address is not verified. The following identities failed the check in region AP-SOUTHEAST-2'), { name: 'MessageRejected' });
  };
  return { refusals: () => refusals, restore: () => delete (adapter as { send?: unknown }).send };
}

/** The stack's own adapters (faults included) with a clock that reads `now`. */
function withClock(deps: Deps, now: Date): Deps {
  return new Proxy(deps, { get: (target, key) => (key === 'clock' ? { now: () => now } : (Reflect.get(target, key) as unknown)) });
}

async function outboxItems(about: (item: { auditId?: string; userId?: string }) => boolean): Promise<Item[]> {
  return (await tableItems(t)).filter((item) => item.type === 'notification' && about((item.about ?? {}) as { auditId?: string; userId?: string }));
}

/**
 * Waits (briefly) for `count` outbox items whose first attempt has ended: the worker stores a completion's
 * email right after it completes the audit, then tries it.
 */
async function waitForOutbox(about: (item: { auditId?: string; userId?: string }) => boolean, count: number): Promise<Item[]> {
  for (let i = 0; i < 50; i += 1) {
    const items = await outboxItems(about);
    if (items.length >= count && items.every((item) => item.status !== 'sending' && Number(item.attempts) > 0)) return items;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return outboxItems(about);
}

/** A sweeper run just after the latest of the items' next attempts. */
const sweepAfter = (items: Item[]) => makeSweeper(withClock(t.stack.deps, new Date(Math.max(...items.map((item) => Date.parse(String(item.nextAttemptAt)))) + 1_000)))();

/** The subjects mailed to `to` through the outbox (the code that proved the address went before, straight from the API). */
const subjects = async (to: string) =>
  (await mailbox(t.stack.mailboxUrl, to))
    .map((mail) => mail.subject)
    .filter((subject) => subject !== 'Your Rampart verification code')
    .sort();

describe('the notification outbox', () => {
  it('answers a lead at once when SES refuses its address; a later sweep sends the set-password link and the report email, once each', { timeout: 60_000 }, async () => {
    const email = 'sandboxed-lead@example.test';
    // DECISIONS "Scan modes" [attacker]: the address proven by its code (before SES refuses it), so the lead creates the account at once.
    await verifyAddressByCode(t, '127.0.0.1', email, validLead.webUrl);
    const fault = refuse(t.stack.deps.mailer, (message) => message.to === email);
    try {
      const lead = await postJson(`${t.stack.url}/api/leads`, { ...validLead, email, createAccount: true });
      expect(lead.status).toBe(201);
      expect(lead.body.accountCreated).toBe(true);
      const auditId = String(lead.body.auditId);
      expect((await waitForAudit(t.stack.url, auditId)).status).toBe('completed');
      const userId = await t.stack.deps.users.findUserIdByEmail(email);
      const mine = (about: { auditId?: string; userId?: string }) => about.auditId === auditId || about.userId === userId;
      const waiting = await waitForOutbox(mine, 2);

      expect(waiting.map((item) => [item.kind, item.status, item.attempts]).sort()).toEqual([
        ['account-created', 'pending', 1],
        ['audit-completed', 'pending', 1],
      ]);
      expect(fault.refusals()).toBe(2);
      expect(await subjects(email)).toEqual([]);
      for (const item of waiting) expect(item.expiresAt).toBe(Math.floor(Date.parse(String(item.createdAt)) / 1000) + 30 * 86_400);

      fault.restore();
      // Two sweeps at once (a slow run overlapping the next): each message is still sent once.
      const [first, second] = await Promise.all([sweepAfter(waiting), sweepAfter(waiting)]);

      expect(first.notifications.sent + second.notifications.sent).toBe(2);
      const stored = (await t.stack.deps.audits.getAudit(auditId))!;
      const partial = coverageOf(stored).partial ? ' (partial)' : '';
      expect(await subjects(email)).toEqual(['Your Rampart account: choose your password', `Your Rampart security report for shop.example.test: grade ${String(stored.grade)}${partial}`]);
      const credentials = (await mailbox(t.stack.mailboxUrl, email)).find((mail) => mail.subject.endsWith('choose your password'));
      expect(credentials?.body.text).toMatch(/\/auth\/set-password#token=[A-Za-z0-9_-]{43}/);
      const sent = await outboxItems(mine);
      expect(sent.map((item) => [item.kind, item.status, item.attempts]).sort()).toEqual([
        ['account-created', 'sent', 2],
        ['audit-completed', 'sent', 2],
      ]);
      // Sent: the link and the address are no longer stored in the outbox.
      for (const item of sent) expect(item.message).toBeUndefined();
    } finally {
      fault.restore();
    }
  });

  it('completes a monitoring rescan whose scan-completed email SES refuses, and sends the email on a later sweep', { timeout: 60_000 }, async () => {
    const user = await signIn(t, 'sandboxed-owner@example.test', 'Owen');
    expect((await api(t, 'GET', '/api/me', user.token)).status).toBe(200);
    const fault = refuse(t.stack.deps.mailer, (message) => message.to === user.email);
    try {
      const auditId = crypto.randomUUID();
      await t.stack.deps.audits.createAudit({ id: auditId, ownerId: user.userId, targetUrl: 'https://shop.example.test/', host: 'shop.example.test', status: 'queued', createdAt: new Date().toISOString(), checks: [], origin: 'monitoring' });
      await t.stack.deps.scanJobs.enqueue({ auditId, kind: 'scan' }, 'free');
      expect((await waitForAudit(t.stack.url, auditId)).status).toBe('completed');
      const waiting = await waitForOutbox((about) => about.auditId === auditId, 1);

      expect(waiting.map((item) => [item.kind, item.status, item.attempts])).toEqual([['scan-completed', 'pending', 1]]);
      fault.restore();
      const run = await sweepAfter(waiting);

      expect(run.notifications).toEqual({ sent: 1, retrying: 0, abandoned: 0 });
      expect(await subjects(user.email)).toEqual([expect.stringContaining('shop.example.test')]);
    } finally {
      fault.restore();
    }
  });

  it('lists an alert refused by email and SMS only once each has gone, after a later sweep', { timeout: 60_000 }, async () => {
    const user = await signIn(t, 'sandboxed-alerts@example.test', 'Alma');
    const mobileNumber = '+61412345611';
    expect((await api(t, 'PUT', '/api/me', user.token, { firstName: 'Alma', lastName: 'Tester', company: '', mobileNumber })).status).toBe(200);
    await setSubscription(t, user.userId, 'monitor-plus', 'active');
    const change: MonitoringChange = { type: 'port_opened', domain: 'alerts.example.test', dedupeKey: `port:${crypto.randomUUID()}`, port: 3306, service: 'mysql', risk: 'high' };
    const email = refuse(t.stack.deps.mailer, (message) => message.to === user.email);
    const sms = refuse(t.stack.deps.sms, (message) => message.to === mobileNumber);
    const auditId = crypto.randomUUID();
    try {
      const outcome = await deliverAlert(t.stack.deps, { userId: user.userId, domain: 'alerts.example.test', changes: [change], auditId });
      const waiting = await outboxItems((about) => about.auditId === auditId);

      expect(outcome).toBe('sent');
      expect([email.refusals(), sms.refusals()]).toEqual([1, 1]);
      expect(waiting.map((item) => [(item.message as { channel: string }).channel, item.status]).sort()).toEqual([
        ['email', 'pending'],
        ['sms', 'pending'],
      ]);
      expect((await listAlerts(t.stack.deps, { userId: user.userId, email: user.email, firstName: '', lastName: '' }, {})).alerts).toEqual([]);

      email.restore();
      sms.restore();
      const run = await sweepAfter(waiting);

      expect(run.notifications).toEqual({ sent: 2, retrying: 0, abandoned: 0 });
      expect(await subjects(user.email)).toHaveLength(1);
      expect((await smsOutbox(t.stack.url)).filter((message) => message.to === mobileNumber)).toHaveLength(1);
      const listed = (await listAlerts(t.stack.deps, { userId: user.userId, email: user.email, firstName: '', lastName: '' }, {})).alerts;
      expect(listed.map((alert) => alert.channel).sort()).toEqual(['email', 'sms']);
    } finally {
      email.restore();
      sms.restore();
    }
  });

  it('gives up an attempt cut off mid-send instead of sending it again', async () => {
    const id = crypto.randomUUID();
    const to = 'cut-off@example.test';
    const now = new Date();
    const outbox = t.stack.deps.notifications;
    await outbox.add({ id, kind: 'audit-completed', message: { channel: 'email', email: { to, subject: 'Cut off', text: 'Cut off' } }, about: { auditId: id } }, now.toISOString());
    // A process claimed the attempt and was killed before it could record how it went.
    expect(await outbox.claimAttempt(id, 0, now.toISOString(), new Date(now.getTime() + 15 * 60_000).toISOString())).toMatchObject({ status: 'sending', attempts: 1 });

    const early = await makeSweeper(withClock(t.stack.deps, new Date(now.getTime() + 60_000)))();
    const late = await makeSweeper(withClock(t.stack.deps, new Date(now.getTime() + 16 * 60_000)))();

    expect(early.notifications).toEqual({ sent: 0, retrying: 0, abandoned: 0 });
    expect(late.notifications).toEqual({ sent: 0, retrying: 0, abandoned: 1 });
    expect(await outbox.get(id)).toMatchObject({ status: 'abandoned', attempts: 1 });
    expect(await mailbox(t.stack.mailboxUrl, to)).toEqual([]);
  });
});
