import type { Audit } from './audit.js';
import { buildAuditView } from './audit-view.js';
import type { AuditHistoryEntry, NotificationPreferences, SubscriptionView, UserView } from './account.contract.js';
import { getPlan, TRIAL_DAYS } from './plans.js';

/** A user's profile as stored (one item per account, keyed by the Cognito sub). */
export interface UserProfile {
  userId: string;
  email: string;
  firstName: string;
  lastName: string;
  company: string;
  mobileNumber?: string;
  notifications: NotificationPreferences;
  createdAt: string;
  updatedAt: string;
}

const DAY_MS = 86_400_000;

/**
 * DECISIONS "Trial": every new account starts a 14-day trial (tier basic, 3 scans, price 0, AUD);
 * past its end it reads as `expired`. Computed on read with the clock, so nothing has to flip it.
 */
export function trialSubscription(accountCreatedAt: string, scansUsed: number, now: Date): SubscriptionView {
  const trial = getPlan('trial');
  const start = new Date(accountCreatedAt);
  const end = new Date(start.getTime() + TRIAL_DAYS * DAY_MS);
  return {
    tier: 'basic',
    status: now.getTime() < end.getTime() ? 'trial' : 'expired',
    scansLimit: trial.scansLimit ?? 0,
    scansUsed,
    price: trial.amountCents / 100,
    currency: 'AUD',
    billingPeriod: 'trial',
    startDate: start.toISOString(),
    endDate: end.toISOString(),
  };
}

export function userView(profile: UserProfile): UserView {
  return {
    id: profile.userId,
    email: profile.email,
    firstName: profile.firstName,
    lastName: profile.lastName,
    company: profile.company,
    ...(profile.mobileNumber ? { mobileNumber: profile.mobileNumber } : {}),
    createdAt: profile.createdAt,
  };
}

/** SPEC §3 Audit history entry, with the same counters as the results page (audit-view). */
export function historyEntry(audit: Audit): AuditHistoryEntry {
  const view = buildAuditView(audit);
  const started = audit.startedAt ? Date.parse(audit.startedAt) : NaN;
  const ended = audit.completedAt ? Date.parse(audit.completedAt) : NaN;
  return {
    id: audit.id,
    domain: audit.host,
    scanDate: audit.createdAt,
    // Free lead scans and trial scans are basic; paid tiers arrive with payments.
    tier: 'basic',
    status: audit.status,
    riskScore: view.risk_score,
    riskLevel: view.risk_level,
    findings: { ...view.counters },
    scanDuration: Number.isFinite(started) && Number.isFinite(ended) ? Math.max(0, Math.round((ended - started) / 1000)) : null,
    reportUrl: `/results/${audit.id}`,
    pdfUrl: `/reports/${audit.id}.pdf`,
  };
}
