import { fireEvent, screen } from '@testing-library/react';
import { useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders, stubApi } from '../../../testing/api-stub';
import { AuthTestProvider } from '../../auth/auth-provider';
import { SettingsSection } from './settings-section';
import { ACCOUNT, auditsAnswer, domainsAnswer } from './test-fixtures';

function Search() {
  return <output data-testid="search">{useLocation().search}</output>;
}

function renderSettings(route = '/dashboard/settings') {
  stubApi({
    'GET /api/me': { status: 200, body: ACCOUNT },
    'GET /api/me/domains': domainsAnswer(),
    'GET /api/me/audits': auditsAnswer(),
    'GET /api/me/notifications': { status: 200, body: { emailAlerts: true, scanCompletions: true, securityUpdates: true, marketingEmails: false } },
  });
  renderWithProviders(
    <AuthTestProvider value={{}}>
      <SettingsSection />
      <Search />
    </AuthTestProvider>,
    { route },
  );
}

const selectedTab = () => screen.getAllByRole('tab').find((tab) => tab.getAttribute('aria-selected') === 'true')?.textContent;

describe('the Settings section', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('has the eight tabs, Profile first and selected by default', async () => {
    renderSettings();

    expect(screen.getByRole('tablist', { name: 'Settings' })).toBeTruthy();
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['Profile', 'Team', 'Domains', 'Policies', 'Notifications', 'Alert destinations', 'Security', 'API']);
    expect(selectedTab()).toBe('Profile');
    expect(await screen.findByRole('button', { name: 'Save Changes' })).toBeTruthy();
    expect(screen.getByRole('tabpanel', { name: 'Profile' })).toBeTruthy();
  });

  it('opens the tab named in ?tab= (the Quick Scan’s Add Domain link)', async () => {
    renderSettings('/dashboard/settings?tab=domains');

    expect(selectedTab()).toBe('Domains');
    expect(await screen.findByRole('button', { name: 'Add Domain' })).toBeTruthy();
  });

  it('falls back to Profile for an unknown ?tab=', () => {
    renderSettings('/dashboard/settings?tab=billing');

    expect(selectedTab()).toBe('Profile');
  });

  it('puts the chosen tab in the URL, by click and by arrow keys, Home and End', async () => {
    // Prepare
    renderSettings();

    // Act
    fireEvent.click(screen.getByRole('tab', { name: 'Notifications' }));
    const afterClick = [selectedTab(), screen.getByTestId('search').textContent];
    fireEvent.keyDown(screen.getByRole('tab', { name: 'Notifications' }), { key: 'ArrowRight' });
    const afterRight = [selectedTab(), document.activeElement?.textContent];
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowRight' });
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowRight' });
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowRight' });
    const wrapped = selectedTab();
    fireEvent.keyDown(document.activeElement!, { key: 'End' });
    const atEnd = selectedTab();
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowLeft' });
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowLeft' });
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowLeft' });

    // Assess
    expect(afterClick).toEqual(['Notifications', '?tab=notifications']);
    expect(afterRight).toEqual(['Alert destinations', 'Alert destinations']);
    expect(wrapped).toBe('Profile');
    expect(atEnd).toBe('API');
    expect(selectedTab()).toBe('Notifications');
    expect(screen.getByTestId('search').textContent).toBe('?tab=notifications');
    expect(await screen.findByRole('switch', { name: 'Email alerts' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Notifications' }).tabIndex).toBe(0);
    expect(screen.getByRole('tab', { name: 'Profile' }).tabIndex).toBe(-1);
  });
});
