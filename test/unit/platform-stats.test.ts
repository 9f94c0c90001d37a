import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BENCH_FILE, MEASUREMENT_FILE, rangeDetection } from '../../bin/measure-detection.js';
import { auditsFigure, headlineFigures, measuredFigures, medianOfHistogram, type PlatformStatsView } from '../../lambdas/domain/platform-figures.js';
import { countryOfMobile } from '../../lambdas/domain/phone.js';
import type { PlatformStats, PlatformStatsTotals } from '../../lambdas/domain/ports.js';
import { platformStats } from '../../lambdas/use-cases/platform-stats.js';
import { SCAN_DEADLINE_MS } from '../../lambdas/use-cases/run-scan.js';

const EMPTY: PlatformStatsTotals = { auditsCompleted: 0, scanDurationMsTotal: 0, scanSeconds: {}, criticalIssuesTotal: 0, criticalIssuesAudits: 0, leadCountries: [] };
const totals = (partial: Partial<PlatformStatsTotals>): { stats: PlatformStats } => ({
  stats: { recordCompletedAudit: () => Promise.resolve(), read: () => Promise.resolve({ ...EMPTY, ...partial }) },
});

describe('platform statistics', () => {
  it('average the measured scan time to a tenth of a second', async () => {
    expect((await platformStats(totals({ auditsCompleted: 3, scanDurationMsTotal: 62_150 }))).averageScanSeconds).toBe(20.7);
  });

  it('have nothing measured before the first completed audit', async () => {
    expect(await platformStats(totals({}))).toEqual({
      auditsCompleted: 0,
      countries: 0,
      medianScanSeconds: null,
      averageScanSeconds: null,
      averageCriticalIssues: null,
      samples: { scanTimes: 0, criticalIssues: 0 },
    });
  });

  it('take the median scan time from the per-second counters, the critical issues per counted audit and the distinct lead countries', async () => {
    // Prepare: 5 audits timed (12, 12, 30, 31, 200 s), 4 of them with critical issues counted (9 in all)
    const counters = totals({
      auditsCompleted: 6,
      scanDurationMsTotal: 300_000,
      scanSeconds: { 12: 2, 30: 1, 31: 1, 200: 1 },
      criticalIssuesTotal: 9,
      criticalIssuesAudits: 4,
      leadCountries: ['AU', 'NZ', 'GB'],
    });

    // Act
    const view = await platformStats(counters);

    // Assess
    expect(view).toEqual({
      auditsCompleted: 6,
      countries: 3,
      medianScanSeconds: 30,
      averageScanSeconds: 50,
      averageCriticalIssues: 2.3,
      samples: { scanTimes: 5, criticalIssues: 4 },
    });
  });

  it('average the two middle seconds of an even count', () => {
    expect(medianOfHistogram({ 10: 1, 20: 1, 31: 1, 40: 1 })).toBe(25.5);
    expect(medianOfHistogram({ 10: 0 })).toBeNull();
  });

  it('read the country of a lead from its mobile number', () => {
    expect(countryOfMobile('+61412345678')).toBe('AU');
    expect(countryOfMobile('+64211234567')).toBe('NZ');
    expect(countryOfMobile(undefined)).toBeUndefined();
  });
});

describe('the figures a page may show', () => {
  const view = (partial: Partial<PlatformStatsView>): PlatformStatsView => ({
    auditsCompleted: 100,
    countries: 5,
    medianScanSeconds: 38,
    averageScanSeconds: 40,
    averageCriticalIssues: 1.25,
    samples: { scanTimes: 100, criticalIssues: 100 },
    ...partial,
  });

  it('show the audit count from 100 audits, and "New" with the true count below', () => {
    expect(auditsFigure(view({ auditsCompleted: 100 }))).toMatchObject({ value: '100', label: 'security audits run' });
    expect(auditsFigure(view({ auditsCompleted: 99 }))).toMatchObject({ value: 'New', label: '99 audits run so far' });
    expect(auditsFigure(view({ auditsCompleted: 1 }))).toMatchObject({ value: 'New', label: '1 audit run so far' });
  });

  it('leave out countries below 5 and scan time and critical issues below 100 audits measured', () => {
    expect(measuredFigures(view({}))).toMatchObject({ countries: { value: '5' }, medianScanTime: { value: '38 s' }, averageCritical: { value: '1.3' } });
    expect(measuredFigures(view({ countries: 4, samples: { scanTimes: 99, criticalIssues: 99 } }))).toEqual({});
  });

  it('name the source of every headline figure: the API or the dated measurement', () => {
    const detection = rangeDetection(JSON.parse(readFileSync(BENCH_FILE, 'utf8')));
    expect(headlineFigures(view({}), detection).map((figure) => figure.source)).toEqual(['GET /api/stats', 'GET /api/stats', 'Test range detection, 2026-11-27']);
  });
});

describe('the named measurements', () => {
  it('the committed test-range detection file is what the last bench measured (npm run measure:detection)', () => {
    const bench = JSON.parse(readFileSync(BENCH_FILE, 'utf8')) as { at: string };
    const committed = JSON.parse(readFileSync(MEASUREMENT_FILE, 'utf8')) as unknown;
    expect(committed).toEqual(rangeDetection(bench as Parameters<typeof rangeDetection>[0]));
    expect(committed).toMatchObject({ value: '25/25', measuredAt: bench.at.slice(0, 10) });
  });

  it('the free report\'s "Under 60 seconds" is a promise the scan deadline keeps', () => {
    expect(SCAN_DEADLINE_MS).toBeLessThan(60_000);
  });
});
