import type { AuditHistoryEntry } from '../../../lib/contracts';
import type { DomainView } from '../../account/api/domains';

export const BADGE_MIN_SCORE = 60;
export const BADGE_MAX_SCAN_AGE_DAYS = 30;

export interface BadgeEligibility {
  domain: string;
  score: number | null;
  lastScan: string | null;
  eligible: boolean;
  /** What still stands between the domain and its badge. */
  missing: string[];
}

/**
 * DECISIONS "Badge eligibility": a verified domain, score ≥ 60, a completed scan within 30 days.
 * (The server decides for the badge image itself; this list explains it to the customer.)
 */
export function badgeEligibility(domains: readonly DomainView[], audits: readonly AuditHistoryEntry[], now = Date.now()): BadgeEligibility[] {
  return domains.map((domain) => {
    const latest = audits.find((audit) => audit.domain === domain.domain && audit.status === 'completed' && audit.riskScore !== null);
    const missing: string[] = [];
    if (!domain.verified) missing.push('Verify that you own the domain');
    if (!latest) missing.push('Run a scan');
    else {
      if (latest.riskScore! < BADGE_MIN_SCORE) missing.push(`Reach a score of ${BADGE_MIN_SCORE} or more`);
      if (now - Date.parse(latest.scanDate) > BADGE_MAX_SCAN_AGE_DAYS * 86_400_000) missing.push(`Scan again (the last scan is over ${BADGE_MAX_SCAN_AGE_DAYS} days old)`);
    }
    return { domain: domain.domain, score: latest?.riskScore ?? null, lastScan: latest?.scanDate ?? null, eligible: missing.length === 0, missing };
  });
}
