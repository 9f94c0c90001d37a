import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { actingOrganisation, setActingOrganisation } from '../../../lib/api-client';
import { organisationMessages } from '../../../lib/contracts';
import { renderWithProviders, stubApi } from '../../../testing/api-stub';
import { AuthTestProvider } from '../../auth/auth-provider';
import { AcceptInvitation } from './accept-invitation';

const TOKEN = `inv_${'a'.repeat(43)}`;

describe('the invitation link page', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    setActingOrganisation(undefined);
  });

  it('signed out, offers sign in and sign up that come back to the link', () => {
    stubApi({});
    renderWithProviders(
      <AuthTestProvider value={{ status: 'signed-out', user: undefined }}>
        <AcceptInvitation token={TOKEN} />
      </AuthTestProvider>,
      { route: `/invitations/accept?token=${TOKEN}` },
    );

    const back = encodeURIComponent(`/invitations/accept?token=${TOKEN}`);
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe(`/auth/login?returnUrl=${back}`);
    expect(screen.getByRole('link', { name: 'Create an account' }).getAttribute('href')).toBe(`/auth/signup?returnUrl=${back}`);
  });

  it('signed in, accepts with the token and acts on the organisation joined', async () => {
    const api = stubApi({ 'POST /api/invitations/accept': { status: 200, body: { organisation: { id: 'org-olive', name: 'Olive Bakery', role: 'viewer', own: false } } } });
    renderWithProviders(
      <AuthTestProvider value={{}}>
        <AcceptInvitation token={TOKEN} />
      </AuthTestProvider>,
    );

    fireEvent.click(screen.getByRole('button', { name: 'Accept invitation' }));

    await vi.waitFor(() => expect(actingOrganisation()).toBe('org-olive'));
    expect(api.callsTo('POST', '/api/invitations/accept').map((call) => call.body)).toEqual([{ token: TOKEN }]);
  });

  it("shows the API's refusal (another address) and stays in the person's organisation", async () => {
    stubApi({ 'POST /api/invitations/accept': { status: 403, body: { error: 'invitation_forbidden', message: organisationMessages.invitationEmail } } });
    renderWithProviders(
      <AuthTestProvider value={{}}>
        <AcceptInvitation token={TOKEN} />
      </AuthTestProvider>,
    );

    fireEvent.click(screen.getByRole('button', { name: 'Accept invitation' }));

    expect(await screen.findByText(organisationMessages.invitationEmail)).toBeTruthy();
    expect(actingOrganisation()).toBeUndefined();
  });
});
