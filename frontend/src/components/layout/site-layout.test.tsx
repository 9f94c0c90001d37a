import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { AuthTestProvider } from '../../features/auth/auth-provider';
import { createQueryClient } from '../../lib/react-query';
import { SiteLayout } from './site-layout';

function visit(url: string) {
  const router = createMemoryRouter([{ element: <SiteLayout />, children: [{ path: '/', element: <p>Landing</p> }, { path: '/verify/:domain', element: <p>Verify</p> }] }], {
    initialEntries: [url],
  });
  render(
    <QueryClientProvider client={createQueryClient()}>
      <AuthTestProvider value={{ status: 'signed-out' }}>
        <RouterProvider router={router} />
      </AuthTestProvider>
    </QueryClientProvider>,
  );
  return router;
}

describe('the site header', () => {
  it("links 'Pricing' to the landing page's pricing section (/#pricing), not to the bare home page", () => {
    // Prepare
    const router = visit('/verify/shop.example');

    // Act
    const pricing = within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'Pricing' });
    fireEvent.click(pricing);

    // Assess: the address says where it goes, and the landing page is still asked to scroll there
    expect(pricing.getAttribute('href')).toBe('/#pricing');
    expect([router.state.location.pathname, router.state.location.hash, router.state.location.state]).toEqual(['/', '#pricing', { scrollToPricing: true }]);
  });
});
