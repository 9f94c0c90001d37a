import { screen } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { SubscriptionView } from '../../../lib/contracts';
import { renderWithProviders } from '../../../testing/api-stub';
import { AuthTestProvider, type AuthStatus } from '../../auth/auth-provider';
import { sectionOf } from '../sections';
import { RequireAuth } from './require-auth';
import { planStatusLabel, usageTone } from './plan';

function LoginPage() {
  const location = useLocation();
  return <p data-testid="login">{`${location.pathname}${location.search}`}</p>;
}

function renderGuard(status: AuthStatus) {
  return renderWithProviders(
    <AuthTestProvider value={{ status }}>
      <Routes>
        <Route
          path="/dashboard/*"
          element={
            <RequireAuth>
              <h1>Private</h1>
            </RequireAuth>
          }
        />
        <Route path="/auth/login" element={<LoginPage />} />
      </Routes>
    </AuthTestProvider>,
    { route: '/dashboard/audits?page=2' },
  );
}

describe('the dashboard guard', () => {
  it("shows 'Loading Dashboard...' while the session is read", () => {
    renderGuard('loading');
    expect(screen.getByText('Loading Dashboard...')).toBeTruthy();
    expect(screen.getByText('Checking authentication status')).toBeTruthy();
    expect(screen.queryByText('Private')).toBeNull();
  });

  it.each(['signed-out', 'unavailable'] as const)('sends a %s visitor to the login page with the way back', (status) => {
    renderGuard(status);
    expect(screen.getByTestId('login').textContent).toBe(`/auth/login?returnUrl=${encodeURIComponent('/dashboard/audits?page=2')}`);
  });

  it('shows the page to a signed-in user', () => {
    renderGuard('signed-in');
    expect(screen.getByRole('heading', { name: 'Private' })).toBeTruthy();
  });
});

describe('dashboard sections and plan usage', () => {
  it('takes the section from the parameter, else the last path segment', () => {
    expect(sectionOf('audits', '/dashboard/audits')).toBe('audits');
    expect(sectionOf(undefined, '/dashboard')).toBe('');
    expect(sectionOf(undefined, '/dashboard/settings/')).toBe('settings');
    expect(sectionOf('nope', '/dashboard/nope')).toBeUndefined();
  });

  it('says how many trial days are left, else the status', () => {
    const now = Date.parse('2026-11-22T10:00:00Z');
    const trial = { billingPeriod: 'trial', status: 'trial', endDate: '2026-12-06T10:00:00Z' } as SubscriptionView;
    expect(planStatusLabel(trial, now)).toBe('14 days left');
    expect(planStatusLabel({ ...trial, endDate: '2026-11-23T09:00:00Z' }, now)).toBe('1 day left');
    expect(planStatusLabel({ ...trial, endDate: '2026-11-22T09:00:00Z' }, now)).toBe('ends today');
    expect(planStatusLabel({ ...trial, billingPeriod: 'monthly', status: 'active' }, now)).toBe('active');
  });

  it('colours usage over 60% yellow and over 80% red', () => {
    expect(usageTone(6, 10)).toBe('ok');
    expect(usageTone(7, 10)).toBe('warn');
    expect(usageTone(8, 10)).toBe('warn');
    expect(usageTone(9, 10)).toBe('high');
    expect(usageTone(0, 0)).toBe('high');
  });
});
