import { describe, expect, it } from 'vitest';
import type { AuditHistoryEntry } from '../../../lib/contracts';
import type { DomainView } from '../../account/api/domains';
import { badgeEligibility } from './eligibility';

const NOW = Date.parse('2026-11-22T00:00:00Z');
const domain = (name: string, verified: boolean) => ({ domain: name, verified }) as DomainView;
const audit = (name: string, score: number, daysAgo: number, status: AuditHistoryEntry['status'] = 'completed') =>
  ({ id: `${name}-${daysAgo}`, domain: name, status, riskScore: score, scanDate: new Date(NOW - daysAgo * 86_400_000).toISOString() }) as AuditHistoryEntry;

describe('badge eligibility', () => {
  it('needs a verified domain, score ≥ 60 and a completed scan within 30 days — each rule flips it', () => {
    const rows = badgeEligibility(
      [domain('ok.example', true), domain('unverified.example', false), domain('low.example', true), domain('old.example', true), domain('never.example', true)],
      [audit('ok.example', 60, 1), audit('unverified.example', 90, 1), audit('low.example', 59, 1), audit('old.example', 95, 31), audit('never.example', 90, 1, 'failed')],
      NOW,
    );
    expect(rows.map((r) => [r.domain, r.eligible])).toEqual([
      ['ok.example', true],
      ['unverified.example', false],
      ['low.example', false],
      ['old.example', false],
      ['never.example', false],
    ]);
    expect(rows[1]!.missing).toEqual(['Verify that you own the domain']);
    expect(rows[2]!.missing).toEqual(['Reach a score of 60 or more']);
    expect(rows[3]!.missing[0]).toMatch(/^Scan again/);
    expect(rows[4]!.missing).toEqual(['Run a scan']);
  });

  it("uses the domain's latest completed scan (the list is newest first)", () => {
    const [row] = badgeEligibility([domain('a.example', true)], [audit('a.example', 40, 1), audit('a.example', 90, 5)], NOW);
    expect(row).toMatchObject({ score: 40, eligible: false });
  });
});
