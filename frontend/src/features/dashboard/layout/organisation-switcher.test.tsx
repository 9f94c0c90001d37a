import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { actingOrganisation, apiGet, setAccessTokenSource, setActingOrganisation } from '../../../lib/api-client';
import { renderWithProviders, stubApi } from '../../../testing/api-stub';
import { OrganisationSwitcher } from './organisation-switcher';

const OWN = { id: 'user-1', name: 'Vic Consulting', role: 'owner', own: true };
const OLIVE = { id: 'org-olive', name: 'Olive Bakery', role: 'viewer', own: false };

describe('the organisation switcher', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    setActingOrganisation(undefined);
    setAccessTokenSource(async () => undefined);
  });

  it('is not shown to a person in one organisation', async () => {
    const api = stubApi({ 'GET /api/me/organisations': { status: 200, body: { organisations: [OWN] } } });
    renderWithProviders(<OrganisationSwitcher />);

    await vi.waitFor(() => expect(api.callsTo('GET', '/api/me/organisations')).toHaveLength(1));
    expect(screen.queryByLabelText('Organisation')).toBeNull();
  });

  it('lists the organisations with the role in each, and a switch sends X-Rampart-Org with every later request', async () => {
    stubApi({ 'GET /api/me/organisations': { status: 200, body: { organisations: [OWN, OLIVE] } }, 'GET /api/me/domains': { status: 200, body: { domains: [] } } });
    setAccessTokenSource(async () => 'id-token');
    renderWithProviders(<OrganisationSwitcher />);

    const select = (await screen.findByLabelText('Organisation')) as HTMLSelectElement;
    expect([...select.options].map((option) => option.textContent)).toEqual(['Vic Consulting (yours)', 'Olive Bakery (viewer)']);
    expect(select.value).toBe('user-1');

    fireEvent.change(select, { target: { value: 'org-olive' } });
    await apiGet('/api/me/domains');
    fireEvent.change(select, { target: { value: 'user-1' } });
    await apiGet('/api/me/domains');

    const sent = vi.mocked(fetch).mock.calls.filter(([url]) => String(url).endsWith('/api/me/domains')).map(([, init]) => (init?.headers as Record<string, string>)['x-rampart-org']);
    expect(sent).toEqual(['org-olive', undefined]);
    expect(actingOrganisation()).toBeUndefined();
  });

  it('goes back to the own organisation when the stored one is no longer the person’s', async () => {
    setActingOrganisation('org-gone');
    stubApi({ 'GET /api/me/organisations': { status: 200, body: { organisations: [OWN, OLIVE] } } });
    renderWithProviders(<OrganisationSwitcher />);

    expect(((await screen.findByLabelText('Organisation')) as HTMLSelectElement).value).toBe('user-1');
    await vi.waitFor(() => expect(actingOrganisation()).toBeUndefined());
  });
});
