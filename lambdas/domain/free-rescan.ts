import type { Audit } from './audit.js';
import { auditGrants, PLAN_GRANTS } from './plans.js';

/**
 * The Pro Audit's free re-scan to confirm fixes (DECISIONS "What paid audits add"): one deep re-scan
 * of the same report per Pro Audit purchase, within 30 days of the purchase, not counted against any
 * plan's scans.
 *
 * The 30 days count from the audit's `updatedAt`, which the payment webhook sets when it grants the
 * paid audit (SPEC §3 premium update fields) and nothing else changes: the moment Rampart recorded
 * the payment, on the audit itself, so the report can show the deadline without reading the order.
 * Buying the Pro Audit of the same report again starts a new window with a new re-scan.
 */

/** The Pro Audit's grant (lambdas/domain/plans.ts); a report's own window is its grants' `rescanWithinDays`. */
export const FREE_RESCAN_DAYS = PLAN_GRANTS['pro-audit'].rescanWithinDays;

export const freeRescanMessages = {
  notIncluded: 'The free re-scan comes with the Pro Audit.',
  used: 'The free re-scan of this Pro Audit has already been used.',
  expired: `The free re-scan was available for ${FREE_RESCAN_DAYS} days after the Pro Audit was bought.`,
  running: 'A scan of this report is already running. Try again when it has finished.',
  started: 'Re-scan started. This report updates by itself when it finishes.',
} as const;

/** Why a re-scan is refused, as the API's error code. */
export type FreeRescanRefusal = 'rescan_not_included' | 'free_rescan_used' | 'free_rescan_expired' | 'audit_scan_running';

export const freeRescanRefusalMessages: Record<FreeRescanRefusal, string> = {
  rescan_not_included: freeRescanMessages.notIncluded,
  free_rescan_used: freeRescanMessages.used,
  free_rescan_expired: freeRescanMessages.expired,
  audit_scan_running: freeRescanMessages.running,
};

type RescanFacts = Pick<Audit, 'status' | 'isPremium' | 'planType' | 'paymentSessionId' | 'updatedAt' | 'freeRescanUsedAt'>;

/** Whether what was paid for the report grants a re-scan (the plan catalogue's grants: the Pro Audit). */
const grantsRescan = (audit: Pick<Audit, 'isPremium' | 'planType'>): boolean => auditGrants(audit).rescanWithinDays !== null;

/** The last moment the free re-scan can be started; undefined when the audit has none. */
export function freeRescanAvailableUntil(audit: Pick<Audit, 'isPremium' | 'planType' | 'updatedAt'>): string | undefined {
  const paidAt = audit.updatedAt ? Date.parse(audit.updatedAt) : Number.NaN;
  const days = auditGrants(audit).rescanWithinDays;
  if (days === null || Number.isNaN(paidAt)) return undefined;
  return new Date(paidAt + days * 86_400_000).toISOString();
}

/**
 * Why the re-scan cannot start now, or undefined when it can. The lasting reasons come first (not a
 * Pro Audit, used, expired), so a caller is not told to wait for a scan to finish only to be refused
 * for good afterwards. Ownership is the use case's to check: it needs the lead.
 */
export function freeRescanRefusal(audit: RescanFacts, now: Date): FreeRescanRefusal | undefined {
  if (!grantsRescan(audit) || !audit.paymentSessionId) return 'rescan_not_included';
  if (audit.freeRescanUsedAt) return 'free_rescan_used';
  const until = freeRescanAvailableUntil(audit);
  if (until === undefined || now.getTime() > Date.parse(until)) return 'free_rescan_expired';
  if (audit.status === 'queued' || audit.status === 'in_progress') return 'audit_scan_running';
  return undefined;
}

/** The report's `free_rescan` block (Pro Audits only): when it ends and whether it was used. */
export interface FreeRescanView {
  availableUntil: string | null;
  usedAt: string | null;
}

export function freeRescanView(audit: Pick<Audit, 'isPremium' | 'planType' | 'updatedAt' | 'freeRescanUsedAt'>): FreeRescanView {
  return { availableUntil: freeRescanAvailableUntil(audit) ?? null, usedAt: audit.freeRescanUsedAt ?? null };
}

/** `POST /api/audits/{auditId}/rescans` → 202. */
export interface FreeRescanResponse {
  auditId: string;
  status: 'queued';
  scanDepth: 'deep';
  freeRescanUsedAt: string;
  message: string;
}
