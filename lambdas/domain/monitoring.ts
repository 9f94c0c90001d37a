import { createHash } from 'node:crypto';
import type { DomainRecord } from './domains.js';
import type { MonitoringChange } from './monitoring-diff.js';
import { getPlan } from './plans.js';
import type { StoredSubscription } from './ports.js';

/**
 * What subscribers' monitoring does and when (issue 8 "Monitoring"; DECISIONS "Plan features",
 * "Scan counting"). Pure: the scheduler and the alerting use case read these rules.
 *
 * Choices, in one place:
 * - Cadence: Monitor Lite rescans each monitored domain weekly, Monitor Plus daily. Only a
 *   subscription in status `active` is monitored, and never the demo account's seeded plan (its
 *   domains are reserved `.example` names that cannot be scanned).
 * - Spread: each domain has a fixed offset within the period, hashed from the domain, so the
 *   rescans of many domains fall evenly over the week (or day) instead of all at the first run.
 *   The period's slot of a domain starts at `k × period + offset`; a domain is due when no rescan
 *   was claimed for the current slot. The first rescan of a new subscriber's domain is due at once.
 * - Limits: monitoring rescans never count against the plan's `scansLimit` (DECISIONS "Scan
 *   counting"). Each plan monitors a fixed number of verified domains — Monitor Lite 6, Monitor
 *   Plus 12 — so the dearer plan never covers fewer sites (deriving the cap from the monthly scans
 *   gave Plus 3 against Lite's 6). The domains verified first are the monitored ones (then by
 *   name), so the choice is stable.
 * - Alerts: at most one alert (an email, and an SMS where it applies) per domain per hour. Changes
 *   found while that hour's alert has gone out are kept and folded into the next alert, which the
 *   scheduler sends once the hour is over; nothing is dropped. SMS alerts come with Monitor Plus
 *   (its "email and SMS alert on each detected change"), to a validated mobile number only.
 */

export type MonitoredPlanId = 'monitor-lite' | 'monitor-plus';
export type MonitoringCadence = 'weekly' | 'daily';

const DAY_MS = 86_400_000;

const PERIOD_MS: Record<MonitoringCadence, number> = { weekly: 7 * DAY_MS, daily: DAY_MS };

/** Each plan's cadence and domains, from its grants in the plan catalogue (lambdas/domain/plans.ts). */
function cadenceOf(planId: MonitoredPlanId): { cadence: MonitoringCadence; periodMs: number; maxDomains: number } {
  const monitoring = getPlan(planId).grants.monitoring;
  if (!monitoring) throw new Error(`${planId} grants no monitoring`);
  return { cadence: monitoring.cadence, periodMs: PERIOD_MS[monitoring.cadence], maxDomains: monitoring.maxDomains };
}

export const MONITORING_CADENCE: Record<MonitoredPlanId, { cadence: MonitoringCadence; periodMs: number; maxDomains: number }> = {
  'monitor-lite': cadenceOf('monitor-lite'),
  'monitor-plus': cadenceOf('monitor-plus'),
};

export interface MonitoringPlan {
  planId: MonitoredPlanId;
  cadence: MonitoringCadence;
  periodMs: number;
  /** How many verified domains the plan monitors. */
  maxDomains: number;
  /** Whether alerts also go by SMS (to a validated mobile number). */
  smsAlerts: boolean;
}

export function monitoringPlanFor(planId: MonitoredPlanId): MonitoringPlan {
  const { cadence, periodMs, maxDomains } = MONITORING_CADENCE[planId];
  return { planId, cadence, periodMs, maxDomains, smsAlerts: getPlan(planId).grants.alerts.includes('sms') };
}

/** The monitoring a stored subscription pays for; undefined when it pays for none right now. */
export function monitoringPlanOf(subscription: StoredSubscription | undefined): MonitoringPlan | undefined {
  if (!subscription || subscription.status !== 'active' || subscription.source === 'demo') return undefined;
  return monitoringPlanFor(subscription.planId);
}

/** The domain's fixed offset within a period: the first 48 bits of SHA-256 of the domain, modulo the period. */
export function rescanOffsetMs(domain: string, periodMs: number): number {
  const hash = createHash('sha256').update(domain).digest();
  return hash.readUIntBE(0, 6) % periodMs;
}

/** When the domain's current slot began: the last `k × period + offset` at or before `now`. */
export function rescanSlotStart(domain: string, periodMs: number, now: Date): Date {
  const offset = rescanOffsetMs(domain, periodMs);
  const k = Math.floor((now.getTime() - offset) / periodMs);
  return new Date(k * periodMs + offset);
}

/** The verified domains a plan monitors: the first verified, up to the plan's number. */
export function monitoredDomains(domains: readonly DomainRecord[], maxDomains: number): DomainRecord[] {
  return domains
    .filter((domain) => domain.verified)
    .sort((a, b) => (a.verifiedAt ?? a.addedAt).localeCompare(b.verifiedAt ?? b.addedAt) || a.domain.localeCompare(b.domain))
    .slice(0, maxDomains);
}

/** At most this many alerts (each an email, plus an SMS where it applies) per domain per window. */
export const ALERT_RATE_LIMIT = { alerts: 1, windowSeconds: 3_600 } as const;

/** The scheduler queues at most this many rescans per run; the rest are still due at the next run. */
export const MAX_RESCANS_PER_RUN = 200;

/** One line per change for the alerts list (`GET /api/me/alerts`). */
export function changeTitle(change: MonitoringChange): string {
  switch (change.type) {
    case 'finding_new':
      return `New ${change.severity} issue: ${change.title}`;
    case 'finding_resolved':
      return `Resolved: ${change.title}`;
    case 'grade_changed':
      return `Grade ${change.direction === 'up' ? 'improved' : 'dropped'} from ${change.from} to ${change.to}`;
    case 'certificate_expiring':
      return change.expired ? 'TLS certificate expired' : `TLS certificate expires in ${change.daysLeft} day${change.daysLeft === 1 ? '' : 's'}`;
    case 'port_opened':
      return `Port ${change.port} (${change.service}) opened`;
    case 'kev_match':
      return `${change.cveId} in ${change.productName} ${change.version} is exploited in the wild`;
    case 'issue_overdue':
      return `Overdue ${change.severity} issue: ${change.title} (open past its ${change.targetDays}-day target)`;
  }
}
