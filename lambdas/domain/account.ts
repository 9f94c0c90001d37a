import type { Audit } from './audit.js';
import { buildAuditView } from './audit-view.js';
import type { AuditHistoryEntry, NotificationPreferences, SubscriptionView, UserView } from './account.contract.js';
import { getPlan, type PlanId, reportProduct, TRIAL_DAYS } from './plans.js';
import type { StoredSubscription } from './ports.js';

/** A user's profile as stored (one item per account, keyed by the Cognito sub). */
export interface UserProfile {
  userId: string;
  email: string;
  firstName: string;
  lastName: string;
  company: string;
  mobileNumber?: string;
  notifications: NotificationPreferences;
  /** The demo account (DECISIONS "Demo account"), seeded by provisioning with DEMO_MODE on. */
  isDemo?: boolean;
  /** The payment provider's customer (cus_…), created at the user's first checkout and reused. */
  customerId?: string;
  createdAt: string;
  updatedAt: string;
}

const DAY_MS = 86_400_000;

/**
 * DECISIONS "Trial": every new account starts a 14-day trial (tier basic, 3 scans, price 0, AUD);
 * past its end it reads as `expired`. Computed on read with the clock, so nothing has to flip it.
 */
export function trialSubscription(accountCreatedAt: string, scansUsed: number, now: Date, extraScans = 0): SubscriptionView {
  const trial = getPlan('trial');
  const start = new Date(accountCreatedAt);
  const end = new Date(start.getTime() + TRIAL_DAYS * DAY_MS);
  return {
    tier: 'basic',
    status: now.getTime() < end.getTime() ? 'trial' : 'expired',
    scansLimit: (trial.scansLimit ?? 0) + extraScans,
    scansUsed,
    price: trial.amountCents / 100,
    currency: 'AUD',
    billingPeriod: 'trial',
    startDate: start.toISOString(),
    endDate: end.toISOString(),
  };
}

/**
 * A stored subscription (payments, or the demo account's seeded plan) as the API shows it: the
 * plan's tier, limit and price from the catalogue, the state and period as stored.
 */
export function storedSubscriptionView(stored: StoredSubscription, scansUsed: number, extraScans = 0): SubscriptionView {
  const plan = getPlan(stored.planId);
  return {
    tier: plan.tier,
    status: stored.status,
    scansLimit: (plan.scansLimit ?? 0) + extraScans,
    scansUsed,
    price: plan.amountCents / 100,
    currency: 'AUD',
    billingPeriod: 'monthly',
    startDate: stored.currentPeriodStart,
    endDate: stored.currentPeriodEnd,
  };
}

/**
 * The account's subscription: the stored one when there is one, else the trial computed on read.
 * `extraScans`: scans bought in scan packs, on top of the plan's limit.
 */
export function subscriptionView(
  profile: Pick<UserProfile, 'createdAt'>,
  stored: StoredSubscription | undefined,
  scansUsed: number,
  now: Date,
  extraScans = 0,
): SubscriptionView {
  return stored ? storedSubscriptionView(stored, scansUsed, extraScans) : trialSubscription(profile.createdAt, scansUsed, now, extraScans);
}

/**
 * How many scans the user may start in the current period (DECISIONS "Scan counting"): the stored
 * plan's limit while it is active, else the trial's; scan-pack scans come on top (`extraScans`).
 * The count goes back to 0 when a subscription's invoice for a new period is paid.
 */
export function scansLimitOf(stored: StoredSubscription | undefined, extraScans = 0): number {
  return baseScansLimit(stored) + extraScans;
}

/** The plan whose own scans the user draws first: an active stored subscription's, else the trial's. */
export function allowancePlanOf(stored: StoredSubscription | undefined): PlanId {
  return stored && stored.status === 'active' ? stored.planId : 'trial';
}

/** The scans of the allowance plan alone, before any scan-pack scans. */
export function baseScansLimit(stored: StoredSubscription | undefined): number {
  const trialLimit = getPlan('trial').scansLimit ?? 0;
  return getPlan(allowancePlanOf(stored)).scansLimit ?? trialLimit;
}

export function userView(profile: UserProfile): UserView {
  return {
    id: profile.userId,
    email: profile.email,
    firstName: profile.firstName,
    lastName: profile.lastName,
    company: profile.company,
    ...(profile.mobileNumber ? { mobileNumber: profile.mobileNumber } : {}),
    isDemo: profile.isDemo === true,
    createdAt: profile.createdAt,
  };
}

/**
 * SPEC §3 Audit history entry, with the same counters and issues as the results page (audit-view).
 * `badgeEligible` needs the site's badge facts, which are not the audit's: the caller works it out
 * (lambdas/use-cases/badges.ts) and passes it in.
 */
export function historyEntry(audit: Audit, badgeEligible = false): AuditHistoryEntry {
  const view = buildAuditView(audit);
  const started = audit.startedAt ? Date.parse(audit.startedAt) : NaN;
  const ended = audit.completedAt ? Date.parse(audit.completedAt) : NaN;
  return {
    id: audit.id,
    domain: audit.host,
    scanDate: audit.createdAt,
    // The paid audit bought last decides (Pro after Basic makes it pro); free and own scans read basic.
    tier: audit.isPremium === true && audit.planType === 'pro' ? 'pro' : 'basic',
    product: reportProduct(audit),
    status: audit.status,
    riskScore: view.risk_score,
    riskLevel: view.risk_level,
    vulnerabilities: view.vulnerability_summary.vulnerabilities.map(({ id, title, severity }) => ({ id, title, severity })),
    badgeEligible,
    partial: view.coverage.partial,
    findings: { ...view.counters },
    scanDuration: Number.isFinite(started) && Number.isFinite(ended) ? Math.max(0, Math.round((ended - started) / 1000)) : null,
    reportUrl: `/results/${audit.id}`,
    pdfUrl: `/reports/${audit.id}.pdf`,
  };
}
