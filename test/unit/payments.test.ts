import { describe, expect, it } from 'vitest';
import { withParameterSecrets } from '../../lambdas/adapters/ssm-parameters.adapter.js';
import { loadConfig, LOCAL_WEBHOOK_SECRET, paymentsSettings } from '../../lambdas/config.js';
import {
  badgeEligibleUntil,
  checkoutAmount,
  isCheckoutSessionId,
  orderIdOf,
  orderView,
  SUBSCRIBER_AUDIT_DISCOUNT_PERCENT,
  subscriptionPlanOf,
  subscriptionStatusOf,
} from '../../lambdas/domain/payments.js';
import { getPlan } from '../../lambdas/domain/plans.js';
import { renderReceiptPdf } from '../../lambdas/reports/receipt-pdf.js';
import { readPdf } from '../support/pdf-text.js';

describe('payments rules', () => {
  it.each([
    ['active', 'active'],
    ['trialing', 'trial'],
    ['past_due', 'expired'],
    ['unpaid', 'expired'],
    ['canceled', 'cancelled'],
    ['incomplete', 'inactive'],
    ['incomplete_expired', 'inactive'],
    [undefined, 'inactive'],
  ] as const)('maps Stripe status %s to %s (DECISIONS "Subscription states")', (stripe, rampart) => {
    expect(subscriptionStatusOf(stripe)).toBe(rampart);
  });

  it('gives subscribers 20% off audits only', () => {
    expect(SUBSCRIBER_AUDIT_DISCOUNT_PERCENT).toBe(20);
    expect(checkoutAmount(getPlan('basic-audit'), true)).toEqual({ amountCents: 19_920, discountPercent: 20 });
    expect(checkoutAmount(getPlan('pro-audit'), true)).toEqual({ amountCents: 31_920, discountPercent: 20 });
    expect(checkoutAmount(getPlan('pro-audit'), false)).toEqual({ amountCents: 39_900, discountPercent: 0 });
    expect(checkoutAmount(getPlan('monitor-plus'), true)).toEqual({ amountCents: 9_900, discountPercent: 0 });
    expect(checkoutAmount(getPlan('basic-scan'), true)).toEqual({ amountCents: 24_900, discountPercent: 0 });
  });

  it.each([
    ['cs_test_a1b2', true],
    ['cs_live_a1b2', true],
    ['cs_local_a1b2', true],
    [`cs_test_${'a'.repeat(247)}`, false],
    [`cs_test_${'a'.repeat(246)}`, true],
    ['cs_other_a1', false],
    ['cs_test_', false],
    ['cs_test_a/b', false],
    ['pi_test_a1', false],
  ])('checkout session id %s is valid: %s', (id, valid) => {
    expect(isCheckoutSessionId(id)).toBe(valid);
  });

  it('names the order by the first 16 characters of the session id', () => {
    expect(orderIdOf('cs_test_a11YYufWQzNY63zpQ6')).toBe('cs_test_a11YYufW');
  });

  it.each([
    [{ lookupKey: 'monitor-plus', unitAmount: 4900, currency: 'aud' }, 'monitor-lite', 'monitor-plus'],
    [{ metadataPlanId: 'monitor-lite' }, 'monitor-plus', 'monitor-lite'],
    [{ unitAmount: 9900, currency: 'aud', interval: 'month' }, 'monitor-lite', 'monitor-plus'],
    [{ unitAmount: 9900, currency: 'usd', interval: 'month' }, 'monitor-lite', 'monitor-lite'],
    [{ unitAmount: 1234, currency: 'aud' }, undefined, undefined],
    [undefined, 'monitor-plus', 'monitor-plus'],
    [undefined, 'basic-audit', undefined],
  ] as const)('finds the monthly plan of price %j (subscription metadata %s): %s', (price, metadataPlanId, expected) => {
    expect(subscriptionPlanOf(price, metadataPlanId)).toBe(expected);
  });

  it('makes the badge eligible for 30 days (Basic) or 90 days (Pro) from payment', () => {
    const paid = new Date('2026-01-01T00:00:00Z');
    expect(badgeEligibleUntil('basic-audit', paid)).toBe('2026-01-31T00:00:00.000Z');
    expect(badgeEligibleUntil('pro-audit', paid)).toBe('2026-04-01T00:00:00.000Z');
  });
});

describe('receipt PDF', () => {
  it('prints the business name, order id, date, plan, amount and Paid', async () => {
    // Prepare
    const order = orderView({
      checkoutSessionId: 'cs_test_a11YYufWQzNY63zpQ6QSNRQhkUpVph4WRmzW0',
      userId: 'u1',
      planId: 'basic-audit',
      amountTotal: 19_920,
      currency: 'aud',
      status: 'paid',
      createdAt: '2026-03-04T01:00:00.000Z',
      orderDate: '2026-03-04T01:00:00.000Z',
    });

    // Act
    const pdf = await readPdf(await renderReceiptPdf(order, { productName: 'Shieldly', siteUrl: 'https://shieldly.example' }));

    // Assess
    expect(pdf.pages).toBe(1);
    for (const text of ['Shieldly', 'Receipt', 'cs_test_a11YYufW', '4 March 2026', 'Basic Audit', 'A$199.20', 'AUD', 'Paid']) expect(pdf.lines).toContain(text);
  });
});

describe('payments configuration', () => {
  it('uses the local test checkout and its fixed secret without a key', () => {
    expect(paymentsSettings(loadConfig({}))).toEqual({ mode: 'local', webhookSecret: LOCAL_WEBHOOK_SECRET });
    expect(LOCAL_WEBHOOK_SECRET).toMatch(/^whsec_local_/);
  });

  it('uses Stripe with a key, and then needs the webhook secret', () => {
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_test_abc' })).toThrow(/STRIPE_WEBHOOK_SECRET/);
    expect(paymentsSettings(loadConfig({ STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_WEBHOOK_SECRET: 'whsec_abc' }))).toEqual({ mode: 'stripe', webhookSecret: 'whsec_abc' });
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'pk_test_abc', STRIPE_WEBHOOK_SECRET: 'whsec_abc' })).toThrow(/STRIPE_SECRET_KEY/);
  });

  it('is off when the stack says so (no Stripe keys on AWS)', () => {
    expect(paymentsSettings(loadConfig({ PAYMENTS_MODE: 'off' }))).toEqual({ mode: 'off', webhookSecret: undefined });
  });

  it('reads the keys from SecureString parameters at cold start', async () => {
    // Prepare
    const asked: unknown[] = [];
    const client = {
      send: (command: { input: unknown }) => {
        asked.push(command.input);
        return Promise.resolve({ Parameters: [{ Name: '/rampart/stripe/secret-key', Value: 'sk_live_abc' }, { Name: '/rampart/stripe/webhook-secret', Value: 'whsec_live' }] });
      },
    };
    const env = { STRIPE_SECRET_KEY_PARAMETER: '/rampart/stripe/secret-key', STRIPE_WEBHOOK_SECRET_PARAMETER: '/rampart/stripe/webhook-secret', PAYMENTS_MODE: 'stripe' };

    // Act
    const resolved = await withParameterSecrets(env, client as never);

    // Assess
    expect(asked).toEqual([{ Names: ['/rampart/stripe/secret-key', '/rampart/stripe/webhook-secret'], WithDecryption: true }]);
    expect(paymentsSettings(loadConfig(resolved, ['payments']))).toEqual({ mode: 'stripe', webhookSecret: 'whsec_live' });
    expect(await withParameterSecrets({ TABLE_NAME: 't' }, client as never)).toEqual({ TABLE_NAME: 't' });
  });
});
