import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders, stubApi } from '../../../testing/api-stub';
import { AuthTestProvider } from '../../auth/auth-provider';
import { ACCOUNT } from '../settings/test-fixtures';
import { DashboardLayout } from './dashboard-layout';

async function showLayout() {
  stubApi({ 'GET /api/me': { status: 200, body: ACCOUNT }, 'GET /api/me/organisations': { status: 200, body: { organisations: [] } } });
  renderWithProviders(
    <AuthTestProvider value={{ status: 'signed-in' }}>
      <DashboardLayout />
    </AuthTestProvider>,
    { route: '/dashboard' },
  );
  await screen.findByText(/scans used/);
}

const classes = (testId: string) => screen.getByTestId(testId).className.split(/\s+/);

describe('the dashboard shell', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('stretches the sidebar (and its background) to the full height of a long page; only its inner column sticks', async () => {
    // Prepare / Act
    await showLayout();

    // Assess: the element with the background is not capped at one screen and is not the sticky one
    const aside = classes('dashboard-sidebar');
    expect(aside).toEqual(expect.arrayContaining(['bg-white', 'md:self-stretch']));
    expect(aside.filter((name) => /h-screen|sticky/.test(name))).toEqual([]);
    expect(classes('dashboard-sidebar-column')).toEqual(expect.arrayContaining(['md:sticky', 'md:top-0', 'md:max-h-screen', 'md:overflow-y-auto']));
  });

  it('folds the menu and the plan box behind a Menu button on a phone, open on wider screens', async () => {
    // Prepare
    await showLayout();
    const menu = screen.getByTestId('dashboard-menu');
    const button = screen.getByRole('button', { name: 'Menu' });

    // Assess: closed on a phone (hidden below md), always shown from md; the plan box and the nav are inside it
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(button.getAttribute('aria-controls')).toBe(menu.id);
    expect(button.className.split(/\s+/)).toContain('md:hidden');
    expect(menu.className.split(/\s+/)).toEqual(expect.arrayContaining(['hidden', 'md:flex']));
    expect(within(menu).getByRole('navigation', { name: 'Dashboard' })).toBeTruthy();
    expect(within(menu).getByText(/scans used/)).toBeTruthy();

    // Act: open, then choose a section
    fireEvent.click(button);

    // Assess
    const close = screen.getByRole('button', { name: 'Close menu' });
    expect(close.getAttribute('aria-expanded')).toBe('true');
    expect(menu.className.split(/\s+/)).toContain('flex');
    expect(menu.className.split(/\s+/)).not.toContain('hidden');
    fireEvent.click(within(menu).getAllByRole('link')[1]!);
    expect(screen.getByRole('button', { name: 'Menu' }).getAttribute('aria-expanded')).toBe('false');
    expect(menu.className.split(/\s+/)).toContain('hidden');
  });
});
