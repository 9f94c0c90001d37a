import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TimeToFixIssueView, TimeToFixSummaryView } from '../../../lib/contracts';
import { renderWithProviders, stubApi } from '../../../testing/api-stub';
import { NO_TIME_TO_FIX, OVERDUE_LISTED, TimeToFixSection } from './time-to-fix-section';

const issue = (n: number, extra: Partial<TimeToFixIssueView> = {}): TimeToFixIssueView => ({
  domain: 'shop.example.com',
  findingId: `finding-${n}`,
  title: `Issue ${n}`,
  severity: 'high',
  category: 'Web Security',
  firstSeenAt: '2026-09-01T00:00:00.000Z',
  lastSeenAt: '2026-11-20T00:00:00.000Z',
  fixedAt: null,
  dueAt: '2026-10-01T00:00:00.000Z',
  targetDays: 30,
  ageDays: 82,
  overdue: true,
  timeToFixDays: null,
  fixedOnTime: null,
  reopened: 0,
  ...extra,
});

const summary = (extra: Partial<TimeToFixSummaryView> = {}): TimeToFixSummaryView => ({
  asOf: '2026-11-22T00:00:00.000Z',
  targets: { critical: 7, high: 30, medium: 60, low: 120 },
  domains: [{ domain: 'shop.example.com', lastScanAt: '2026-11-20T00:00:00.000Z' }],
  openByAge: [
    { label: '0–7 days', minDays: 0, maxDays: 7, open: 2, overdue: 0 },
    { label: '8–30 days', minDays: 8, maxDays: 30, open: 1, overdue: 1 },
    { label: '31–60 days', minDays: 31, maxDays: 60, open: 0, overdue: 0 },
    { label: '61–120 days', minDays: 61, maxDays: 120, open: 7, overdue: 7 },
    { label: 'Over 120 days', minDays: 121, maxDays: null, open: 0, overdue: 0 },
  ],
  openTotal: 10,
  overdueTotal: 8,
  fixedTotal: 3,
  fixedOnTime: 2,
  fixedOnTimeShare: 2 / 3,
  meanDaysToFix: 12.25,
  byMonth: [
    { month: '2026-10', label: 'October 2026', fixed: 0, fixedOnTime: 0, meanDaysToFix: null },
    { month: '2026-11', label: 'November 2026', fixed: 3, fixedOnTime: 2, meanDaysToFix: 12.25 },
  ],
  open: [issue(1, { severity: 'critical', title: 'RDP open to the internet', dueAt: '2026-11-08T00:00:00.000Z', ageDays: 21 }), ...Array.from({ length: 7 }, (_, i) => issue(i + 2)), issue(99, { overdue: false })],
  recentFixes: [],
  ...extra,
});

const rowsOf = (caption: string) =>
  within(screen.getByRole('table', { name: caption }))
    .getAllByRole('row')
    .slice(1)
    .map((row) => [...row.querySelectorAll('th, td')].map((c) => c.textContent));

describe('Overview → Time to fix', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('shows open issues by age, the share fixed on time, the mean time to fix per month and names the overdue issues', async () => {
    // Prepare
    const api = stubApi({ 'GET /api/me/time-to-fix': { status: 200, body: summary() } });

    // Act
    renderWithProviders(<TimeToFixSection />, { route: '/dashboard' });
    await screen.findByRole('table', { name: 'Open issues by age' });

    // Assess
    expect(api.callsTo('GET', '/api/me/time-to-fix')).toHaveLength(1);
    const section = within(screen.getByRole('region', { name: 'Time to fix' }));
    expect(section.getByText('Targets from when an issue is first seen: critical 7 days, high 30, medium 60, low 120.')).toBeTruthy();
    const figures = section.getAllByRole('definition').map((d) => d.textContent);
    expect(figures).toEqual(['10 (8 past target)', '67% (2 of 3 fixes)', '12.3 days (last 12 months)']);
    expect(rowsOf('Open issues by age')).toEqual([
      ['0–7 days', '2', '0'],
      ['8–30 days', '1', '1'],
      ['31–60 days', '0', '0'],
      ['61–120 days', '7', '7'],
      ['Over 120 days', '0', '0'],
    ]);
    expect(rowsOf('Mean time to fix by month')).toEqual([
      ['October 2026', '0', '0', '—'],
      ['November 2026', '3', '2', '12.3 days'],
    ]);
    const overdue = within(section.getByRole('list', { name: 'Past target (8)' })).getAllByRole('listitem');
    expect(overdue).toHaveLength(OVERDUE_LISTED);
    expect(overdue[0]!.textContent).toMatch(/^Critical RDP open to the internet — shop\.example\.com, open 21 days, due 8 Nov 2026$/);
    expect(section.getByText('and 3 more')).toBeTruthy();
    expect(section.queryByText(/Issue 99/)).toBeNull();
  });

  it('says nothing is measured yet before the first monitoring rescan, and when nothing is overdue says so', async () => {
    stubApi({ 'GET /api/me/time-to-fix': { status: 200, body: summary({ domains: [] }) } });
    const { unmount } = renderWithProviders(<TimeToFixSection />);
    expect(await screen.findByText(NO_TIME_TO_FIX)).toBeTruthy();
    unmount();

    stubApi({ 'GET /api/me/time-to-fix': { status: 200, body: summary({ open: [], overdueTotal: 0, fixedTotal: 0, fixedOnTime: 0, fixedOnTimeShare: null, meanDaysToFix: null }) } });
    renderWithProviders(<TimeToFixSection />);
    expect(await screen.findByText('No open issue is past its target.')).toBeTruthy();
    expect(screen.getAllByRole('definition').map((d) => d.textContent)).toEqual(['10 (0 past target)', '— (nothing fixed yet)', '— (last 12 months)']);
  });

  it('says so when the figures cannot be loaded', async () => {
    stubApi({ 'GET /api/me/time-to-fix': { status: 500, body: { error: 'internal', message: 'Something went wrong' } } });

    renderWithProviders(<TimeToFixSection />);

    expect((await screen.findByRole('alert')).textContent).toMatch(/^Time to fix could not be loaded: /);
  });
});
