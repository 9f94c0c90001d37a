import { describe, expect, it } from 'vitest';
import {
  checkoutMode,
  formatMoney,
  formatPlanPrice,
  getPlan,
  lowestPrice,
  planIds,
  plans,
  pricingTabs,
  TRIAL_DAYS,
} from '../../lambdas/domain/plans.js';
import { planIdSchema, planSchema } from '../../lambdas/domain/plan.contract.js';

describe('plan catalogue (SPEC §9, DECISIONS)', () => {
  it.each([
    ['basic-audit', 'Basic Audit', 24_900, 'one_off', null],
    ['pro-audit', 'Pro Audit', 39_900, 'one_off', null],
    ['monitor-lite', 'Monitor Lite', 4_900, 'monthly', 30],
    ['monitor-plus', 'Monitor Plus', 9_900, 'monthly', 100],
    ['basic-scan', '5-Scan Pack', 24_900, 'one_off', 5],
    ['pro-scan', '20-Scan Pack', 44_900, 'one_off', 20],
    ['trial', 'Free Trial', 0, 'trial', 3],
  ] as const)('prices %s (%s) at %i cents, billed %s, with %s scans', (id, name, amountCents, billing, scansLimit) => {
    // Act
    const plan = getPlan(id);

    // Assess
    expect(plan).toMatchObject({ id, name, amountCents, billing, scansLimit, currency: 'aud' });
  });

  it('has one entry per id, each valid against the schema', () => {
    // Assess
    expect(plans.map((plan) => plan.id)).toEqual([...planIds]);
    for (const plan of plans) expect(planSchema.parse(plan)).toEqual(plan);
  });

  it('accepts a known plan id and refuses an unknown one', () => {
    // Assess
    expect(planIdSchema.safeParse('monitor-lite').success).toBe(true);
    expect(planIdSchema.safeParse('enterprise').success).toBe(false);
  });

  it('gives the trial 14 days, the basic tier, 3 scans and the spec features, in AUD (not USD)', () => {
    // Act
    const trial = getPlan('trial');

    // Assess
    expect(TRIAL_DAYS).toBe(14);
    expect(trial).toMatchObject({ tier: 'basic', amountCents: 0, currency: 'aud', scansLimit: 3 });
    expect(trial.features).toEqual(['Basic security scans', 'Email support', 'Standard reporting']);
  });

  it('lists what the paid audits add (DECISIONS "What paid audits add")', () => {
    // Act
    const basic = getPlan('basic-audit').features.join('\n');
    const pro = getPlan('pro-audit').features.join('\n');

    // Assess
    expect(basic).toMatch(/1,000 most common ports/);
    expect(basic).toMatch(/Full PDF report/);
    expect(basic).toMatch(/badge eligibility for 30 days/);
    expect(pro).toMatch(/Everything in Basic Audit/);
    expect(pro).toMatch(/remediation plan/);
    expect(pro).toMatch(/re-scan within 30 days/);
    expect(pro).toMatch(/badge eligibility for 90 days/);
  });

  it("names the monitoring plans' spec features", () => {
    // Act
    const lite = getPlan('monitor-lite').features.join('\n');
    const plus = getPlan('monitor-plus').features.join('\n');

    // Assess
    expect(lite).toMatch(/Basic monitoring/);
    expect(lite).toMatch(/score/);
    expect(lite).toMatch(/Monthly PDF report/);
    for (const feature of ['Advanced threat detection', 'An email and SMS alert on each change a daily re-scan finds', 'Priority support', 'Custom security policies', 'Detailed reporting', 'API access', 'Local endpoint monitoring', 'OSQuery agent']) {
      expect(plus).toContain(feature);
    }
  });

  it('puts two audits on the first pricing tab and two monthly plans on the second', () => {
    // Assess
    expect(pricingTabs.map((tab) => [tab.label, [...tab.planIds]])).toEqual([
      ['Security Audits', ['basic-audit', 'pro-audit']],
      ['Monthly Protection', ['monitor-lite', 'monitor-plus']],
    ]);
  });

  it('buys audits and packs as payments, monitoring as subscriptions, and the trial not at all', () => {
    // Assess
    expect(checkoutMode(getPlan('pro-audit'))).toBe('payment');
    expect(checkoutMode(getPlan('basic-scan'))).toBe('payment');
    expect(checkoutMode(getPlan('monitor-lite'))).toBe('subscription');
    expect(checkoutMode(getPlan('trial'))).toBeNull();
  });

  it('finds the lowest price of a kind, for the "from" copy', () => {
    // Assess
    expect(lowestPrice('audit').id).toBe('basic-audit');
    expect(lowestPrice('subscription').id).toBe('monitor-lite');
  });
});

describe('money format (SPEC §9: minor units, en-AU)', () => {
  it.each([
    [24_900, 'aud', 'A$249'],
    [4_900, 'aud', 'A$49'],
    [24_950, 'aud', 'A$249.50'],
    [123_456_700, 'aud', 'A$1,234,567'],
    [0, 'aud', 'A$0'],
    [1_999, 'AUD', 'A$19.99'],
    [24_900, 'usd', 'USD 249'],
  ] as const)('formats %i %s as %s', (amount, currency, expected) => {
    expect(formatMoney(amount, currency).replace(/\u00a0/g, ' ')).toBe(expected);
  });

  it('writes monthly plans per month and the trial as free', () => {
    // Assess
    expect(formatPlanPrice(getPlan('basic-audit'))).toBe('A$249');
    expect(formatPlanPrice(getPlan('monitor-plus'))).toBe('A$99/month');
    expect(formatPlanPrice(getPlan('trial'))).toBe('Free');
  });
});
