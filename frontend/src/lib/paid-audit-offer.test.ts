import { describe, expect, it } from 'vitest';
import type { SubscriptionView } from './contracts';
import { paidAuditOfferFor, viewerHasDeepScan, type OfferViewer } from './paid-audit-offer';

const audit = (extra: Partial<Parameters<typeof paidAuditOfferFor>[0]> = {}) => ({ status: 'completed' as const, ...extra });
const result = (issues: number, extra: Partial<Parameters<typeof paidAuditOfferFor>[1]> = {}) => ({
  counters: { totalIssues: issues, criticalIssues: 0, openPorts: 0, subdomains: 0 },
  is_premium: false,
  plan_type: null,
  ...extra,
});
const subscription = (extra: Partial<SubscriptionView>): SubscriptionView => ({
  tier: 'basic',
  status: 'trial',
  scansLimit: 3,
  scansUsed: 0,
  price: 0,
  currency: 'AUD',
  billingPeriod: 'trial',
  startDate: '2026-12-01T00:00:00.000Z',
  endDate: '2026-12-15T00:00:00.000Z',
  ...extra,
});
const signedIn = (extra: Partial<SubscriptionView>): OfferViewer => ({ kind: 'signed-in', subscription: subscription(extra) });
const monitorPlus = { tier: 'monitor_plus', status: 'active', billingPeriod: 'monthly', scansLimit: 100, price: 99 } as const;
const monitorLite = { tier: 'monitor_lite', status: 'active', billingPeriod: 'monthly', scansLimit: 30, price: 49 } as const;

describe('paidAuditOfferFor: the paid audit offer follows what the viewer already has', () => {
  it("offers an anonymous visitor's free report with 'This free report found 9 issues.'", () => {
    expect(paidAuditOfferFor(audit(), result(9), { kind: 'anonymous' })).toEqual({
      show: true,
      lead: 'This free report found 9 issues. A paid audit scans this site in depth and tells you how to fix what it finds.',
    });
  });

  it("offers a trial viewer the audit, calling the report 'This report' (it may be their Quick Scan)", () => {
    expect(paidAuditOfferFor(audit(), result(1), signedIn({ scansUsed: 1 }))).toEqual({
      show: true,
      lead: 'This report found 1 issue. A paid audit scans this site in depth and tells you how to fix what it finds.',
    });
  });

  it('offers a viewer whose subscription lapsed the audit like a free viewer', () => {
    const decision = paidAuditOfferFor(audit(), result(2), signedIn({ ...monitorPlus, status: 'expired' }));
    expect(decision).toEqual({ show: true, lead: 'This report found 2 issues. A paid audit scans this site in depth and tells you how to fix what it finds.' });
  });

  it("offers a Monitor Plus subscriber the deep scan their plan lacks, never as 'This free report', with their plan's reach", () => {
    const decision = paidAuditOfferFor(audit(), result(9), signedIn({ ...monitorPlus, scansUsed: 4 }));
    expect(decision).toEqual({
      show: true,
      lead: 'This report found 9 issues. A paid audit scans this site in depth and tells you how to fix what it finds.',
      planNote:
        'Your Monitor Plus plan scans the 100 most common ports of the site itself; a paid audit adds the deep scan below, and your subscriber discount is applied at checkout.',
    });
  });

  it("calls a subscriber's monitoring re-scan 'This monitoring re-scan'", () => {
    const decision = paidAuditOfferFor(audit({ origin: 'monitoring' }), result(3), signedIn(monitorLite));
    expect(decision.show && decision.lead).toBe('This monitoring re-scan found 3 issues. A paid audit scans this site in depth and tells you how to fix what it finds.');
  });

  it('offers nothing to a viewer with scan-pack scans left (every pack scan is deep)', () => {
    // Monitor Lite's own 30 scans + a 5-Scan Pack, 31 used: 4 deep scans left.
    expect(paidAuditOfferFor(audit(), result(9), signedIn({ ...monitorLite, scansLimit: 35, scansUsed: 31 }))).toEqual({ show: false, reason: 'deep-scan-included' });
    // The trial's 3 + a 20-Scan Pack.
    expect(paidAuditOfferFor(audit(), result(9), signedIn({ scansLimit: 23, scansUsed: 0 }))).toEqual({ show: false, reason: 'deep-scan-included' });
  });

  it('offers the audit again once the pack scans are all used', () => {
    expect(viewerHasDeepScan(subscription({ ...monitorLite, scansLimit: 35, scansUsed: 35 }))).toBe(false);
    expect(paidAuditOfferFor(audit(), result(9), signedIn({ ...monitorLite, scansLimit: 35, scansUsed: 35 })).show).toBe(true);
  });

  it("keeps the offer, as 'This report', for a signed-in viewer whose subscription the API could not give", () => {
    expect(paidAuditOfferFor(audit(), result(4), { kind: 'signed-in' })).toEqual({
      show: true,
      lead: 'This report found 4 issues. A paid audit scans this site in depth and tells you how to fix what it finds.',
    });
  });

  it('waits for the signed-in viewer\'s subscription before offering anything', () => {
    expect(paidAuditOfferFor(audit(), result(9), { kind: 'loading' })).toEqual({ show: false, reason: 'viewer-unknown' });
  });

  it.each([
    ['a running scan', audit({ status: 'in_progress' }), result(9), 'not-finished'],
    ['no issues', audit(), result(0), 'no-issues'],
    ['the sample report', audit(), result(9, { sample: true }), 'sample'],
    ['a blocked site', audit(), result(9, { site_access: { blocked: true } as never }), 'blocked'],
    ['a paid audit (is_premium)', audit(), result(9, { is_premium: true, plan_type: 'basic' }), 'paid-audit'],
    ['a paid audit (the audit record)', audit({ isPremium: true }), result(9), 'paid-audit'],
    ['a scan-pack deep scan', audit({ depth: 'deep' }), result(9), 'deep-report'],
  ] as const)('offers nothing on %s, to anyone', (_, a, r, reason) => {
    expect(paidAuditOfferFor(a, r, { kind: 'anonymous' })).toEqual({ show: false, reason });
  });
});
