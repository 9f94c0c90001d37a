import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_WEBHOOK_SECRET } from '../../lambdas/config.js';
import { api, signIn, type TestUser, verifyAddressByCode } from '../support/accounts.js';
import { startTestStack, type TestStack, validLead } from '../support/local-stack.js';
import { mailbox, postJsonFrom } from '../support/post-from.js';
import { tableItems } from './support/table.js';

/**
 * Replay and concurrency over the local stack: what arrives twice, or many times at the same
 * moment, has its effect once. Webhooks signed with the local secret by Stripe's own helper,
 * leads and verification codes posted at once from loopback.
 */
let t: TestStack;
let buyer: TestUser;
const ROUNDS = 20;

beforeAll(async () => {
  t = await startTestStack();
  buyer = await signIn(t, 'buyer@example.test', 'Bo');
});
afterAll(async () => {
  await t?.close();
});

let eventCounter = 0;
function checkoutCompleted(sessionId: string, userId: string, type = 'checkout.session.completed', id = `evt_replay_${++eventCounter}_${Date.now()}`) {
  return JSON.stringify({
    id,
    object: 'event',
    api_version: Stripe.API_VERSION,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: {
      object: {
        id: sessionId,
        object: 'checkout.session',
        mode: 'payment',
        payment_status: 'paid',
        status: 'complete',
        amount_total: 24_900,
        currency: 'aud',
        customer: `cus_replay_${userId}`,
        client_reference_id: userId,
        metadata: { userId, planId: 'basic-scan' },
      },
    },
  });
}

const deliver = (payload: string) =>
  fetch(`${t.stack.url}/api/stripe/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: LOCAL_WEBHOOK_SECRET }) },
    body: payload,
  }).then(async (response) => ({ status: response.status, body: (await response.json()) as { received?: boolean; duplicate?: boolean } }));

const scansLimit = async (user: TestUser) => Number((await api(t, 'GET', '/api/me', user.token)).body.subscription.scansLimit);
const ordersOf = async (userId: string, sessionId: string) => (await t.stack.deps.billing.listOrders(userId)).filter((order) => order.checkoutSessionId === sessionId);

describe('Stripe webhooks delivered again', () => {
  it('the same event five times at once: one order, one grant, four answered as duplicates', async () => {
    const before = await scansLimit(buyer);
    const payload = checkoutCompleted('cs_replay_same_event', buyer.userId);

    const replies = await Promise.all(Array.from({ length: 5 }, () => deliver(payload)));

    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(replies.filter((r) => r.body.duplicate === true)).toHaveLength(4);
    expect(await ordersOf(buyer.userId, 'cs_replay_same_event')).toHaveLength(1);
    expect((await scansLimit(buyer)) - before).toBe(5);
  });

  it('five different events for one checkout session at once (completed, async success, retried as new ids): one order, one grant', async () => {
    const before = await scansLimit(buyer);
    const payloads = Array.from({ length: 5 }, (_, i) =>
      checkoutCompleted('cs_replay_many_events', buyer.userId, i % 2 === 0 ? 'checkout.session.completed' : 'checkout.session.async_payment_succeeded'),
    );

    const replies = await Promise.all(payloads.map(deliver));

    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await ordersOf(buyer.userId, 'cs_replay_many_events')).toHaveLength(1);
    expect((await scansLimit(buyer)) - before).toBe(5);
  });

  it('the same event again later, five times one after another: nothing more', async () => {
    const payload = checkoutCompleted('cs_replay_later', buyer.userId);
    expect((await deliver(payload)).body).toEqual({ received: true });
    const before = await scansLimit(buyer);

    const replies = [];
    for (let i = 0; i < 5; i += 1) replies.push(await deliver(payload));

    expect(replies.map((r) => r.body)).toEqual(Array.from({ length: 5 }, () => ({ received: true, duplicate: true })));
    expect(await scansLimit(buyer)).toBe(before);
  });
});

describe(`the same lead ${ROUNDS} times at once`, () => {
  const itemsAbout = async (email: string) => (await tableItems(t)).filter((item) => ['lead', 'audit'].includes(String(item.type)) && JSON.stringify(item).includes(email));

  it('gets one answer and stores one lead and one audit', async () => {
    const lead = { ...validLead, email: 'once@shop.example.test' };

    const replies = await Promise.all(Array.from({ length: ROUNDS }, () => postJsonFrom('127.0.3.1', `${t.stack.url}/api/leads`, lead)));

    expect(new Set(replies.map((r) => r.status))).toEqual(new Set([201]));
    expect(new Set(replies.map((r) => r.body.auditId)).size).toBe(1);
    const stored = await itemsAbout('once@shop.example.test');
    expect(stored.map((item) => item.type).sort()).toEqual(['audit', 'lead']);
  });

  it('with createAccount: one Cognito user, one set-password link and one email carrying it', async () => {
    const email = 'newcomer@shop.example.test';
    // DECISIONS "Scan modes" [attacker]: an account is made only for a proven address.
    await verifyAddressByCode(t, '127.0.3.2', email, validLead.webUrl);

    const replies = await Promise.all(Array.from({ length: ROUNDS }, () => postJsonFrom('127.0.3.2', `${t.stack.url}/api/leads`, { ...validLead, email, createAccount: true })));

    expect(new Set(replies.map((r) => r.body.auditId)).size).toBe(1);
    expect(await t.stack.deps.users.findUserIdByEmail(email)).toEqual(expect.any(String));
    const logins = (await mailbox(t.stack.mailboxUrl, email)).filter((mail) => !/verification code/i.test(mail.subject));
    expect(logins).toHaveLength(1);
    expect((await tableItems(t)).filter((item) => item.type === 'set-password-link' && item.email === email)).toHaveLength(1);
    expect((await itemsAbout(email)).map((item) => item.type).sort()).toEqual(['audit', 'lead']);
  });
});

describe('verification attempts in parallel', () => {
  const email = (name: string) => `${name}@gmail.test`;
  const site = 'https://shop.example.test';
  async function codeFor(address: string): Promise<string> {
    const reply = await postJsonFrom('127.0.3.3', `${t.stack.url}/api/verification-codes`, { email: address, webUrl: site, firstName: 'Guesser' });
    expect(reply.status).toBe(201);
    const mail = (await mailbox(t.stack.mailboxUrl, address)).at(-1);
    return /is: (\d{6})/.exec(mail?.body.text ?? '')![1]!;
  }
  const guess = (address: string, verificationCode: string) =>
    postJsonFrom('127.0.3.4', `${t.stack.url}/api/verification-codes/verify`, { email: address, webUrl: site, verificationCode });
  const wrong = (code: string, i: number) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0');

  it(`${ROUNDS} wrong guesses at once count 3 attempts; the code is then void, the right one included`, async () => {
    const address = email('parallel');
    const code = await codeFor(address);

    const replies = await Promise.all(Array.from({ length: ROUNDS }, (_, i) => guess(address, wrong(code, i))));
    const right = await guess(address, code);

    // Two wrong guesses are told how many are left; the third counted and every other one find the code locked.
    expect(replies.every((r) => r.status === 400)).toBe(true);
    expect(replies.filter((r) => r.body.error === 'verification_failed').map((r) => r.body.remainingAttempts).sort()).toEqual([1, 2]);
    expect(replies.filter((r) => r.body.error === 'verification_locked')).toHaveLength(ROUNDS - 2);
    expect((await t.stack.deps.verifications.getCode(address, 'shop.example.test'))?.attempts).toBe(3);
    expect([right.status, right.body.error]).toEqual([400, 'verification_locked']);
  });

  it(`the right code among ${ROUNDS} guesses at once is accepted only if it was among the first 3 counted, and at most once`, async () => {
    const address = email('lucky');
    const code = await codeFor(address);
    const guesses = Array.from({ length: ROUNDS }, (_, i) => (i === ROUNDS / 2 ? code : wrong(code, i)));

    const replies = await Promise.all(guesses.map((g) => guess(address, g)));

    const verified = replies.filter((r) => r.status === 200);
    const judged = replies.filter((r) => r.status === 200 || r.body.error === 'verification_failed');
    expect(verified.length).toBeLessThanOrEqual(1);
    // At most three guesses were compared with the code: the rest were turned away unread.
    expect(judged.length).toBeLessThanOrEqual(3);
    const stored = await t.stack.deps.verifications.getCode(address, 'shop.example.test');
    expect(verified.length === 1 ? stored : stored?.attempts).toBe(verified.length === 1 ? undefined : 3);
  });
});
