import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { supportMailbox } from '../../lambdas/config.js';
import { singleLineTextMessages } from '../../lambdas/domain/single-line-text.js';
import { supportMessages } from '../../lambdas/domain/support.contract.js';
import { api, setSubscription, signIn, type TestUser } from '../support/accounts.js';
import { startTestStack, type TestStack } from '../support/local-stack.js';

/**
 * The support form over the local stack (DECISIONS "Plan features": "Priority support is a service
 * promise: the support form marks the plan"): requests stored per user, the support mailbox's email
 * marked with the plan and `[Priority]`, the acknowledgement, the list, bad input and the hourly limit.
 */

let t: TestStack;
let plus: TestUser;
let trial: TestUser;
let busy: TestUser;
let other: TestUser;
let SUPPORT: string;

interface StoreEmail {
  subject: string;
  replyTo: string[];
  destination: { to: string[] };
  body: { text?: string; html?: string };
}

async function mailTo(address: string): Promise<StoreEmail[]> {
  const store = (await fetch(`${t.stack.mailboxUrl}/store`).then((r) => r.json())) as { emails: StoreEmail[] };
  return store.emails.filter((e) => e.destination.to.includes(address));
}

const request = (extra: Record<string, unknown> = {}) => ({ category: 'technical', subject: 'Badge not showing', message: 'The badge says not verified although I verified the domain.', ...extra });

beforeAll(async () => {
  t = await startTestStack();
  SUPPORT = supportMailbox(t.stack.config);
  const user = (name: string) => signIn(t, `${name}@support.example.test`, name);
  [plus, trial, busy, other] = await Promise.all([user('plus'), user('trial'), user('busy'), user('other')]);
  await setSubscription(t, plus.userId, 'monitor-plus', 'active');
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('POST /api/me/support-requests', () => {
  it('marks a Monitor Plus request [Priority] with the plan for the support mailbox, and acknowledges within 1 business day', async () => {
    // Act
    const reply = await api(t, 'POST', '/api/me/support-requests', plus.token, request());

    // Assess
    expect(reply.status).toBe(201);
    const created = reply.body.request;
    expect(created).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      reference: expect.stringMatching(/^SR-\d{8}-[0-9A-F]{6}$/),
      category: 'technical',
      subject: 'Badge not showing',
      message: request().message,
      auditId: null,
      status: 'open',
      plan: 'Monitor Plus',
      priority: true,
      createdAt: expect.any(String),
    });
    expect(reply.body.firstResponse).toBe('1 business day');

    expect(SUPPORT).toBe('support@rampart.example');
    const [team] = (await mailTo(SUPPORT)).filter((m) => m.subject.includes(created.reference));
    // Issue 28 finding 16: the user's subject is quoted in the body, never the mail's Subject.
    expect(team!.subject).toBe(`[Priority] ${created.reference} Technical (Monitor Plus)`);
    expect(team!.body.text).toContain('Subject: “Badge not showing”');
    expect(team!.replyTo).toEqual([plus.email]);
    for (const line of [`<${plus.email}>`, `User id: ${plus.userId}`, 'Plan: Monitor Plus', 'Priority support: yes: first response within 1 business day', request().message]) {
      expect(team!.body.text).toContain(line);
    }

    const acks = await mailTo(plus.email);
    expect(acks.map((m) => m.subject)).toEqual([`Rampart support: we received your request ${created.reference}`]);
    expect(acks[0]!.body.text).toContain(`Your reference: ${created.reference}.`);
    expect(acks[0]!.body.text).toContain('As a Monitor Plus customer you have priority support: you can expect our first response within 1 business day.');
  });

  it('sends a trial user’s request without [Priority], naming the trial, with 3 business days, linked to their own audit', async () => {
    // Prepare: an audit of the trial user's.
    const auditId = randomUUID();
    await t.stack.deps.audits.createAudit({ id: auditId, ownerId: trial.userId, targetUrl: 'https://trial.example.test/', host: 'trial.example.test', status: 'queued', createdAt: new Date().toISOString(), checks: [] });

    // Act
    const reply = await api(t, 'POST', '/api/me/support-requests', trial.token, request({ category: 'billing', subject: 'Invoice question', auditId }));

    // Assess
    expect(reply.status).toBe(201);
    expect(reply.body.request).toMatchObject({ plan: 'Free Trial', priority: false, auditId, category: 'billing' });
    expect(reply.body.firstResponse).toBe('3 business days');
    const reference = reply.body.request.reference as string;
    const [team] = (await mailTo(SUPPORT)).filter((m) => m.subject.includes(reference));
    expect(team!.subject).toBe(`${reference} Billing (Free Trial)`);
    expect(team!.body.text).toContain(`Related audit: ${t.stack.url}/results/${auditId}`);
    const [ack] = (await mailTo(trial.email)).filter((m) => m.subject.includes(reference));
    expect(ack!.body.text).toContain('You can expect our first response within 3 business days.');
  });

  it('lists each user’s own requests only, with what their plan promises now', async () => {
    const [mine, theirs, none] = await Promise.all([
      api(t, 'GET', '/api/me/support-requests', plus.token),
      api(t, 'GET', '/api/me/support-requests', trial.token),
      api(t, 'GET', '/api/me/support-requests', other.token),
    ]);

    expect(mine.body.requests.map((r: { subject: string }) => r.subject)).toEqual(['Badge not showing']);
    expect(mine.body.support).toEqual({ plan: 'Monitor Plus', priority: true, firstResponse: '1 business day' });
    expect(theirs.body.requests.map((r: { subject: string }) => r.subject)).toEqual(['Invoice question']);
    expect(theirs.body.support).toEqual({ plan: 'Free Trial', priority: false, firstResponse: '3 business days' });
    expect(none.body).toEqual({ requests: [], support: { plan: 'Free Trial', priority: false, firstResponse: '3 business days' } });
  });

  it('refuses bad input with 400 and the contract’s messages, storing and sending nothing', async () => {
    // Prepare
    const mailsBefore = (await mailTo(SUPPORT)).length;
    const trialAudit = (await api(t, 'GET', '/api/me/audits', trial.token)).body.audits[0].id as string;
    const cases: [unknown, Record<string, string>][] = [
      [{ subject: 'Hello there', message: 'Long enough message.' }, { category: supportMessages.category }],
      [request({ category: 'sales' }), { category: supportMessages.category }],
      [request({ subject: 'Hi' }), { subject: supportMessages.subjectShort }],
      [request({ subject: 'x'.repeat(121) }), { subject: supportMessages.subjectLong }],
      // Issue 28 finding 16: one line, no control or text-direction characters.
      [request({ subject: 'Help\r\nBcc: victim@example.test' }), { subject: singleLineTextMessages.unsafe }],
      [request({ subject: 'Invoice \u202Efdp.exe' }), { subject: singleLineTextMessages.unsafe }],
      [request({ message: 'Too short' }), { message: supportMessages.messageShort }],
      [request({ message: 'y'.repeat(5001) }), { message: supportMessages.messageLong }],
      [request({ auditId: 'not-an-audit' }), { auditId: supportMessages.auditId }],
      // Someone else's audit is not the user's to point support at.
      [request({ auditId: trialAudit }), { auditId: supportMessages.auditNotYours }],
      [request({ priority: true }), { _: 'Unrecognized key: "priority"' }],
    ];

    // Act and assess
    for (const [body, fields] of cases) {
      const reply = await api(t, 'POST', '/api/me/support-requests', other.token, body);
      expect([reply.status, reply.body.error, reply.body.fields]).toEqual([400, 'validation_failed', fields]);
    }
    const notJson = await fetch(`${t.stack.url}/api/me/support-requests`, { method: 'POST', headers: { authorization: `Bearer ${other.token}`, 'content-type': 'application/json' }, body: '{nope' });
    expect(notJson.status).toBe(400);
    expect((await api(t, 'POST', '/api/me/support-requests', undefined, request())).status).toBe(401);
    expect((await api(t, 'GET', '/api/me/support-requests', other.token)).body.requests).toEqual([]);
    expect((await mailTo(SUPPORT)).length).toBe(mailsBefore);
    expect(await mailTo(other.email)).toEqual([]);
  });

  it('allows 5 requests an hour per user, then answers 429 with retry-after and stores nothing more', async () => {
    for (let i = 1; i <= 5; i += 1) expect((await api(t, 'POST', '/api/me/support-requests', busy.token, request({ subject: `Question ${i}` }))).status).toBe(201);

    const refused = await api(t, 'POST', '/api/me/support-requests', busy.token, request({ subject: 'Question 6' }));

    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe('rate_limited');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const list = await api(t, 'GET', '/api/me/support-requests', busy.token);
    expect(list.body.requests.map((r: { subject: string }) => r.subject)).toEqual(['Question 5', 'Question 4', 'Question 3', 'Question 2', 'Question 1']);
    // Another user is not held back by busy's limit.
    expect((await api(t, 'POST', '/api/me/support-requests', other.token, request())).status).toBe(201);
  });

  it('puts the requests in "Download my data" and deletes them with the account', async () => {
    const exported = await api(t, 'GET', '/api/me/export', busy.token);
    expect(exported.body.supportRequests.map((r: { subject: string }) => r.subject)).toEqual(['Question 5', 'Question 4', 'Question 3', 'Question 2', 'Question 1']);
    expect(exported.body.monthlyReports).toEqual([]);

    expect((await api(t, 'DELETE', '/api/me', busy.token)).status).toBe(204);

    expect(await t.stack.deps.supportRequests.list(busy.userId, 100)).toEqual([]);
  });
});
