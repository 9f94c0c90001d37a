import type { Deps } from '../composition.js';

/**
 * DECISIONS "Platform statistics in the dashboard": live figures from Rampart's own data where it
 * has them. Audits completed and the measured average scan time come from the counters the scan
 * worker keeps; leads record no country, so `countries` is null (the dashboard then shows the
 * copy figure, labelled as such) rather than a number nobody measured.
 */
export interface PlatformStatsView {
  auditsCompleted: number;
  countries: number | null;
  /** Mean of start-to-completion times, one decimal; null before the first completed audit. */
  averageScanSeconds: number | null;
}

export async function platformStats(deps: Pick<Deps, 'stats'>): Promise<PlatformStatsView> {
  const totals = await deps.stats.read();
  const average = totals.auditsCompleted > 0 ? Math.round(totals.scanDurationMsTotal / totals.auditsCompleted / 100) / 10 : null;
  return { auditsCompleted: totals.auditsCompleted, countries: null, averageScanSeconds: average };
}
