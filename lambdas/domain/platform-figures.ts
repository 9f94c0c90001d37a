/**
 * DECISIONS "Marketing figures are measured": the figures the landing page and the dashboard show,
 * each from the platform's own counters (GET /api/stats) or from a named, dated measurement
 * (docs/measurements/). Below a minimum sample a figure says something true instead ("New — 12
 * audits run so far") or is left out. Pure and zod-free: the landing page bundles it.
 */

/** GET /api/stats. Every figure is measured from Rampart's own data; null until there is any. */
export interface PlatformStatsView {
  auditsCompleted: number;
  /** Distinct countries of the mobile numbers of leads whose audit completed. */
  countries: number;
  /** The median start-to-completion time, whole seconds; null before the first measured audit. */
  medianScanSeconds: number | null;
  /** Mean of start-to-completion times, one decimal; null before the first completed audit. */
  averageScanSeconds: number | null;
  /** Critical issues per completed audit, one decimal; null before the first counted audit. */
  averageCriticalIssues: number | null;
  /** How many completed audits the median scan time and the critical-issue average rest on. */
  samples: { scanTimes: number; criticalIssues: number };
}

/** Fewer audits (or countries) than this, and the figure is not shown as a headline. */
export const MINIMUM_SAMPLE = { audits: 100, countries: 5 } as const;

/** A named measurement with its date and method (docs/measurements/*.json, written by a script from the bench). */
export interface Measurement {
  name: string;
  /** What the page shows, e.g. '25/25'. */
  value: string;
  /** What the value counts, in a visitor's words. */
  label: string;
  /** ISO date of the run it comes from. */
  measuredAt: string;
  method: string;
  source: string;
}

/** One figure on a page: its value, what it counts, and where it comes from. */
export interface Figure {
  id: 'audits' | 'countries' | 'median-scan-time' | 'average-critical' | 'detection';
  value: string;
  label: string;
  /** 'GET /api/stats' or the measurement's name and date. */
  source: string;
}

const STATS = 'GET /api/stats';
const whole = (n: number) => Math.round(n).toLocaleString('en-AU');

/** The median of a histogram of whole seconds → count; null when it is empty. */
export function medianOfHistogram(histogram: Readonly<Record<number, number>>): number | null {
  const buckets = Object.entries(histogram)
    .map(([seconds, count]) => [Number(seconds), count] as const)
    .filter(([, count]) => count > 0)
    .sort((a, b) => a[0] - b[0]);
  const total = buckets.reduce((n, [, count]) => n + count, 0);
  if (total === 0) return null;
  // The lower and upper middle for an even count, averaged; the middle for an odd one.
  const at = (rank: number) => {
    let seen = 0;
    for (const [seconds, count] of buckets) {
      seen += count;
      if (seen >= rank) return seconds;
    }
    return buckets[buckets.length - 1]![0];
  };
  return total % 2 === 1 ? at((total + 1) / 2) : (at(total / 2) + at(total / 2 + 1)) / 2;
}

/** The audits figure: the count from the minimum sample, else "New" with the true count. */
export function auditsFigure(stats: PlatformStatsView): Figure {
  const n = stats.auditsCompleted;
  if (n >= MINIMUM_SAMPLE.audits) return { id: 'audits', value: whole(n), label: 'security audits run', source: STATS };
  return { id: 'audits', value: 'New', label: `${whole(n)} ${n === 1 ? 'audit' : 'audits'} run so far`, source: STATS };
}

/** Figures measured by the platform, each only from its minimum sample. */
export function measuredFigures(stats: PlatformStatsView): { countries?: Figure; medianScanTime?: Figure; averageCritical?: Figure } {
  return {
    ...(stats.countries >= MINIMUM_SAMPLE.countries ? { countries: { id: 'countries', value: whole(stats.countries), label: 'countries our free reports went to', source: STATS } } : {}),
    ...(stats.medianScanSeconds !== null && stats.samples.scanTimes >= MINIMUM_SAMPLE.audits
      ? { medianScanTime: { id: 'median-scan-time', value: `${whole(stats.medianScanSeconds)} s`, label: 'median scan time', source: STATS } }
      : {}),
    ...(stats.averageCriticalIssues !== null && stats.samples.criticalIssues >= MINIMUM_SAMPLE.audits
      ? {
          averageCritical: {
            id: 'average-critical',
            value: stats.averageCriticalIssues.toLocaleString('en-AU', { minimumFractionDigits: 1, maximumFractionDigits: 1 }),
            label: 'critical issues found per report on average',
            source: STATS,
          },
        }
      : {}),
  } as const;
}

/** A dated measurement as a figure: '25/25', 'planted flaws found on our test range (27 Nov 2026)'. */
export function measurementFigure(measurement: Measurement): Figure {
  const date = new Date(`${measurement.measuredAt}T00:00:00Z`).toLocaleDateString('en-AU', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
  return { id: 'detection', value: measurement.value, label: `${measurement.label} (${date})`, source: `${measurement.name}, ${measurement.measuredAt}` };
}

/** The landing page's headline figures, in order: what is measured and above its sample, nothing else. */
export function headlineFigures(stats: PlatformStatsView | undefined, detection: Measurement): Figure[] {
  const measured = stats ? measuredFigures(stats) : {};
  return [...(stats ? [auditsFigure(stats)] : []), ...(measured.countries ? [measured.countries] : []), measurementFigure(detection)];
}

/** The lead form's figures: the platform's scan time and critical issues, once measured on enough audits. */
export function scanFigures(stats: PlatformStatsView | undefined): Figure[] {
  if (!stats) return [];
  const measured = measuredFigures(stats);
  return [measured.medianScanTime, measured.averageCritical].filter((figure): figure is Figure => figure !== undefined);
}
