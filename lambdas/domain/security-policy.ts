import type { MonitoringChange } from './monitoring-diff.js';
import { planIncludes } from './plans.js';
import type { StoredSubscription } from './ports.js';
import type { PolicyAction, SecurityPolicyView } from './security-policy.contract.js';

/**
 * Custom security policies (DECISIONS "Plan features"): a customer accepts or mutes one finding of
 * one of their verified domains, with a reason. Pure rules; the use case is
 * lambdas/use-cases/security-policies.ts.
 *
 * Choices, in one place:
 * - A policy names a finding by the scanner's stable id, for one domain (the site key): the same
 *   finding on another domain still alerts.
 * - It applies while it has not expired and the owner's plan includes custom policies (Monitor
 *   Plus, active; the demo account's seeded Monitor Plus too). A lapsed plan keeps the policies
 *   (they apply again after an upgrade) and they can still be listed and removed.
 * - In monitoring, a policy silences the finding's "new" and "resolved" alerts, including changes
 *   that waited for the hourly limit. Known-exploited CVEs, new open ports, grade and certificate
 *   changes are changes of their own and still alert: a CVE newly exploited in the wild changes the
 *   risk that was accepted.
 * - The score never changes: it is a measurement of what the scan found. Reports mark the finding
 *   for its owner only (the dashboard's report view and the monthly report emailed to them); the
 *   public, shared and per-audit PDF reports do not carry a customer's reasons.
 */

export interface SecurityPolicy {
  domain: string;
  findingId: string;
  action: PolicyAction;
  reason: string;
  /** ISO instant; absent: until removed. */
  expiresAt?: string;
  createdAt: string;
  createdBy: string;
}

/** The owner's plan includes custom policies (the capability of the plan catalogue) and is active. */
export function canManagePolicies(subscription: StoredSubscription | undefined): boolean {
  return subscription !== undefined && subscription.status === 'active' && planIncludes(subscription.planId, 'custom-policies');
}

export function isPolicyExpired(policy: Pick<SecurityPolicy, 'expiresAt'>, now: Date): boolean {
  return policy.expiresAt !== undefined && Date.parse(policy.expiresAt) <= now.getTime();
}

export function policyView(policy: SecurityPolicy, canManage: boolean, now: Date): SecurityPolicyView {
  return {
    domain: policy.domain,
    findingId: policy.findingId,
    action: policy.action,
    reason: policy.reason,
    expiresAt: policy.expiresAt ?? null,
    createdAt: policy.createdAt,
    createdBy: policy.createdBy,
    active: canManage && !isPolicyExpired(policy, now),
  };
}

/** The finding ids the policies silence on `domain` at `now` (none when the plan does not include policies). */
export function mutedFindingIds(policies: readonly SecurityPolicy[], domain: string, canManage: boolean, now: Date): Set<string> {
  if (!canManage) return new Set();
  return new Set(policies.filter((policy) => policy.domain === domain && !isPolicyExpired(policy, now)).map((policy) => policy.findingId));
}

/** The changes without the new, resolved and overdue findings a policy silences (for alerts that waited). */
export function withoutMutedFindings(changes: readonly MonitoringChange[], muted: ReadonlySet<string>): MonitoringChange[] {
  return changes.filter((change) => !((change.type === 'finding_new' || change.type === 'finding_resolved' || change.type === 'issue_overdue') && muted.has(change.findingId)));
}

/** The owner's policies (own items only, keyed by the Cognito sub). */
export interface SecurityPolicyRepository {
  /** The user's policies, by domain then finding id; only one domain's with `domain`. */
  list(userId: string, domain?: string): Promise<SecurityPolicy[]>;
  /**
   * Creates or replaces the policy of (domain, finding). Answers whether it was new; a new one
   * beyond `maxPolicies` is refused with a ValidationError and nothing is stored.
   */
  put(userId: string, policy: SecurityPolicy, maxPolicies: number): Promise<{ created: boolean }>;
  /** False when there was nothing to delete. */
  remove(userId: string, domain: string, findingId: string): Promise<boolean>;
  /** Deletes every policy of one domain (expired ones included); answers how many there were. */
  removeForDomain(userId: string, domain: string): Promise<number>;
}
