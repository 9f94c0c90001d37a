import { describe, expect, it } from 'vitest';
import { getPlan } from '../../lambdas/domain/plans.js';
import type { StoredSubscription } from '../../lambdas/domain/ports.js';
import { firstResponseTime, PRIORITY_SUPPORT_FEATURE, supportMessages, supportRequestSchema } from '../../lambdas/domain/support.contract.js';
import { supportAcknowledgementEmail, supportEntitlement, supportReference, type SupportRequestRecord, supportTeamEmail } from '../../lambdas/domain/support.js';

const active = (planId: StoredSubscription['planId'], status: StoredSubscription['status'] = 'active'): StoredSubscription => ({
  planId,
  status,
  currentPeriodStart: '2026-11-01T00:00:00.000Z',
  currentPeriodEnd: '2026-12-01T00:00:00.000Z',
  source: 'stripe',
});
const none = { trialActive: true, paidPacks: [], extraScans: 0 } as const;

describe('support: which plan a request is marked with', () => {
  it('promises priority support exactly where the catalogue lists it: Monitor Plus and the 20-Scan Pack', () => {
    const withFeature = ['basic-audit', 'pro-audit', 'monitor-lite', 'monitor-plus', 'basic-scan', 'pro-scan', 'trial'].filter((id) =>
      getPlan(id as never).features.includes(PRIORITY_SUPPORT_FEATURE),
    );
    expect(withFeature).toEqual(['monitor-plus', 'pro-scan']);
  });

  it('marks an active subscription with its plan, priority for Monitor Plus only', () => {
    expect(supportEntitlement({ ...none, subscription: active('monitor-plus') })).toEqual({ plan: 'Monitor Plus', planIds: ['monitor-plus'], priority: true, firstResponse: '1 business day' });
    expect(supportEntitlement({ ...none, subscription: active('monitor-lite') })).toEqual({ plan: 'Monitor Lite', planIds: ['monitor-lite'], priority: false, firstResponse: '3 business days' });
  });

  it('counts a paid 20-Scan Pack while the account still holds pack scans', () => {
    expect(supportEntitlement({ subscription: active('monitor-lite'), trialActive: false, paidPacks: ['pro-scan'], extraScans: 4 })).toMatchObject({ plan: 'Monitor Lite + 20-Scan Pack', priority: true });
    expect(supportEntitlement({ subscription: undefined, trialActive: false, paidPacks: ['pro-scan'], extraScans: 0 })).toMatchObject({ plan: 'Free Trial (expired)', priority: false });
    expect(supportEntitlement({ subscription: undefined, trialActive: false, paidPacks: ['basic-scan'], extraScans: 5 })).toMatchObject({ plan: '5-Scan Pack', priority: false });
  });

  it('names the trial, or an ended plan with its state, without priority', () => {
    expect(supportEntitlement({ ...none, subscription: undefined })).toEqual({ plan: 'Free Trial', planIds: [], priority: false, firstResponse: '3 business days' });
    expect(supportEntitlement({ ...none, subscription: undefined, trialActive: false }).plan).toBe('Free Trial (expired)');
    expect(supportEntitlement({ ...none, subscription: active('monitor-plus', 'cancelled') })).toMatchObject({ plan: 'Monitor Plus (cancelled)', priority: false });
  });

  it('keeps the promise in one place', () => {
    expect([firstResponseTime(true), firstResponseTime(false)]).toEqual(['1 business day', '3 business days']);
  });
});

describe('support: the request and its emails', () => {
  const request: SupportRequestRecord = {
    id: '7f3a9c12-0000-4000-8000-000000000000',
    reference: supportReference('2026-11-02T03:04:05.000Z', '7f3a9c12-0000-4000-8000-000000000000'),
    userId: 'user-1',
    email: 'ada@example.com',
    name: 'Ada Tester',
    category: 'technical',
    subject: 'Badge <not> showing',
    message: 'The badge shows "not verified".\nWhy?',
    auditId: '0c4f8d2a-9b1e-4f3a-8c5d-6e7f8a9b0c1d',
    status: 'open',
    plan: 'Monitor Plus',
    planIds: ['monitor-plus'],
    priority: true,
    createdAt: '2026-11-02T03:04:05.000Z',
  };
  const brand = { productName: 'Rampart', siteUrl: 'https://rampart.example/' };

  it('references a request by its day and id', () => {
    expect(request.reference).toBe('SR-20261102-7F3A9C');
  });

  it('validates the form with the contract’s messages', () => {
    const result = supportRequestSchema.safeParse({ category: 'sales', subject: ' a ', message: 'short', auditId: 'nope' });
    expect(result.success).toBe(false);
    expect(Object.fromEntries(result.error!.issues.map((i) => [i.path.join('.'), i.message]))).toEqual({
      category: supportMessages.category,
      subject: supportMessages.subjectShort,
      message: supportMessages.messageShort,
      auditId: supportMessages.auditId,
    });
    expect(supportRequestSchema.safeParse({ category: 'other', subject: 'x'.repeat(121), message: 'y'.repeat(10) }).error?.issues[0]?.message).toBe(supportMessages.subjectLong);
    expect(supportRequestSchema.safeParse({ category: 'other', subject: 'Hello', message: 'y'.repeat(5001) }).error?.issues[0]?.message).toBe(supportMessages.messageLong);
    expect(supportRequestSchema.parse({ category: 'other', subject: '  Hello ', message: ' ten chars! ', auditId: '' })).toEqual({ category: 'other', subject: 'Hello', message: 'ten chars!' });
  });

  it('writes to the support mailbox with [Priority], the plan and who asked, replies going to the user', () => {
    const email = supportTeamEmail(brand, 'support@rampart.example', request);

    expect(email.to).toBe('support@rampart.example');
    expect(email.replyTo).toBe('ada@example.com');
    // Issue 28 finding 16: the user's subject is quoted in the body, never the mail's Subject.
    expect(email.subject).toBe('[Priority] SR-20261102-7F3A9C Technical (Monitor Plus)');
    for (const line of ['From: Ada Tester <ada@example.com>', 'Plan: Monitor Plus', 'Priority support: yes: first response within 1 business day', `Related audit: https://rampart.example/results/${request.auditId}`]) {
      expect(email.text).toContain(line);
    }
    expect(email.text).toContain('Subject: “Badge <not> showing”');
    expect(email.html).toContain('“Badge &lt;not&gt; showing”');
    expect(supportTeamEmail(brand, 'support@rampart.example', { ...request, priority: false, plan: 'Free Trial' }).subject).toBe('SR-20261102-7F3A9C Technical (Free Trial)');
  });

  it('acknowledges to the user with the reference and the first-response time', () => {
    const priority = supportAcknowledgementEmail(brand, request, 'Ada');
    expect(priority.to).toBe('ada@example.com');
    expect(priority.subject).toBe('Rampart support: we received your request SR-20261102-7F3A9C');
    expect(priority.text).toContain('As a Monitor Plus customer you have priority support: you can expect our first response within 1 business day.');
    expect(supportAcknowledgementEmail(brand, { ...request, priority: false }).text).toContain('You can expect our first response within 3 business days.');
  });
});
