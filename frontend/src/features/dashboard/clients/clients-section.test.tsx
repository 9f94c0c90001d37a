import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { actingOrganisation, setActingOrganisation } from '../../../lib/api-client';
import type { ProviderOverview } from '../../../lib/contracts';
import { renderWithProviders, stubApi } from '../../../testing/api-stub';
import { ClientsSection } from './clients-section';

const overview: ProviderOverview = {
  clients: [
    {
      orgId: 'client-bakery',
      name: 'Anna Bakery',
      linkedAt: '2026-11-01T00:00:00.000Z',
      domains: [{ domain: 'bakery.example.com', grade: 'C', score: 65, lastScanAt: '2026-11-20T00:00:00.000Z', overdue: 2 }],
      overdue: 2,
      worstGrade: 'C',
    },
    { orgId: 'client-florist', name: 'Bo Florist', linkedAt: '2026-11-02T00:00:00.000Z', domains: [], overdue: 0, worstGrade: null },
  ],
};

describe('Overview → Your clients (IT providers)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    setActingOrganisation(undefined);
  });

  it("lists each client's worst grade, overdue issues and domains, and Open switches the dashboard to the client", async () => {
    // Prepare
    stubApi({ 'GET /api/me/provider/clients': { status: 200, body: overview }, 'GET /api/me/provider/branding': { status: 200, body: { branding: null } } });

    // Act
    renderWithProviders(<ClientsSection />, { route: '/dashboard' });
    const section = within(await screen.findByRole('region', { name: 'Your clients' }));
    fireEvent.click(section.getByRole('button', { name: 'Open Anna Bakery' }));

    // Assess
    expect(section.getByText(/worst grade C · 2 overdue/)).toBeTruthy();
    expect(section.getByText(/worst grade — · 0 overdue/)).toBeTruthy();
    const rows = within(section.getByRole('table', { name: 'Anna Bakery: domains' }))
      .getAllByRole('row')
      .slice(1)
      .map((row) => [...row.querySelectorAll('td')].map((c) => c.textContent));
    expect(rows).toEqual([['bakery.example.com', 'C', '20 Nov 2026', '2']]);
    expect(actingOrganisation()).toBe('client-bakery');
  });

  it('shows nothing for an organisation without clients', async () => {
    // Prepare
    const api = stubApi({ 'GET /api/me/provider/clients': { status: 200, body: { clients: [] } } });

    // Act
    const { container } = renderWithProviders(<ClientsSection />, { route: '/dashboard' });
    await vi.waitFor(() => expect(api.callsTo('GET', '/api/me/provider/clients')).toHaveLength(1));

    // Assess
    expect(container.textContent).toBe('');
  });

  it('saves the branding with the chosen name and colour', async () => {
    // Prepare
    const api = stubApi({
      'GET /api/me/provider/clients': { status: 200, body: overview },
      'GET /api/me/provider/branding': { status: 200, body: { branding: null } },
      'PUT /api/me/provider/branding': { status: 200, body: { branding: { name: 'Acme IT', colour: '#0f766e', logo: null, updatedAt: '2026-11-27T00:00:00.000Z', version: 'v1' } } },
    });
    renderWithProviders(<ClientsSection />, { route: '/dashboard' });
    const section = within(await screen.findByRole('region', { name: 'Your clients' }));

    // Act
    fireEvent.change(section.getByLabelText('Name on reports'), { target: { value: 'Acme IT' } });
    fireEvent.change(section.getByLabelText('Colour'), { target: { value: '#0f766e' } });
    fireEvent.click(section.getByRole('button', { name: 'Save branding' }));
    await section.findByText('Branding saved: your clients’ reports now carry it.');

    // Assess
    expect(api.callsTo('PUT', '/api/me/provider/branding').map((call) => call.body)).toEqual([{ name: 'Acme IT', colour: '#0f766e', logo: null }]);
  });
});
