/**
 * SPEC §9 "Performance score" (DECISIONS "Texts": measured with web-vitals on Rampart's own pages):
 * 100, less a deduction for each metric past its threshold — page load over 2, 3 or 5 s, first
 * (contentful) paint over 1.8 or 3 s, largest paint over 2.5 or 4 s, layout shift over 0.1 or 0.25,
 * input delay over 100 or 300 ms. The spec does not give the sizes; these are ours, bigger for the
 * worse band and for what visitors feel most (a late main paint, a jumping page, a slow first tap).
 * The paint and shift thresholds are Google's Core Web Vitals "good"/"poor" bounds.
 */
export interface PageMetrics {
  /** Navigation start to the end of the load event. */
  pageLoadMs?: number;
  firstPaintMs?: number;
  largestPaintMs?: number;
  layoutShift?: number;
  /** The slowest interaction's input delay (web-vitals INP attribution). */
  inputDelayMs?: number;
}

export type MetricName = keyof PageMetrics;

/** Worst band first: a metric takes the deduction of the highest threshold it passes. */
export const PERFORMANCE_DEDUCTIONS: Record<MetricName, readonly { above: number; points: number }[]> = {
  pageLoadMs: [
    { above: 5000, points: 20 },
    { above: 3000, points: 10 },
    { above: 2000, points: 5 },
  ],
  firstPaintMs: [
    { above: 3000, points: 15 },
    { above: 1800, points: 5 },
  ],
  largestPaintMs: [
    { above: 4000, points: 20 },
    { above: 2500, points: 10 },
  ],
  layoutShift: [
    { above: 0.25, points: 20 },
    { above: 0.1, points: 10 },
  ],
  inputDelayMs: [
    { above: 300, points: 20 },
    { above: 100, points: 10 },
  ],
};

const LABELS: Record<MetricName, string> = {
  pageLoadMs: 'page load',
  firstPaintMs: 'first paint',
  largestPaintMs: 'largest paint',
  layoutShift: 'layout shift',
  inputDelayMs: 'input delay',
};

export interface Deduction {
  metric: MetricName;
  value: number;
  above: number;
  points: number;
}

export function performanceScore(metrics: PageMetrics): { score: number; deductions: Deduction[] } {
  const deductions: Deduction[] = [];
  for (const metric of Object.keys(PERFORMANCE_DEDUCTIONS) as MetricName[]) {
    const value = metrics[metric];
    if (value === undefined || !Number.isFinite(value)) continue;
    const band = PERFORMANCE_DEDUCTIONS[metric].find((b) => value > b.above);
    if (band) deductions.push({ metric, value, ...band });
  }
  const score = Math.max(0, 100 - deductions.reduce((sum, d) => sum + d.points, 0));
  return { score, deductions };
}

function formatValue(metric: MetricName, value: number): string {
  return metric === 'layoutShift' ? value.toFixed(3) : `${Math.round(value)} ms`;
}

/** One console line: the score, each measured metric, and what cost points. */
export function describePerformance(metrics: PageMetrics): string {
  const { score, deductions } = performanceScore(metrics);
  const measured = (Object.keys(LABELS) as MetricName[])
    .filter((metric) => metrics[metric] !== undefined)
    .map((metric) => `${LABELS[metric]} ${formatValue(metric, metrics[metric]!)}`);
  const lost = deductions.map((d) => `−${d.points} ${LABELS[d.metric]} over ${formatValue(d.metric, d.above)}`);
  return `Performance score ${score}/100 (${measured.join(', ') || 'nothing measured'})${lost.length ? `; ${lost.join('; ')}` : ''}`;
}
