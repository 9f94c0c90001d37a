import type { AuditHistoryEntry } from '../../../lib/contracts';

export interface ScanSummary {
  total: number;
  completed: number;
  /** Mean risk score of the completed scans, rounded; null before the first one completes. */
  averageScore: number | null;
  criticalIssues: number;
}

/** The Scans page's summary cards, over every scan the user has (not only the filtered ones). */
export function summariseScans(audits: readonly AuditHistoryEntry[]): ScanSummary {
  const scores = audits.filter((audit) => audit.status === 'completed' && audit.riskScore !== null).map((audit) => audit.riskScore ?? 0);
  return {
    total: audits.length,
    completed: audits.filter((audit) => audit.status === 'completed').length,
    averageScore: scores.length ? Math.round(scores.reduce((sum, score) => sum + score, 0) / scores.length) : null,
    criticalIssues: audits.reduce((sum, audit) => sum + audit.findings.criticalIssues, 0),
  };
}
