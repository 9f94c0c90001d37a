import { describe, expect, it } from 'vitest';
import { grade, riskLevel, riskScore } from '../../lambdas/domain/scoring.js';

const findings = (...severities: ('critical' | 'high' | 'medium' | 'low' | 'info')[]) => severities.map((severity) => ({ severity }));

describe('risk score (SPEC §9)', () => {
  it('takes 20 per critical and 5 per other issue from 100', () => {
    expect(riskScore(findings('critical', 'high', 'medium', 'low'))).toBe(65);
  });

  it('does not count info findings (observations)', () => {
    expect(riskScore(findings('info', 'info', 'info'))).toBe(100);
  });

  it('clamps at 0', () => {
    expect(riskScore(findings('critical', 'critical', 'critical', 'critical', 'critical', 'critical'))).toBe(0);
  });

  it.each([
    [100, 'A'], [90, 'A'], [89, 'B'], [80, 'B'], [79, 'C'], [70, 'C'], [69, 'D'], [60, 'D'], [59, 'F'], [0, 'F'],
  ] as const)('grades %i as %s', (score, expected) => {
    expect(grade(score)).toBe(expected);
  });

  it.each([
    [80, 'low'], [79, 'medium'], [60, 'medium'], [59, 'high'],
  ] as const)('gives risk level %s for score %i', (score, expected) => {
    expect(riskLevel(score)).toBe(expected);
  });
});
