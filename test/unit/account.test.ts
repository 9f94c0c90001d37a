import { reportProductName } from '../../lambdas/domain/plans.js';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_NOTIFICATION_PREFERENCES,
  historyQuerySchema,
  notificationPreferencesSchema,
  profileUpdateSchema,
} from '../../lambdas/domain/account.contract.js';
import { historyEntry, scansLimitOf, storedSubscriptionView, subscriptionView, trialSubscription, type UserProfile, userView } from '../../lambdas/domain/account.js';
import type { StoredSubscription } from '../../lambdas/domain/ports.js';
import type { Audit } from '../../lambdas/domain/audit.js';
import { buildAuditView } from '../../lambdas/domain/audit-view.js';

describe('profile contract', () => {
  it('trims names and normalises the mobile number to E.164', () => {
    expect(profileUpdateSchema.parse({ firstName: ' Ada ', lastName: 'Lovelace', company: ' AE ', mobileNumber: '0412 345 678' })).toEqual({
      firstName: 'Ada',
      lastName: 'Lovelace',
      company: 'AE',
      mobileNumber: '+61412345678',
    });
  });

  it('treats an empty or absent mobile number as none and company as optional', () => {
    expect(profileUpdateSchema.parse({ firstName: 'Ada', lastName: 'L', mobileNumber: '' })).toEqual({ firstName: 'Ada', lastName: 'L', company: '' });
  });

  it('gives a message per bad field', () => {
    const result = profileUpdateSchema.safeParse({ firstName: '  ', lastName: 7, mobileNumber: '02 9999 9999', role: 'admin' });
    expect(result.success).toBe(false);
    const fields = Object.fromEntries(result.error!.issues.map((i) => [i.path.join('.') || '_', i.message]));
    expect(fields).toMatchObject({ firstName: 'First name is required', lastName: 'Last name is required', mobileNumber: 'Please enter a valid mobile number' });
    expect(result.error!.issues.some((i) => i.code === 'unrecognized_keys')).toBe(true);
  });
});

describe('notification preferences contract', () => {
  it('defaults to everything but marketing', () => {
    expect(DEFAULT_NOTIFICATION_PREFERENCES).toEqual({ emailAlerts: true, scanCompletions: true, securityUpdates: true, marketingEmails: false });
  });

  it('needs all four booleans', () => {
    expect(notificationPreferencesSchema.safeParse({ ...DEFAULT_NOTIFICATION_PREFERENCES, marketingEmails: true }).success).toBe(true);
    expect(notificationPreferencesSchema.safeParse({ emailAlerts: true }).success).toBe(false);
    expect(notificationPreferencesSchema.safeParse({ ...DEFAULT_NOTIFICATION_PREFERENCES, emailAlerts: 'true' }).success).toBe(false);
  });
});

describe('history query contract', () => {
  it('defaults the limit and accepts 1–100', () => {
    expect(historyQuerySchema.parse({})).toEqual({ limit: 20 });
    expect(historyQuerySchema.parse({ limit: '100', cursor: 'QVVESVQjeA' })).toEqual({ limit: 100, cursor: 'QVVESVQjeA' });
  });

  it.each([{ limit: '0' }, { limit: '101' }, { limit: '2.5' }, { limit: 'ten' }, { cursor: 'a b' }, { cursor: '' }])('refuses %o', (query) => {
    expect(historyQuerySchema.safeParse(query).success).toBe(false);
  });
});

describe('trial subscription', () => {
  const created = '2026-01-01T00:00:00.000Z';

  it('is a 14-day basic trial with 3 scans at A$0', () => {
    expect(trialSubscription(created, 1, new Date('2026-01-10T00:00:00Z'))).toEqual({
      tier: 'basic',
      status: 'trial',
      scansLimit: 3,
      scansUsed: 1,
      price: 0,
      currency: 'AUD',
      billingPeriod: 'trial',
      startDate: created,
      endDate: '2026-01-15T00:00:00.000Z',
    });
  });

  it('expires at the end of the 14th day (computed with the clock)', () => {
    expect(trialSubscription(created, 0, new Date('2026-01-14T23:59:59.999Z')).status).toBe('trial');
    expect(trialSubscription(created, 0, new Date('2026-01-15T00:00:00.000Z')).status).toBe('expired');
  });
});

describe('stored subscription', () => {
  const plus: StoredSubscription = {
    planId: 'monitor-plus',
    status: 'active',
    currentPeriodStart: '2026-02-01T00:00:00.000Z',
    currentPeriodEnd: '2026-03-01T00:00:00.000Z',
    source: 'demo',
  };

  it("shows the plan's tier, limit and monthly price from the catalogue, the state and period as stored", () => {
    expect(storedSubscriptionView(plus, 4)).toEqual({
      tier: 'monitor_plus',
      status: 'active',
      scansLimit: 100,
      scansUsed: 4,
      price: 99,
      currency: 'AUD',
      billingPeriod: 'monthly',
      startDate: plus.currentPeriodStart,
      endDate: plus.currentPeriodEnd,
    });
  });

  it('wins over the trial; without one the trial is computed', () => {
    const now = new Date('2026-02-10T00:00:00Z');
    expect(subscriptionView({ createdAt: '2026-01-01T00:00:00.000Z' }, plus, 0, now).tier).toBe('monitor_plus');
    expect(subscriptionView({ createdAt: '2026-01-01T00:00:00.000Z' }, undefined, 0, now)).toMatchObject({ tier: 'basic', status: 'expired' });
  });

  it("gives the active plan's scan limit, else the trial's 3", () => {
    expect(scansLimitOf(plus)).toBe(100);
    expect(scansLimitOf({ ...plus, planId: 'monitor-lite' })).toBe(30);
    expect(scansLimitOf({ ...plus, status: 'cancelled' })).toBe(3);
    expect(scansLimitOf(undefined)).toBe(3);
  });
});

describe('user view', () => {
  const profile: UserProfile = {
    userId: 'u1',
    email: 'a@b.test',
    firstName: 'Ada',
    lastName: 'L',
    company: '',
    notifications: DEFAULT_NOTIFICATION_PREFERENCES,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  };

  it('says whether the account is the demo account', () => {
    expect(userView(profile).isDemo).toBe(false);
    expect(userView({ ...profile, isDemo: true }).isDemo).toBe(true);
  });
});

describe('history entry', () => {
  const audit: Audit = {
    id: '11111111-1111-4111-8111-111111111111',
    targetUrl: 'https://shop.example.test/',
    host: 'shop.example.test',
    status: 'completed',
    createdAt: '2026-01-01T00:00:00.000Z',
    startedAt: '2026-01-01T00:00:02.000Z',
    completedAt: '2026-01-01T00:01:04.400Z',
    score: 72,
    grade: 'C',
    riskLevel: 'medium',
    checks: [
      {
        name: 'headers',
        status: 'ok',
        durationMs: 10,
        findings: [
          { id: 'h1', title: 'No HSTS', severity: 'critical', category: 'headers', description: '', recommendation: '' },
          { id: 'h2', title: 'Info', severity: 'info', category: 'headers', description: '', recommendation: '' },
        ],
      },
    ],
  } as Audit;

  it("is the spec's entry with the results page's counters", () => {
    expect(historyEntry(audit)).toEqual({
      id: audit.id,
      domain: 'shop.example.test',
      scanDate: audit.createdAt,
      tier: 'basic',
      product: 'free-report',
      status: 'completed',
      riskScore: 72,
      riskLevel: 'medium',
      vulnerabilities: [{ id: 'h1', title: 'No HSTS', severity: 'critical' }],
      badgeEligible: false,
      partial: buildAuditView(audit).coverage.partial,
      findings: buildAuditView(audit).counters,
      scanDuration: 62,
      reportUrl: `/results/${audit.id}`,
      pdfUrl: `/reports/${audit.id}.pdf`,
    });
    expect(historyEntry(audit).findings).toMatchObject({ totalIssues: 1, criticalIssues: 1 });
  });

  it("says a passive scan's entry is partial, as its results page does (the overview shows '· partial' beside its grade)", () => {
    const passive = { ...audit, mode: 'passive' } as Audit;
    expect([historyEntry(passive).partial, buildAuditView(passive).coverage.partial]).toEqual([true, true]);
  });

  it('lists the issues worst first, without observations, as many as the issue counter says', () => {
    const mixed = {
      ...audit,
      checks: [
        {
          name: 'tls',
          status: 'ok',
          findings: [
            { id: 't1', title: 'Old TLS', severity: 'medium', category: 'tls', description: 'd', recommendation: 'r' },
            { id: 't2', title: 'Weak cipher', severity: 'high', category: 'tls', description: 'd', recommendation: 'r' },
            { id: 't3', title: 'TLS 1.3', severity: 'info', category: 'tls', description: 'd', recommendation: 'r' },
          ],
        },
        ...audit.checks,
      ],
    } as Audit;

    const entry = historyEntry(mixed);

    expect(entry.vulnerabilities).toEqual([
      { id: 'h1', title: 'No HSTS', severity: 'critical' },
      { id: 't2', title: 'Weak cipher', severity: 'high' },
      { id: 't1', title: 'Old TLS', severity: 'medium' },
    ]);
    expect(entry.vulnerabilities).toHaveLength(entry.findings.totalIssues);
  });

  it("reads 'pro' only for a paid Pro Audit, 'basic' for a Basic Audit and a free scan", () => {
    const paid = (planType: 'basic' | 'pro') => ({ ...audit, isPremium: true, planType, paymentSessionId: 'cs_test_1', badgeEligibleUntil: '2026-04-01T00:00:00.000Z' });
    expect([historyEntry(audit).tier, historyEntry(paid('basic')).tier, historyEntry(paid('pro')).tier]).toEqual(['basic', 'basic', 'pro']);
    // Its label is the catalogue's product: a free scan is a 'Free report', never 'Basic' (issue 29 item 2).
    expect([historyEntry(audit), historyEntry(paid('basic')), historyEntry(paid('pro'))].map((entry) => reportProductName(entry.product))).toEqual([
      'Free report',
      'Basic Audit',
      'Pro Audit',
    ]);
    // A plan type without the purchase mark is not a purchase.
    expect(historyEntry({ ...audit, planType: 'pro' }).tier).toBe('basic');
  });

  it('carries the badge eligibility it is given (worked out per domain by the use case)', () => {
    expect([historyEntry(audit).badgeEligible, historyEntry(audit, true).badgeEligible]).toEqual([false, true]);
  });

  it('has no score or duration before it ends', () => {
    const queued = historyEntry({ ...audit, status: 'queued', startedAt: undefined, completedAt: undefined, score: undefined, riskLevel: undefined, checks: [] });
    expect(queued).toMatchObject({ status: 'queued', riskScore: null, riskLevel: null, scanDuration: null });
  });
});
