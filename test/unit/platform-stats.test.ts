import { describe, expect, it } from 'vitest';
import type { PlatformStats } from '../../lambdas/domain/ports.js';
import { platformStats } from '../../lambdas/use-cases/platform-stats.js';

const totals = (auditsCompleted: number, scanDurationMsTotal: number): { stats: PlatformStats } => ({
  stats: { recordCompletedAudit: () => Promise.resolve(), read: () => Promise.resolve({ auditsCompleted, scanDurationMsTotal }) },
});

describe('platform statistics', () => {
  it('average the measured scan time to a tenth of a second', async () => {
    expect(await platformStats(totals(3, 62_150))).toEqual({ auditsCompleted: 3, countries: null, averageScanSeconds: 20.7 });
  });

  it('have no average before the first completed audit, and never a country count', async () => {
    expect(await platformStats(totals(0, 0))).toEqual({ auditsCompleted: 0, countries: null, averageScanSeconds: null });
  });
});
