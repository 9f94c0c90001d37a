import { AdminSetUserPasswordCommand, CognitoIdentityProviderClient, InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_CREDENTIALS } from '../../lambdas/composition.js';
import { LOCAL_WEBHOOK_SECRET } from '../../lambdas/config.js';
import type { Audit } from '../../lambdas/domain/audit.js';
import { paymentMessages } from '../../lambdas/domain/payments.contract.js';
import { LOCAL_CHECKOUT_LABEL } from '../../bin/local/test-payments.js';
import { addDomain, verifyAddressByCode } from '../support/accounts.js';
import { readPdf } from '../support/pdf-text.js';
import { postJson, startTestStack, type TestStack, validLead, waitForAudit } from '../support/local-stack.js';
import { tableItems } from '../support/table.js';

/**
 * Payments over the whole local stack (issue 8): checkout for each kind of plan, the local test
 * checkout's Pay sending Stripe-signed events to the real webhook route, orders and receipts,
 * subscriptions through the local portal, and the webhook's own guarantees with events signed by
 * Stripe's test-header helper. No request ever leaves loopback: there is no Stripe key.
 */

let t: TestStack;
const users: Record<'a' | 'b' | 'c' | 'd' | 'e', { userId: string; token: string }> = {} as never;
let ownedAudit: string;
let leadAudit: string;

async function signIn(email: string, givenName: string): Promise<{ userId: string; token: string }> {
  const password = 'Correct-Horse-42';
  const { userId } = await t.stack.deps.users.createUser({ email, givenName, familyName: 'Payer' }, 'Temporary-Pass-123');
  const cognito = new CognitoIdentityProviderClient({ endpoint: t.stack.endpoints.cognito, region: 'ap-southeast-2', credentials: LOCAL_CREDENTIALS });
  await cognito.send(new AdminSetUserPasswordCommand({ UserPoolId: t.stack.userPool.userPoolId, Username: email, Password: password, Permanent: true }));
  const auth = await cognito.send(
    new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: t.stack.userPool.userPoolClientId, AuthParameters: { USERNAME: email, PASSWORD: password } }),
  );
  return { userId, token: auth.AuthenticationResult!.IdToken! };
}

type Body = Record<string, unknown> & { error?: string; message?: string; fields?: Record<string, string> };

async function call(method: string, path: string, token?: string, body?: unknown) {
  const response = await fetch(`${t.stack.url}${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : {}) as Body };
}

/** Submits one of the local pages' forms as a browser would, without following the redirect. */
async function submit(path: string, form: Record<string, string> = {}) {
  const response = await fetch(`${t.stack.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
    redirect: 'manual',
  });
  return { status: response.status, location: response.headers.get('location') ?? '' };
}

const me = async (token: string) => (await call('GET', '/api/me', token)).body.subscription as Record<string, unknown>;

async function checkout(token: string, request: Record<string, unknown>) {
  const reply = await call('POST', '/api/checkout-sessions', token, request);
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body as { url: string; sessionId: string };
}

/** Stripe-format events, signed with the local secret by Stripe's own helper. */
let eventCounter = 0;
function event(type: string, object: Record<string, unknown>, created = Math.floor(Date.now() / 1000), id = `evt_test_${++eventCounter}_${Date.now()}`) {
  return { id, object: 'event', api_version: Stripe.API_VERSION, created, livemode: false, pending_webhooks: 1, request: { id: null, idempotency_key: null }, type, data: { object } };
}

/** Stripe posts its events pretty-printed (2-space indent) and signs those exact bytes: `pretty` sends them so. */
async function sendEvent(payload: unknown, secret = LOCAL_WEBHOOK_SECRET, signature?: string | null, pretty = false) {
  const body = pretty ? JSON.stringify(payload, null, 2) : JSON.stringify(payload);
  const header = signature === null ? undefined : (signature ?? Stripe.webhooks.generateTestHeaderString({ payload: body, secret }));
  const response = await fetch(`${t.stack.url}/api/stripe/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(header ? { 'stripe-signature': header } : {}) },
    body,
  });
  return { status: response.status, body: (await response.json()) as Body };
}

async function scanTable() {
  return (await tableItems(t)).map((item) => JSON.stringify(item)).sort();
}

function subscriptionObject(userId: string, planId: 'monitor-lite' | 'monitor-plus', status: string, start: number, id = 'sub_test_outoforder') {
  const amount = planId === 'monitor-lite' ? 4900 : 9900;
  return {
    id,
    object: 'subscription',
    customer: 'cus_test_e',
    status,
    metadata: { userId },
    items: { object: 'list', data: [{ id: 'si_test_1', object: 'subscription_item', current_period_start: start, current_period_end: start + 30 * 86_400, price: { id: `price_${planId}`, object: 'price', currency: 'aud', unit_amount: amount, recurring: { interval: 'month' } } }] },
  };
}

beforeAll(async () => {
  t = await startTestStack({ SCAN_ALLOW_PRIVATE_TARGETS: '1' });
  users.a = await signIn('a@shop.example.test', 'Ada');
  users.b = await signIn('b@example.test', 'Bea');
  users.c = await signIn('c@example.test', 'Cy');
  users.d = await signIn('d@example.test', 'Di');
  users.e = await signIn('e@example.test', 'Ed');
  // A's own report (createAccount attaches it), and a report stored only under A's email address.
  // DECISIONS "Scan modes" [attacker]: the address proven by its code first, so the lead is active and attaches to the account at once.
  await verifyAddressByCode(t, '127.0.0.1', 'a@shop.example.test', validLead.webUrl);
  const owned = await postJson(`${t.stack.url}/api/leads`, { ...validLead, email: 'a@shop.example.test', createAccount: true });
  const unowned = await postJson(`${t.stack.url}/api/leads`, { ...validLead, businessName: 'Second shop', email: 'a@shop.example.test' });
  ownedAudit = String(owned.body.auditId);
  leadAudit = String(unowned.body.auditId);
  expect((await waitForAudit(t.stack.url, ownedAudit, 40_000)).status).toBe('completed');
  expect((await waitForAudit(t.stack.url, leadAudit, 40_000)).status).toBe('completed');
  // A paid audit's deep scan needs the buyer's verified domain (DECISIONS "Scan modes"): A proved shop.example.test.
  await addDomain(t, users.a.userId, 'shop.example.test');
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('POST /api/checkout-sessions', () => {
  it.each([
    ['POST', '/api/checkout-sessions'],
    ['GET', '/api/me/billing'],
    ['POST', '/api/me/billing-portal'],
  ])('%s %s needs a signed-in user', async (method, path) => {
    const reply = await call(method, path, undefined, method === 'POST' ? {} : undefined);
    expect([reply.status, reply.body.error]).toEqual([401, 'unauthorized']);
  });

  it.each([
    [{}, 'planId', paymentMessages.planNotForSale],
    [{ planId: 'trial' }, 'planId', paymentMessages.planNotForSale],
    [{ planId: 'gold' }, 'planId', paymentMessages.planNotForSale],
    [{ planId: 'basic-audit' }, 'auditId', paymentMessages.auditRequired],
    [{ planId: 'basic-audit', auditId: 'not-an-id' }, 'auditId', 'Invalid audit ID'],
    [{ planId: 'monitor-lite', auditId: '00000000-0000-4000-8000-000000000000' }, 'auditId', paymentMessages.auditPlanOnly],
  ])('refuses %j with 400 and the field message', async (request, field, message) => {
    const reply = await call('POST', '/api/checkout-sessions', users.b.token, request);
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ error: 'validation_failed', message, fields: { [field]: message } });
  });

  it("refuses another user's audit (403) and an unknown one (404)", async () => {
    const other = await call('POST', '/api/checkout-sessions', users.b.token, { planId: 'basic-audit', auditId: ownedAudit });
    expect([other.status, other.body.error, other.body.message]).toEqual([403, 'audit_forbidden', paymentMessages.auditNotYours]);
    const unknown = await call('POST', '/api/checkout-sessions', users.b.token, { planId: 'basic-audit', auditId: '00000000-0000-4000-8000-000000000000' });
    expect([unknown.status, unknown.body.error]).toEqual([404, 'audit_not_found']);
  });

  it('refuses a report that found no issues (409): a paid audit is offered only when issues were found', async () => {
    const now = new Date().toISOString();
    const audit: Audit = { id: '11111111-1111-4111-8111-111111111111', ownerId: users.b.userId, targetUrl: 'https://clean.example.test/', host: 'clean.example.test', status: 'queued', createdAt: now, checks: [] };
    await t.stack.deps.audits.createLeadWithAudit(
      { id: '22222222-2222-4222-8222-222222222222', firstName: 'Bea', lastName: 'Payer', businessName: 'Clean', email: 'b@example.test', mobileNumber: '', webUrl: audit.targetUrl, host: audit.host, userId: users.b.userId, createdAt: now },
      audit,
    );
    await t.stack.deps.audits.markInProgress(audit.id, now);
    await t.stack.deps.audits.saveCheck(audit.id, { name: 'http', status: 'ok', findings: [{ id: 'http.note', check: 'http', title: 'Note', severity: 'info', category: 'headers', description: 'x', recommendation: 'y' }] });
    await t.stack.deps.audits.complete(audit.id, { score: 100, grade: 'A', riskLevel: 'low', completedAt: now });
    const reply = await call('POST', '/api/checkout-sessions', users.b.token, { planId: 'pro-audit', auditId: audit.id });
    expect([reply.status, reply.body.error, reply.body.message]).toEqual([409, 'audit_without_issues', paymentMessages.auditWithoutIssues]);
  });

  it('refuses a paid audit of a domain the buyer has not verified (403 domain_not_verified) before any checkout session exists', async () => {
    const now = new Date().toISOString();
    const audit: Audit = { id: '33333333-3333-4333-8333-333333333333', ownerId: users.c.userId, targetUrl: 'https://unproven.example.test/', host: 'unproven.example.test', status: 'queued', createdAt: now, checks: [], mode: 'passive' };
    await t.stack.deps.audits.createLeadWithAudit(
      { id: '44444444-4444-4444-8444-444444444444', firstName: 'Cy', lastName: 'Payer', businessName: 'Unproven', email: 'c@example.test', mobileNumber: '', webUrl: audit.targetUrl, host: audit.host, userId: users.c.userId, createdAt: now },
      audit,
    );
    await t.stack.deps.audits.markInProgress(audit.id, now);
    await t.stack.deps.audits.saveCheck(audit.id, { name: 'http', status: 'ok', findings: [{ id: 'http.csp', check: 'http', title: 'No CSP', severity: 'medium', category: 'headers', description: 'x', recommendation: 'y' }] });
    await t.stack.deps.audits.complete(audit.id, { score: 89, grade: 'B', riskLevel: 'low', completedAt: now });
    // The caller's profile is made on their first signed-in request, whatever it asks: not part of the comparison.
    const withoutProfiles = async () => (await scanTable()).filter((item) => !item.includes('"sk":"#PROFILE"'));
    const before = await withoutProfiles();
    const reply = await call('POST', '/api/checkout-sessions', users.c.token, { planId: 'basic-audit', auditId: audit.id });
    expect([reply.status, reply.body.error, reply.body.message]).toEqual([403, 'domain_not_verified', paymentMessages.domainNotVerified]);
    // Nothing written: no order, no billing account.
    expect(await withoutProfiles()).toEqual(before);
    // A's verified domain goes to checkout: 'buys a Pro Audit' below.
  });

  it('answers 409 for Manage Billing before the first purchase', async () => {
    const reply = await call('POST', '/api/me/billing-portal', users.b.token);
    expect([reply.status, reply.body.error, reply.body.message]).toEqual([409, 'no_billing_account', paymentMessages.noCustomer]);
  });
});

describe('GET /api/orders/{checkoutSessionId}', () => {
  it.each([['not-a-session'], ['cs_other_abc'], [`cs_test_${'x'.repeat(300)}`]])('refuses the malformed id %s with 400', async (id) => {
    const reply = await call('GET', `/api/orders/${id}`);
    expect([reply.status, reply.body.error, reply.body.message]).toEqual([400, 'invalid_session', paymentMessages.invalidSession]);
  });

  it('answers 404 order_not_found for an unknown session', async () => {
    const reply = await call('GET', '/api/orders/cs_test_unknown123');
    expect([reply.status, reply.body.error]).toEqual([404, 'order_not_found']);
  });
});

describe('the local test checkout', () => {
  let proSession: { url: string; sessionId: string };

  it('buys a Pro Audit: order pending, the local page, Pay → signed webhook → order, premium report, deep scan', async () => {
    proSession = await checkout(users.a.token, { planId: 'pro-audit', auditId: ownedAudit });
    expect(proSession.sessionId).toMatch(/^cs_local_[A-Za-z0-9]+$/);
    expect(proSession.url).toBe(`${t.stack.url}/_local/checkout/${proSession.sessionId}`);
    expect(await call('GET', `/api/orders/${proSession.sessionId}`)).toMatchObject({ status: 200, body: { status: 'pending', planId: 'pro-audit' } });
    expect((await call('GET', `/api/orders/${proSession.sessionId}/receipt.pdf`)).body).toMatchObject({ error: 'order_pending' });

    const page = await fetch(proSession.url);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    for (const text of [LOCAL_CHECKOUT_LABEL, 'Pro Audit', 'A$399', '>Pay<', '>Cancel<']) expect(html).toContain(text);
    expect(html).not.toMatch(/<script|style=/);

    const paid = await submit(`/_local/checkout/${proSession.sessionId}/pay`);
    expect(paid).toEqual({ status: 303, location: `${t.stack.url}/payment-success?session_id=${proSession.sessionId}&audit_id=${ownedAudit}` });

    const order = await call('GET', `/api/orders/${proSession.sessionId}`);
    expect(order.status).toBe(200);
    expect(order.body).toEqual({
      orderId: proSession.sessionId.slice(0, 16),
      checkoutSessionId: proSession.sessionId,
      planId: 'pro-audit',
      planName: 'Pro Audit',
      amountTotal: 39_900,
      currency: 'aud',
      orderDate: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      status: 'paid',
      receiptUrl: `/api/orders/${proSession.sessionId}/receipt.pdf`,
    });
    // Issue 28 finding 11: the session id is no key to the report; the audit id is nowhere in the answer.
    expect(JSON.stringify(order.body)).not.toContain(ownedAudit);
    // The buyer, signed in, still finds it: the billing page lists the order with the audit it unlocked.
    const billing = (await call('GET', '/api/me/billing', users.a.token)).body as { orders: { planId: string; auditId?: string }[] };
    expect(billing.orders.filter((listed) => listed.planId === 'pro-audit').map((listed) => listed.auditId)).toEqual([ownedAudit]);

    const report = (await call('GET', `/api/audits/${ownedAudit}`)).body as { audit: Record<string, unknown>; result: Record<string, unknown> };
    expect(report.result).toMatchObject({ is_premium: true, plan_type: 'pro', scan_depth: 'deep' });
    expect(report.audit).toMatchObject({ isPremium: true, planType: 'pro', depth: 'deep' });
    expect(report.audit.paymentSessionId).toBeUndefined();
    const days = (Date.parse(String(report.result.badge_eligible_until)) - Date.parse(order.body.orderDate as string)) / 86_400_000;
    expect(days).toBe(90);

    const done = await waitForAudit(t.stack.url, ownedAudit, 90_000);
    expect(done.status).toBe('completed');
    const deep = (await call('GET', `/api/audits/${ownedAudit}`)).body as { audit: { checks: { name: string }[] }; result: { network: { portsScanned: number } } };
    expect(deep.audit.checks.map((c) => c.name)).toContain('subdomain-surface');
    expect(deep.result.network.portsScanned).toBeGreaterThanOrEqual(999);

    // The Pro PDF draws the Essential Eight readiness section after the remediation plan (issue 21).
    const pdfReply = await fetch(`${t.stack.url}/api/audits/${ownedAudit}/report.pdf`, { redirect: 'manual' });
    const pdf = await readPdf(new Uint8Array(await (await fetch(pdfReply.headers.get('location') ?? '')).arrayBuffer()));
    const section = pdf.lines.indexOf('Essential Eight readiness (Maturity Level One)');
    expect(pdf.lines.indexOf('Remediation plan')).toBeGreaterThan(0);
    expect(section).toBeGreaterThan(pdf.lines.indexOf('Remediation plan'));
    expect(pdf.lines.slice(section)).toEqual(expect.arrayContaining(['Patch applications', 'Regular backups', 'How to check']));
  }, 120_000);

  it('paying the same session again pays nothing more', async () => {
    const again = await submit(`/_local/checkout/${proSession.sessionId}/pay`);
    expect(again.status).toBe(303);
    const orders = await t.stack.deps.billing.listOrders(users.a.userId);
    expect(orders.filter((o) => o.checkoutSessionId === proSession.sessionId)).toHaveLength(1);
  });

  it('serves a real receipt PDF for the order', async () => {
    const response = await fetch(`${t.stack.url}/api/orders/${proSession.sessionId}/receipt.pdf`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    const pdf = await readPdf(new Uint8Array(await response.arrayBuffer()));
    expect(pdf.pages).toBe(1);
    for (const text of ['Rampart', 'Receipt', proSession.sessionId.slice(0, 16), 'Pro Audit', 'A$399', 'Paid']) expect(pdf.text).toContain(text);
  });

  it('Cancel goes back to the pricing section and leaves the order pending', async () => {
    const session = await checkout(users.c.token, { planId: 'basic-scan' });
    expect(await submit(`/_local/checkout/${session.sessionId}/cancel`)).toEqual({ status: 303, location: `${t.stack.url}/#pricing` });
    expect((await call('GET', `/api/orders/${session.sessionId}`)).body.status).toBe('pending');
  });

  it('a scan pack adds its scans to the allowance', async () => {
    const session = await checkout(users.c.token, { planId: 'pro-scan' });
    expect(await submit(`/_local/checkout/${session.sessionId}/pay`)).toEqual({ status: 303, location: `${t.stack.url}/success?session_id=${session.sessionId}` });
    expect(await me(users.c.token)).toMatchObject({ tier: 'basic', status: 'trial', scansLimit: 3 + 20 });
    const billing = (await call('GET', '/api/me/billing', users.c.token)).body as { orders: { planId: string; amountTotal: number }[] };
    expect(billing.orders).toEqual([expect.objectContaining({ planId: 'pro-scan', amountTotal: 44_900 })]);
  });

  it('subscribes to Monitor Lite, then the portal changes the plan and cancels it', async () => {
    const session = await checkout(users.a.token, { planId: 'monitor-lite' });
    expect(await submit(`/_local/checkout/${session.sessionId}/pay`)).toEqual({ status: 303, location: `${t.stack.url}/success?session_id=${session.sessionId}` });
    expect(await me(users.a.token)).toMatchObject({ tier: 'monitor_lite', status: 'active', scansLimit: 30, scansUsed: 0, price: 49, currency: 'AUD', billingPeriod: 'monthly' });

    const billing = (await call('GET', '/api/me/billing', users.a.token)).body as Record<string, unknown> & { invoices: Record<string, unknown>[]; orders: unknown[] };
    expect(billing).toMatchObject({ canManageBilling: true, subscriberAuditDiscountPercent: 20, subscription: { tier: 'monitor_lite' } });
    expect(billing.invoices).toEqual([expect.objectContaining({ status: 'paid', amountCents: 4_900, currency: 'aud', description: expect.stringContaining('Monitor Lite') })]);
    expect(billing.orders).toHaveLength(1); // the Pro Audit; subscriptions are listed as invoices

    // Subscribers get 20% off audits: A$249 → A$199.20, for the report stored under A's email.
    const audit = await checkout(users.a.token, { planId: 'basic-audit', auditId: leadAudit });
    expect(await (await fetch(audit.url)).text()).toContain('A$199.20');
    await submit(`/_local/checkout/${audit.sessionId}/pay`);
    expect((await call('GET', `/api/orders/${audit.sessionId}`)).body).toMatchObject({ amountTotal: 19_920, planId: 'basic-audit' });

    const portal = await call('POST', '/api/me/billing-portal', users.a.token);
    expect(portal.status).toBe(200);
    const portalPath = new URL(String(portal.body.url)).pathname;
    expect(portalPath).toMatch(/^\/_local\/billing-portal\/bps_local_\w+$/);
    const page = await (await fetch(`${t.stack.url}${portalPath}`)).text();
    for (const text of ['Monitor Lite', 'Change plan to Monitor Plus', 'Cancel subscription', '/dashboard/subscription']) expect(page).toContain(text);

    expect(await submit(`${portalPath}/change`, { planId: 'monitor-plus' })).toEqual({ status: 303, location: portalPath });
    expect(await me(users.a.token)).toMatchObject({ tier: 'monitor_plus', status: 'active', scansLimit: 100, price: 99 });

    expect(await submit(`${portalPath}/cancel`)).toEqual({ status: 303, location: portalPath });
    expect(await me(users.a.token)).toMatchObject({ tier: 'monitor_plus', status: 'cancelled' });
    // The Basic Audit's deep scan finishes before the webhook tests compare the table.
    expect((await waitForAudit(t.stack.url, leadAudit, 90_000)).status).toBe('completed');
  }, 120_000);
});

describe('POST /api/stripe/webhook', () => {
  const session = (id: string, userId: string, planId = 'basic-scan', amount = 24_900) => ({
    id,
    object: 'checkout.session',
    mode: 'payment',
    payment_status: 'paid',
    status: 'complete',
    amount_total: amount,
    currency: 'aud',
    customer: 'cus_test_d',
    client_reference_id: userId,
    metadata: { userId, planId },
  });

  it('accepts a correctly signed event and records the order', async () => {
    const reply = await sendEvent(event('checkout.session.completed', session('cs_test_good1', users.d.userId)));
    expect([reply.status, reply.body]).toEqual([200, { received: true }]);
    expect((await call('GET', '/api/orders/cs_test_good1')).body).toMatchObject({ orderId: 'cs_test_good1', amountTotal: 24_900, currency: 'aud', status: 'paid' });
    expect(await me(users.d.token)).toMatchObject({ scansLimit: 3 + 5 });
  });

  it('verifies the bytes Stripe sent, not a re-serialised body: a pretty-printed event is accepted', async () => {
    // Stripe's deliveries are indented JSON; a handler that re-serialises the parsed body (compact) would
    // compute another signature and refuse every real webhook while compact test events still passed.
    const reply = await sendEvent(event('checkout.session.completed', session('cs_test_pretty1', users.d.userId)), LOCAL_WEBHOOK_SECRET, undefined, true);
    expect([reply.status, reply.body]).toEqual([200, { received: true }]);
    expect((await call('GET', '/api/orders/cs_test_pretty1')).body).toMatchObject({ orderId: 'cs_test_pretty1', status: 'paid' });
  });

  it('refuses a bad or missing signature with 400 and writes nothing', async () => {
    const before = await scanTable();
    const payload = event('checkout.session.completed', session('cs_test_forged', users.d.userId));
    const wrongSecret = await sendEvent(payload, 'whsec_not_the_secret');
    const missing = await sendEvent(payload, LOCAL_WEBHOOK_SECRET, null);
    const garbage = await sendEvent(payload, LOCAL_WEBHOOK_SECRET, 't=1,v1=00');
    const stale = await sendEvent(payload, LOCAL_WEBHOOK_SECRET, Stripe.webhooks.generateTestHeaderString({ payload: JSON.stringify(payload), secret: LOCAL_WEBHOOK_SECRET, timestamp: Math.floor(Date.now() / 1000) - 301 }));
    for (const reply of [wrongSecret, missing, garbage, stale]) expect([reply.status, reply.body.error]).toEqual([400, 'invalid_signature']);
    expect(await scanTable()).toEqual(before);
  });

  it('processes a replayed event once: five deliveries, one order, one grant', async () => {
    const payload = event('checkout.session.completed', session('cs_test_replay1', users.d.userId));
    const replies = [];
    for (let i = 0; i < 5; i += 1) replies.push(await sendEvent(payload));
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(replies.slice(1).every((r) => r.body.duplicate === true)).toBe(true);
    const orders = await t.stack.deps.billing.listOrders(users.d.userId);
    expect(orders.filter((o) => o.checkoutSessionId === 'cs_test_replay1')).toHaveLength(1);
    expect(await me(users.d.token)).toMatchObject({ scansLimit: 3 + 5 + 5 + 5 });
  });

  it('ignores an older subscription event that arrives after a newer one', async () => {
    const t0 = Math.floor(Date.now() / 1000);
    const e = users.e.userId;
    expect((await sendEvent(event('customer.subscription.updated', subscriptionObject(e, 'monitor-plus', 'active', t0), t0 + 100))).status).toBe(200);
    expect((await sendEvent(event('customer.subscription.updated', subscriptionObject(e, 'monitor-lite', 'active', t0), t0 + 50))).status).toBe(200);
    expect(await me(users.e.token)).toMatchObject({ tier: 'monitor_plus', status: 'active', scansLimit: 100 });
    await sendEvent(event('customer.subscription.updated', subscriptionObject(e, 'monitor-plus', 'past_due', t0), t0 + 150));
    expect(await me(users.e.token)).toMatchObject({ status: 'expired' });
    await sendEvent(event('customer.subscription.created', subscriptionObject(e, 'monitor-lite', 'incomplete', t0), t0 + 10));
    expect(await me(users.e.token)).toMatchObject({ tier: 'monitor_plus', status: 'expired' });
    await sendEvent(event('customer.subscription.updated', subscriptionObject(e, 'monitor-plus', 'active', t0), t0 + 200));
    expect(await me(users.e.token)).toMatchObject({ status: 'active' });
  });

  it('invoice.paid for a new period resets scansUsed; an older period does not', async () => {
    const e = users.e.userId;
    await t.stack.deps.domains.countScan(e, 100);
    await t.stack.deps.domains.countScan(e, 100);
    expect(await me(users.e.token)).toMatchObject({ scansUsed: 2 });
    const invoice = (id: string, start: number) => ({
      id,
      object: 'invoice',
      customer: 'cus_test_e',
      status: 'paid',
      currency: 'aud',
      amount_due: 9_900,
      amount_paid: 9_900,
      created: start,
      parent: { type: 'subscription_details', subscription_details: { subscription: 'sub_test_outoforder', metadata: { userId: e } } },
      lines: { object: 'list', data: [{ id: `il_${id}`, object: 'line_item', amount: 9_900, currency: 'aud', period: { start, end: start + 30 * 86_400 } }] },
    });
    const start = Math.floor(Date.now() / 1000) + 1_000;
    expect((await sendEvent(event('invoice.paid', invoice('in_test_new', start)))).status).toBe(200);
    expect(await me(users.e.token)).toMatchObject({ scansUsed: 0 });
    await t.stack.deps.domains.countScan(e, 100);
    await sendEvent(event('invoice.paid', invoice('in_test_old', start - 30 * 86_400)));
    expect(await me(users.e.token)).toMatchObject({ scansUsed: 1 });
    const billing = (await call('GET', '/api/me/billing', users.e.token)).body as { invoices: { id: string; status: string }[] };
    expect(billing.invoices.map((i) => i.id)).toEqual(['in_test_new', 'in_test_old']);
  });

  it('invoice.payment_failed stores a failed invoice and the plan reads expired', async () => {
    const e = users.e.userId;
    const reply = await sendEvent(
      event('invoice.payment_failed', {
        id: 'in_test_failed',
        object: 'invoice',
        customer: 'cus_test_e',
        status: 'open',
        currency: 'aud',
        amount_due: 9_900,
        amount_paid: 0,
        created: Math.floor(Date.now() / 1000),
        parent: { type: 'subscription_details', subscription_details: { subscription: 'sub_test_outoforder', metadata: { userId: e } } },
      }, Math.floor(Date.now() / 1000) + 300),
    );
    expect(reply.status).toBe(200);
    expect(await me(users.e.token)).toMatchObject({ status: 'expired' });
    const billing = (await call('GET', '/api/me/billing', users.e.token)).body as { invoices: { id: string; status: string }[] };
    expect(billing.invoices.find((i) => i.id === 'in_test_failed')).toMatchObject({ status: 'failed' });
  });

  it('acknowledges an event type it does not handle and stores nothing', async () => {
    const before = await scanTable();
    const reply = await sendEvent(event('charge.refunded', { id: 'ch_test_1', object: 'charge' }));
    expect([reply.status, reply.body]).toEqual([200, { received: true, ignored: true }]);
    expect(await scanTable()).toEqual(before);
  });
});
