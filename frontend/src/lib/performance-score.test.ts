import { describe, expect, it } from 'vitest';
import { describePerformance, performanceScore } from './performance-score';

describe('performanceScore (SPEC §9)', () => {
  it('is 100 for a fast, still page, and for one with nothing measured', () => {
    expect(performanceScore({ pageLoadMs: 900, firstPaintMs: 300, largestPaintMs: 600, layoutShift: 0.01, inputDelayMs: 8 })).toEqual({ score: 100, deductions: [] });
    expect(performanceScore({}).score).toBe(100);
  });

  it.each([
    ['pageLoadMs', 2000, 0],
    ['pageLoadMs', 2001, 5],
    ['pageLoadMs', 3001, 10],
    ['pageLoadMs', 5001, 20],
    ['firstPaintMs', 1800, 0],
    ['firstPaintMs', 1801, 5],
    ['firstPaintMs', 3001, 15],
    ['largestPaintMs', 2500, 0],
    ['largestPaintMs', 2501, 10],
    ['largestPaintMs', 4001, 20],
    ['layoutShift', 0.1, 0],
    ['layoutShift', 0.11, 10],
    ['layoutShift', 0.26, 20],
    ['inputDelayMs', 100, 0],
    ['inputDelayMs', 101, 10],
    ['inputDelayMs', 301, 20],
  ] as const)('deducts for %s at %d: %d points (worst band only)', (metric, value, points) => {
    expect(100 - performanceScore({ [metric]: value }).score).toBe(points);
  });

  it('adds the deductions of every metric and never goes below 0', () => {
    expect(performanceScore({ pageLoadMs: 3500, layoutShift: 0.2 }).score).toBe(80);
    expect(performanceScore({ pageLoadMs: 9000, firstPaintMs: 9000, largestPaintMs: 9000, layoutShift: 1, inputDelayMs: 900 }).score).toBe(5);
    expect(performanceScore({ pageLoadMs: Number.NaN }).score).toBe(100);
  });

  it('describes the figures and what cost points in one line', () => {
    expect(describePerformance({ pageLoadMs: 3500.4, firstPaintMs: 310, largestPaintMs: 640, layoutShift: 0.2, inputDelayMs: 12 })).toBe(
      'Performance score 80/100 (page load 3500 ms, first paint 310 ms, largest paint 640 ms, layout shift 0.200, input delay 12 ms); −10 page load over 3000 ms; −10 layout shift over 0.100',
    );
    expect(describePerformance({})).toBe('Performance score 100/100 (nothing measured)');
  });
});
