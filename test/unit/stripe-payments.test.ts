import { createServer, type IncomingMessage } from 'node:http';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createStripeClient, StripePayments, stripeWebhookEvents } from '../../lambdas/adapters/stripe-payments.adapter.js';
import { UpstreamUnavailableError } from '../../lambdas/domain/errors.js';
import { paymentMessages } from '../../lambdas/domain/payments.contract.js';
import { checkoutUrls } from '../../lambdas/use-cases/payments.js';
import { loopbackServers } from '../support/loopback-servers.js';

/**
 * The Stripe adapter against a loopback stand-in for Stripe's API: the requests are the documented
 * form-encoded shapes (API reference: Create a Checkout Session, Create a portal session, Create a
 * customer), and the answers are the reference's example objects. Nothing reaches Stripe.
 */

interface Recorded {
  method: string;
  path: string;
  form: URLSearchParams;
  headers: IncomingMessage['headers'];
}

const servers = loopbackServers();
const recorded: Recorded[] = [];
let failNext: { status: number; body: unknown } | undefined;
let payments: StripePayments;

/** Stripe API reference example objects (trimmed to the fields the adapter reads, plus their neighbours). */
function answer(path: string, form: URLSearchParams): unknown {
  if (path === '/v1/customers') {
    return { id: 'cus_NffrFeUfNV2Hib', object: 'customer', email: form.get('email'), name: form.get('name'), metadata: { userId: form.get('metadata[userId]') }, created: 1680893993, livemode: false };
  }
  if (path === '/v1/checkout/sessions') {
    return {
      id: 'cs_test_a11YYufWQzNY63zpQ6QSNRQhkUpVph4WRmzW0zWJO2znZKdVujZ0N0S22u',
      object: 'checkout.session',
      amount_total: Number(form.get('line_items[0][price_data][unit_amount]')),
      currency: 'aud',
      customer: form.get('customer'),
      client_reference_id: form.get('client_reference_id'),
      metadata: { userId: form.get('metadata[userId]'), planId: form.get('metadata[planId]') },
      mode: form.get('mode'),
      payment_status: 'unpaid',
      status: 'open',
      success_url: form.get('success_url'),
      cancel_url: form.get('cancel_url'),
      url: 'https://checkout.stripe.com/c/pay/cs_test_a11YYufWQzNY63zpQ6QSNRQhkUpVph4WRmzW0zWJO2znZKdVujZ0N0S22u#fidkdWxOYHwnPyd1blpxYHZxWjA0',
      livemode: false,
    };
  }
  if (path === '/v1/billing_portal/sessions') {
    return {
      id: 'bps_1MrSjzLkdIwHu7ixex0IvU9b',
      object: 'billing_portal.session',
      configuration: 'bpc_1MAhNDLkdIwHu7ixckACO1Jq',
      created: 1680210639,
      customer: form.get('customer'),
      livemode: false,
      locale: null,
      on_behalf_of: null,
      return_url: form.get('return_url'),
      url: 'https://billing.stripe.com/p/session/test_YWNjdF8xTTJKVGtMa2RJd0h1N2l4LF9OY2hLY1Z3WmhBNDhzdFZzYkxlUHNVVmhWNkhwWTFE0100pSQNPuw8',
    };
  }
  return { error: { type: 'invalid_request_error', message: `Unrecognized request URL (POST: ${path})` } };
}

beforeAll(async () => {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      const path = new URL(req.url ?? '/', 'http://stripe.test').pathname;
      recorded.push({ method: req.method ?? '', path, form, headers: req.headers });
      const failure = failNext;
      failNext = undefined;
      res.writeHead(failure?.status ?? 200, { 'content-type': 'application/json', 'request-id': 'req_test' });
      res.end(JSON.stringify(failure?.body ?? answer(path, form)));
    });
  });
  const port = await servers.listen(server);
  payments = new StripePayments(createStripeClient('sk_test_4eC39HqLyjWDarjtT1zdp7dc', { host: '127.0.0.1', port, protocol: 'http' }));
});

afterAll(() => servers.closeAll());

beforeEach(() => {
  recorded.length = 0;
});

const site = 'https://rampart.example';

describe('StripePayments (Stripe API shapes)', () => {
  it('creates a Checkout Session for an audit: payment mode, AUD, price_data from the catalogue, metadata, the customer', async () => {
    // Prepare
    const urls = checkoutUrls(site, 'audit', '0f8fad5b-d9cb-469f-a165-70867728950e');

    // Act
    const session = await payments.createCheckoutSession({
      mode: 'payment',
      plan: { id: 'pro-audit', name: 'Pro Audit', summary: 'Everything in the Basic Audit.' },
      amountCents: 39_900,
      currency: 'aud',
      customerId: 'cus_NffrFeUfNV2Hib',
      userId: 'user-1',
      auditId: '0f8fad5b-d9cb-469f-a165-70867728950e',
      ...urls,
    });

    // Assess
    expect(session).toEqual({
      sessionId: 'cs_test_a11YYufWQzNY63zpQ6QSNRQhkUpVph4WRmzW0zWJO2znZKdVujZ0N0S22u',
      url: expect.stringMatching(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/),
    });
    const [request] = recorded;
    expect([request!.method, request!.path]).toEqual(['POST', '/v1/checkout/sessions']);
    expect(request!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(request!.headers.authorization).toBe('Bearer sk_test_4eC39HqLyjWDarjtT1zdp7dc');
    expect(Object.fromEntries(request!.form)).toEqual({
      mode: 'payment',
      currency: 'aud',
      customer: 'cus_NffrFeUfNV2Hib',
      client_reference_id: 'user-1',
      'metadata[userId]': 'user-1',
      'metadata[planId]': 'pro-audit',
      'metadata[auditId]': '0f8fad5b-d9cb-469f-a165-70867728950e',
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][currency]': 'aud',
      'line_items[0][price_data][unit_amount]': '39900',
      'line_items[0][price_data][product_data][name]': 'Pro Audit',
      'line_items[0][price_data][product_data][description]': 'Everything in the Basic Audit.',
      'line_items[0][price_data][product_data][metadata][planId]': 'pro-audit',
      'payment_intent_data[metadata][userId]': 'user-1',
      'payment_intent_data[metadata][planId]': 'pro-audit',
      'payment_intent_data[metadata][auditId]': '0f8fad5b-d9cb-469f-a165-70867728950e',
      success_url: `${site}/payment-success?session_id={CHECKOUT_SESSION_ID}&audit_id=0f8fad5b-d9cb-469f-a165-70867728950e`,
      cancel_url: `${site}/#pricing`,
    });
  });

  it('creates a subscription Checkout Session: monthly recurring price_data and subscription metadata', async () => {
    // Act
    await payments.createCheckoutSession({
      mode: 'subscription',
      plan: { id: 'monitor-lite', name: 'Monitor Lite', summary: 'Basic monitoring.' },
      amountCents: 4_900,
      currency: 'aud',
      customerId: 'cus_NffrFeUfNV2Hib',
      userId: 'user-1',
      ...checkoutUrls(site, 'subscription'),
    });

    // Assess
    const form = recorded[0]!.form;
    expect(form.get('mode')).toBe('subscription');
    expect(form.get('line_items[0][price_data][recurring][interval]')).toBe('month');
    expect(form.get('line_items[0][price_data][unit_amount]')).toBe('4900');
    expect(form.get('subscription_data[metadata][userId]')).toBe('user-1');
    expect(form.get('subscription_data[metadata][planId]')).toBe('monitor-lite');
    expect(form.get('payment_intent_data[metadata][userId]')).toBeNull();
    expect(form.get('success_url')).toBe(`${site}/success?session_id={CHECKOUT_SESSION_ID}`);
  });

  it('creates a customer once per user (idempotency key) with the user id in its metadata', async () => {
    // Act
    const customer = await payments.createCustomer({ userId: 'user-1', email: 'ada@example.com', name: 'Ada Lovelace' });

    // Assess
    expect(customer).toEqual({ customerId: 'cus_NffrFeUfNV2Hib' });
    expect(recorded[0]!.path).toBe('/v1/customers');
    expect(recorded[0]!.headers['idempotency-key']).toBe('customer-user-1');
    expect(Object.fromEntries(recorded[0]!.form)).toEqual({ email: 'ada@example.com', name: 'Ada Lovelace', 'metadata[userId]': 'user-1' });
  });

  it('creates a billing portal session and answers its url', async () => {
    // Act
    const portal = await payments.createBillingPortalSession({ customerId: 'cus_NffrFeUfNV2Hib', returnUrl: `${site}/dashboard/subscription` });

    // Assess
    expect(portal.url).toMatch(/^https:\/\/billing\.stripe\.com\/p\/session\/test_/);
    expect([recorded[0]!.method, recorded[0]!.path]).toEqual(['POST', '/v1/billing_portal/sessions']);
    expect(Object.fromEntries(recorded[0]!.form)).toEqual({ customer: 'cus_NffrFeUfNV2Hib', return_url: `${site}/dashboard/subscription` });
  });

  it("turns Stripe's error answer into checkout_failed with the spec's message", async () => {
    // Prepare
    failNext = { status: 400, body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: "No such customer: 'cus_gone'", param: 'customer' } } };

    // Act
    const failure = await payments
      .createCheckoutSession({
        mode: 'payment',
        plan: { id: 'basic-audit', name: 'Basic Audit', summary: 'x' },
        amountCents: 24_900,
        currency: 'aud',
        customerId: 'cus_gone',
        userId: 'user-1',
        ...checkoutUrls(site, 'scan-pack'),
      })
      .catch((error: unknown) => error);

    // Assess
    expect(failure).toBeInstanceOf(UpstreamUnavailableError);
    expect(failure).toMatchObject({ code: 'checkout_failed', message: paymentMessages.checkoutFailed, details: { reason: expect.stringContaining('No such customer') } });
  });
});

describe('stripeWebhookEvents', () => {
  const secret = 'whsec_test_secret';
  const payload = JSON.stringify({ id: 'evt_1', object: 'event', type: 'invoice.paid', created: 1_700_000_000, data: { object: { id: 'in_1' } } });

  it('accepts a body signed by Stripe’s test-header helper and returns the event', () => {
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret });
    expect(stripeWebhookEvents(secret).verify(payload, header)).toMatchObject({ id: 'evt_1', type: 'invoice.paid' });
  });

  it.each([
    ['another secret', () => Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_other' })],
    ['a changed body', () => Stripe.webhooks.generateTestHeaderString({ payload: payload.replace('in_1', 'in_2'), secret })],
    ['a timestamp past the 300 s tolerance', () => Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp: Math.floor(Date.now() / 1000) - 301 })],
    ['no header', () => undefined],
  ])('refuses %s', (_name, header) => {
    expect(() => stripeWebhookEvents(secret).verify(payload, header())).toThrow();
  });

  it('refuses everything without a secret', () => {
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret });
    expect(() => stripeWebhookEvents(undefined).verify(payload, header)).toThrow();
  });
});
