import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AuthTestProvider } from '../features/auth/auth-provider';
import { auditsPage, historyEntry } from '../features/dashboard/history/audit-fixtures';
import { ACCOUNT } from '../features/dashboard/settings/test-fixtures';
import { createQueryClient } from '../lib/react-query';
import { stubApi } from '../testing/api-stub';
import { appRoutes } from './router';

// The first visit loads the dashboard's chunk (import()), which can take longer than findBy's default second.
const chunk = { timeout: 10_000 };

/** The app's own route table in memory, signed in, with the API stubbed: what a visitor typing the URL gets. */
function visit(url: string) {
  stubApi({
    'GET /api/me': { status: 200, body: ACCOUNT },
    'GET /api/me/audits': auditsPage([historyEntry({ id: 'a1', domain: 'shop.example.test' })]),
  });
  const router = createMemoryRouter(appRoutes, { initialEntries: [url] });
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { ...queryClient.getDefaultOptions().queries, retry: false } });
  render(
    <QueryClientProvider client={queryClient}>
      <AuthTestProvider value={{ status: 'signed-in' }}>
        <RouterProvider router={router} />
      </AuthTestProvider>
    </QueryClientProvider>,
  );
  return router;
}

describe('the dashboard routes', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('shows the Audit History section at /dashboard/audits, the SPEC route, with the sidebar link marked current', async () => {
    // Act
    visit('/dashboard/audits');

    // Assess
    expect(await screen.findByRole('heading', { level: 1, name: 'Audit History' }, chunk)).toBeTruthy();
    expect(await screen.findByRole('rowheader', { name: 'shop.example.test' }, chunk)).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Page not found' })).toBeNull();
    const link = screen.getByRole('link', { name: 'Audit History' });
    expect([link.getAttribute('href'), link.getAttribute('aria-current')]).toEqual(['/dashboard/audits', 'page']);
  });

  it('sends the former /dashboard/history to /dashboard/audits, keeping the query', async () => {
    // Act
    const router = visit('/dashboard/history?page=2');

    // Assess
    expect(await screen.findByRole('heading', { level: 1, name: 'Audit History' }, chunk)).toBeTruthy();
    await waitFor(() => expect(`${router.state.location.pathname}${router.state.location.search}`).toBe('/dashboard/audits?page=2'));
  });

  it('answers a section the dashboard does not have with Page not found', async () => {
    // Act
    visit('/dashboard/nowhere');

    // Assess
    expect(await screen.findByRole('heading', { name: 'Page not found' }, chunk)).toBeTruthy();
  });
});
