import type { Finding, Grade, RiskLevel } from './audit.js';

/** SPEC §9 Scoring, DECISIONS "Issues vs observations": info findings are observations and do not count. */
export const SCORE_PENALTY = { critical: 20, other: 5 } as const;

export function riskScore(findings: readonly Pick<Finding, 'severity'>[]): number {
  let score = 100;
  for (const finding of findings) {
    if (finding.severity === 'critical') score -= SCORE_PENALTY.critical;
    else if (finding.severity !== 'info') score -= SCORE_PENALTY.other;
  }
  return Math.max(0, Math.min(100, score));
}

export function grade(score: number): Grade {
  if (score >= 90) return 'A';
  if (score >= 80) return 'B';
  if (score >= 70) return 'C';
  if (score >= 60) return 'D';
  return 'F';
}

/** DECISIONS "risk_level": ≥ 80 low, 60–79 medium, < 60 high. */
export function riskLevel(score: number): RiskLevel {
  if (score >= 80) return 'low';
  if (score >= 60) return 'medium';
  return 'high';
}
