import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { advance, renderWithProviders, stubApi } from '../../../testing/api-stub';
import { AUDIT_POLL_BACKOFF, auditPollDelay, useAudit } from './get-audit';

const ID = 'a1b2c3d4-0000-4000-8000-000000000001';
const PATH = `/api/audits/${ID}`;

function Probe() {
  const { data } = useAudit(ID);
  return <p>{data?.audit.status ?? 'loading'}</p>;
}

const auditIn = (status: string) => ({ status: 200, body: { audit: { id: ID, status, target: 'https://example.org', createdAt: '2026-12-07T00:00:00.000Z' } } });

/** Reads of the audit within each of the given seconds' windows, one step at a time on the fake clock. */
async function readsOver(seconds: number, calls: () => number): Promise<number[]> {
  const perSecond: number[] = [];
  let before = calls();
  for (let s = 0; s < seconds; s++) {
    await advance(1_000);
    perSecond.push(calls() - before);
    before = calls();
  }
  return perSecond;
}

describe('audit polling backs off (issue 30 item 2)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('waits 1 s for a running scan\'s first answers, then 2 s, then 5 s at most; 2 s then 10 s while queued; never once settled', () => {
    expect([1, 5, 6, 10, 11, 500].map((n) => auditPollDelay('in_progress', n))).toEqual([1_000, 1_000, 2_000, 2_000, 5_000, 5_000]);
    expect([1, 3, 4, 500].map((n) => auditPollDelay('queued', n))).toEqual([2_000, 2_000, 10_000, 10_000]);
    expect(AUDIT_POLL_BACKOFF.runningCapMs).toBe(5_000);
    for (const status of ['completed', 'failed', undefined] as const) expect(auditPollDelay(status, 1)).toBe(false);
  });

  it('reads a running audit 20 times in its first minute, not 61, and every 5 s after', async () => {
    // Prepare
    const api = stubApi({ [`GET ${PATH}`]: auditIn('in_progress') });
    renderWithProviders(<Probe />);
    await advance();
    expect(api.callsTo('GET', PATH)).toHaveLength(1);

    // Act
    const perSecond = await readsOver(60, () => api.callsTo('GET', PATH).length);
    const lastMinute = await readsOver(60, () => api.callsTo('GET', PATH).length);

    // Assess: 1 + 5 reads a second apart, 5 two seconds apart, then one every five seconds.
    expect(1 + perSecond.reduce((a, b) => a + b, 0)).toBe(20);
    expect(perSecond.slice(0, 5)).toEqual([1, 1, 1, 1, 1]);
    expect(lastMinute.reduce((a, b) => a + b, 0)).toBe(12);
  });

  it('reads a queued audit every 10 s once past its first answers, and stops when it completes', async () => {
    // Prepare: queued for the first 7 answers, then done.
    const answers = [...Array.from({ length: 7 }, () => auditIn('queued')), auditIn('completed')];
    const api = stubApi({ [`GET ${PATH}`]: answers });
    renderWithProviders(<Probe />);
    await advance();

    // Act
    const firstMinute = await readsOver(60, () => api.callsTo('GET', PATH).length);
    const after = await readsOver(60, () => api.callsTo('GET', PATH).length);

    // Assess: t = 0, 2, 4, 6 (2 s apart for 3 answers), then 16, 26, 36, 46 (10 s apart: the 8th is completed) and nothing more.
    expect(1 + firstMinute.reduce((a, b) => a + b, 0)).toBe(8);
    expect(firstMinute.slice(0, 10)).toEqual([0, 1, 0, 1, 0, 1, 0, 0, 0, 0]);
    expect(after.reduce((a, b) => a + b, 0)).toBe(0);
  });
});
