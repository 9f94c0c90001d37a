/**
 * Measures the page with web-vitals and writes the performance score to the console when the page
 * is hidden (left, closed or put in the background), which is when the final values are known. SPEC
 * §7: "Performance metrics … are only written to the console". Loaded after the page has loaded, in
 * its own chunk, so it costs the first load nothing.
 */
import { onCLS, onFCP, onINP, onLCP } from 'web-vitals/attribution';
import { describePerformance, type PageMetrics } from './performance-score';

export function startPerformanceReport(write: (line: string) => void = (line) => console.info(line)): void {
  const metrics: PageMetrics = {};
  onFCP((metric) => (metrics.firstPaintMs = metric.value));
  onLCP((metric) => (metrics.largestPaintMs = metric.value));
  onCLS((metric) => (metrics.layoutShift = metric.value));
  onINP((metric) => (metrics.inputDelayMs = metric.attribution.inputDelay));
  // web-vitals reports its final values on the same event, in a capturing listener on window: before this one.
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState !== 'hidden') return;
    const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    if (navigation && navigation.loadEventEnd > 0) metrics.pageLoadMs = navigation.loadEventEnd;
    write(describePerformance(metrics));
  });
}
