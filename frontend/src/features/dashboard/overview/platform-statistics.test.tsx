import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import rangeDetection from '../../../../../docs/measurements/range-detection.json';
import { renderWithProviders, stubApi } from '../../../testing/api-stub';
import { PlatformStatistics } from './overview-section';

const rows = () =>
  [...screen.getByRole('region', { name: 'Platform statistics' }).querySelectorAll('dl > div')].map((row) => [row.querySelector('dt')?.textContent, row.querySelector('dd')?.textContent]);

describe("the dashboard's platform statistics (DECISIONS \"Marketing figures are measured\")", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('shows what GET /api/stats measured, with the sample each figure rests on, and the dated test-range measurement; nothing "stated"', async () => {
    // Prepare
    stubApi({
      'GET /api/stats': {
        status: 200,
        body: { auditsCompleted: 1, countries: 1, medianScanSeconds: 23, averageScanSeconds: 22.6, averageCriticalIssues: 2, samples: { scanTimes: 1, criticalIssues: 1 } },
      },
    });

    // Act
    renderWithProviders(<PlatformStatistics />);
    await screen.findByText('Audits run');

    // Assess
    expect(rows()).toEqual([
      ['Audits run', '1'],
      ['Countries of leads', '1'],
      ['Median scan time', '23 sfrom 1 audit'],
      ['Critical issues per audit', '2.0from 1 audit'],
      ['Detection on our test range', `${rangeDetection.value}planted flaws found on our test range (27 Nov 2026)`],
    ]);
    const text = document.body.textContent ?? '';
    for (const stated of ['stated figure', 'not measured', '10,000+', '50+', '99.8%', '45 s']) expect(text).not.toContain(stated);
  });

  it('says nothing is measured yet with a dash, never a copy figure', async () => {
    // Prepare
    stubApi({
      'GET /api/stats': { status: 200, body: { auditsCompleted: 0, countries: 0, medianScanSeconds: null, averageScanSeconds: null, averageCriticalIssues: null, samples: { scanTimes: 0, criticalIssues: 0 } } },
    });

    // Act
    renderWithProviders(<PlatformStatistics />);
    await screen.findByText('Audits run');

    // Assess
    expect(rows().slice(0, 4)).toEqual([
      ['Audits run', '0'],
      ['Countries of leads', '0'],
      ['Median scan time', '—from 0 audits'],
      ['Critical issues per audit', '—from 0 audits'],
    ]);
  });
});
