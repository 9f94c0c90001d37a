import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AlertView } from '../../../lib/contracts';
import { renderWithProviders, stubApi } from '../../../testing/api-stub';
import { AlertsList, NO_ALERTS } from './alerts-list';

const AUDIT = '0b3c5d2e-7f41-4a8b-9c1d-2e3f4a5b6c7d';

const alert = (n: number, extra: Partial<AlertView> = {}): AlertView => ({
  id: `alert-${n}`,
  domain: `site-${n}.example.com`,
  // One a day, alert-1 the newest.
  sentAt: new Date(Date.UTC(2026, 10, 22 - n, 3, 5)).toISOString(),
  channel: 'email',
  summary: `${n} new issues`,
  changes: [{ type: 'finding_new', title: 'Missing HSTS header' }],
  auditId: AUDIT,
  ...extra,
});

const items = () => within(screen.getByRole('list')).getAllByRole('listitem');

describe('Overview → Recent alerts', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('lists the 5 newest alerts: domain, when, channel, summary and a link to the report', async () => {
    // Prepare
    const alerts = [alert(3), alert(1, { channel: 'sms', summary: '2 new issues, grade B -> C', auditId: 'a1b2c3d4-0000-4000-8000-000000000001' }), alert(2), alert(6), alert(4), alert(5)];
    const api = stubApi({ 'GET /api/me/alerts': { status: 200, body: { alerts } } });

    // Act
    renderWithProviders(<AlertsList />, { route: '/dashboard' });
    await screen.findByRole('list');

    // Assess
    expect(api.callsTo('GET', '/api/me/alerts')).toHaveLength(1);
    expect(items()).toHaveLength(5);
    expect(items().map((item) => within(item).getByText(/^site-/).textContent)).toEqual([1, 2, 3, 4, 5].map((n) => `site-${n}.example.com`));
    const first = within(items()[0]!);
    expect(first.getByText('SMS')).toBeTruthy();
    expect(first.getByText('2 new issues, grade B -> C')).toBeTruthy();
    const when = items()[0]!.querySelector('time')!;
    expect(when.getAttribute('dateTime')).toBe('2026-11-21T03:05:00.000Z');
    expect(when.textContent).toBe(new Date('2026-11-21T03:05:00.000Z').toLocaleString('en-AU', { day: 'numeric', month: 'short', year: 'numeric', hour: 'numeric', minute: '2-digit' }));
    expect(when.textContent).toMatch(/^2[12] Nov 2026, /);
    expect(first.getByRole('link', { name: 'View report for site-1.example.com' }).getAttribute('href')).toBe('/results/a1b2c3d4-0000-4000-8000-000000000001');
    expect(within(items()[1]!).getByText('Email')).toBeTruthy();
    expect(within(items()[1]!).getByRole('link').getAttribute('href')).toBe(`/results/${AUDIT}`);
  });

  it('says there are no alerts yet when monitoring has sent none', async () => {
    // Prepare
    stubApi({ 'GET /api/me/alerts': { status: 200, body: { alerts: [] } } });

    // Act
    renderWithProviders(<AlertsList />);

    // Assess
    expect(await screen.findByText(NO_ALERTS)).toBeTruthy();
    expect(NO_ALERTS).toBe('No alerts yet — we will tell you when something changes.');
    expect(screen.queryByRole('list')).toBeNull();
  });

  it("shows the API's message when the alerts cannot be loaded", async () => {
    // Prepare
    stubApi({ 'GET /api/me/alerts': { status: 500, body: { error: 'internal_error', message: 'Something went wrong on our side.' } } });

    // Act
    renderWithProviders(<AlertsList />);

    // Assess
    expect((await screen.findByRole('alert')).textContent).toBe('Your alerts could not be loaded: Something went wrong on our side.');
  });
});
