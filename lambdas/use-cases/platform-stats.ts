import type { Deps } from '../composition.js';
import { medianOfHistogram, type PlatformStatsView } from '../domain/platform-figures.js';

export type { PlatformStatsView } from '../domain/platform-figures.js';

/**
 * DECISIONS "Marketing figures are measured": GET /api/stats, from the counters the scan worker
 * keeps (audits completed, scan times by the second, critical issues, the countries of the leads'
 * mobile numbers). The pages decide what is enough of a sample to show (lambdas/domain/platform-figures.ts).
 */
export async function platformStats(deps: Pick<Deps, 'stats'>): Promise<PlatformStatsView> {
  const totals = await deps.stats.read();
  const average = totals.auditsCompleted > 0 ? Math.round(totals.scanDurationMsTotal / totals.auditsCompleted / 100) / 10 : null;
  const timed = Object.values(totals.scanSeconds).reduce((n, count) => n + count, 0);
  const median = medianOfHistogram(totals.scanSeconds);
  return {
    auditsCompleted: totals.auditsCompleted,
    countries: totals.leadCountries.length,
    medianScanSeconds: median === null ? null : Math.round(median),
    averageScanSeconds: average,
    averageCriticalIssues: totals.criticalIssuesAudits > 0 ? Math.round((totals.criticalIssuesTotal / totals.criticalIssuesAudits) * 10) / 10 : null,
    samples: { scanTimes: timed, criticalIssues: totals.criticalIssuesAudits },
  };
}
