import { describe, expect, it } from 'vitest';
import { AGENT_REPORT_MAX_AGE_SECONDS, AGENT_REPORT_MAX_AHEAD_SECONDS, agentReportSchema } from '../../lambdas/domain/agents.contract.js';
import { isNewerSequence, reportFreshness } from '../../lambdas/domain/agents.js';
import { generateAgentReport } from '../../lambdas/agents/report-generator.js';

/** Issue 28 finding 13: a report is taken once (its sequence above the last one stored) and only while fresh. */
describe('agent report freshness', () => {
  const now = new Date('2026-12-07T12:00:00Z');
  const at = (seconds: number) => new Date(now.getTime() + seconds * 1000).toISOString();

  it('takes a report dated up to 24 hours back or 15 minutes ahead of our clock', () => {
    expect([AGENT_REPORT_MAX_AGE_SECONDS, AGENT_REPORT_MAX_AHEAD_SECONDS]).toEqual([24 * 3600, 15 * 60]);
    expect([at(0), at(-24 * 3600), at(15 * 60), at(-3600)].map((stamp) => reportFreshness(stamp, now))).toEqual(['fresh', 'fresh', 'fresh', 'fresh']);
  });

  it('refuses one older than 24 hours (a report dated 2020 too) or more than 15 minutes ahead', () => {
    expect(reportFreshness(at(-24 * 3600 - 1), now)).toBe('too-old');
    expect(reportFreshness('2020-01-01T00:00:00Z', now)).toBe('too-old');
    expect(reportFreshness(at(15 * 60 + 1), now)).toBe('ahead');
    expect(reportFreshness('2030-01-01T00:00:00+02:00', now)).toBe('ahead');
  });

  it('reads a timestamp with an offset as the instant it names', () => {
    expect(reportFreshness('2026-12-07T13:10:00+01:00', now)).toBe('fresh');
    expect(reportFreshness('2026-12-08T12:00:00+01:00', now)).toBe('ahead');
  });
});

describe('agent report sequence', () => {
  it('takes only a sequence above the last one stored; the first report any positive one', () => {
    expect(isNewerSequence(undefined, 1)).toBe(true);
    expect(isNewerSequence(41, 42)).toBe(true);
    expect(isNewerSequence(42, 42)).toBe(false);
    expect(isNewerSequence(42, 7)).toBe(false);
  });

  it('is required in a report: a positive whole number', () => {
    const { report } = generateAgentReport({ platform: 'linux', seed: 1, agentId: `agt_${'a'.repeat(26)}`, clientDomain: 'shop.example.test', timestamp: '2026-12-07T12:00:00Z' });
    const { sequence, ...withoutSequence } = report;
    expect(sequence).toBe(Date.parse('2026-12-07T12:00:00Z'));
    expect(agentReportSchema.safeParse(report).success).toBe(true);
    for (const bad of [undefined, 0, -1, 1.5, '5', Number.MAX_SAFE_INTEGER + 2]) {
      expect(agentReportSchema.safeParse({ ...withoutSequence, ...(bad === undefined ? {} : { sequence: bad }) }).success, String(bad)).toBe(false);
    }
  });
});
