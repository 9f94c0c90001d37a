import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import rangeDetection from '../../../../docs/measurements/range-detection.json';
import { HomePage as HomeRoute } from '../../app/routes/home-page';
import { AuthTestProvider } from '../auth/auth-provider';
import type { PlatformStatsView } from '../../lib/catalogue';
import { createQueryClient } from '../../lib/react-query';

/** Serves GET /api/stats with the given body (what lambdas/use-cases/platform-stats.ts answers); every other request fails. */
function serveStats(body: PlatformStatsView) {
  const asked: string[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
    const url = new URL(String(input), window.location.origin);
    asked.push(url.pathname);
    if (url.pathname === '/api/stats') return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
    return new Response('{}', { status: 404 });
  });
  return asked;
}

function renderHome() {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <AuthTestProvider value={{ status: 'signed-out' }}>
        <MemoryRouter initialEntries={['/']}>
          <HomeRoute />
        </MemoryRouter>
      </AuthTestProvider>
    </QueryClientProvider>,
  );
}

/** Every figure on the page, as [id, value, label]. */
const figures = () =>
  [...document.querySelectorAll('[data-figure]')].map((el) => [el.getAttribute('data-figure'), el.querySelector('dd')?.textContent, el.querySelector('dt')?.textContent]);

const established: PlatformStatsView = {
  auditsCompleted: 1234,
  countries: 7,
  medianScanSeconds: 42,
  averageScanSeconds: 44.6,
  averageCriticalIssues: 2.4,
  samples: { scanTimes: 1200, criticalIssues: 1100 },
};

describe('the landing page figures (DECISIONS "Marketing figures are measured")', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('shows only what GET /api/stats measured and the dated test-range measurement, by value', async () => {
    // Prepare
    const asked = serveStats(established);

    // Act
    renderHome();
    await screen.findByText('1,234');

    // Assess
    expect(asked).toContain('/api/stats');
    expect(figures()).toEqual([
      ['audits', '1,234', 'security audits run'],
      ['countries', '7', 'countries our free reports went to'],
      ['detection', rangeDetection.value, `${rangeDetection.label} (27 Nov 2026)`],
      ['report-time', 'Under 60 seconds', 'to your free security report'],
      ['median-scan-time', '42 s', 'median scan time'],
      ['average-critical', '2.4', 'critical issues found per report on average'],
    ]);
    expect(rangeDetection).toMatchObject({ value: '25/25', measuredAt: '2026-11-27', source: 'bench/latest.json (range.recall)' });
  });

  it('says "New" with the true count below 100 audits, and leaves out countries, scan time and critical issues below their samples', async () => {
    // Prepare
    serveStats({ auditsCompleted: 12, countries: 2, medianScanSeconds: 31, averageScanSeconds: 30.2, averageCriticalIssues: 0.8, samples: { scanTimes: 12, criticalIssues: 12 } });

    // Act
    renderHome();
    await screen.findByText('12 audits run so far');

    // Assess
    expect(figures()).toEqual([
      ['audits', 'New', '12 audits run so far'],
      ['detection', '25/25', 'planted flaws found on our test range (27 Nov 2026)'],
      ['report-time', 'Under 60 seconds', 'to your free security report'],
    ]);
  });

  it('shows no platform figure when the statistics cannot be read, only the dated measurement and the promise', async () => {
    // Prepare
    vi.stubGlobal('fetch', async () => new Response('{"error":"internal","message":"down"}', { status: 500 }));

    // Act
    renderHome();
    await screen.findByText('planted flaws found on our test range (27 Nov 2026)');

    // Assess
    expect(figures().map(([id]) => id)).toEqual(['detection', 'report-time']);
  });
});
