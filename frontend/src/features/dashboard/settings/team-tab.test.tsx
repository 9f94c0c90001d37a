import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders, stubApi } from '../../../testing/api-stub';
import { AuthTestProvider } from '../../auth/auth-provider';
import { SettingsSection } from './settings-section';
import { ACCOUNT, auditsAnswer, domainsAnswer, domainView } from './test-fixtures';
import { TeamTab } from './team-tab';

const OWNER = { memberId: 'user-1', email: 'ada@example.test', role: 'owner', addedAt: '2026-01-02T00:00:00.000Z', you: true };
const VIEWER = { memberId: 'user-2', email: 'vic@example.test', role: 'viewer', addedAt: '2026-02-01T00:00:00.000Z', you: false };
const INVITATION = { id: 'invt_AAAAAAAAAAAAAAAA', email: 'pat@example.test', role: 'admin', createdAt: '2026-03-01T00:00:00.000Z', expiresAt: '2026-03-08T00:00:00.000Z' };

function renderTeam(role: 'owner' | 'viewer') {
  const api = stubApi({
    'GET /api/me/org/members': { status: 200, body: { role, members: role === 'owner' ? [OWNER, VIEWER] : [{ ...OWNER, you: false }, { ...VIEWER, you: true }] } },
    'GET /api/me/org/invitations': { status: 200, body: { invitations: [INVITATION] } },
    'POST /api/me/org/invitations': { status: 201, body: { invitation: { ...INVITATION, id: 'invt_BBBBBBBBBBBBBBBB', email: 'new@example.test', role: 'viewer' } } },
    'PUT /api/me/org/members/user-2': { status: 200, body: { member: { ...VIEWER, role: 'admin' } } },
    'DELETE /api/me/org/members/user-2': { status: 204 },
    'DELETE /api/me/org/invitations/invt_AAAAAAAAAAAAAAAA': { status: 204 },
  });
  renderWithProviders(
    <AuthTestProvider value={{}}>
      <TeamTab />
    </AuthTestProvider>,
  );
  return api;
}

describe('Settings → Team', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('shows the owner the members with their roles, the pending invitations, and sends an invitation with the chosen role', async () => {
    const api = renderTeam('owner');

    const members = await screen.findByRole('region', { name: 'Members' });
    expect(within(members).getByText('ada@example.test')).toBeTruthy();
    expect(within(members).getByText('Owner')).toBeTruthy();
    expect((within(members).getByLabelText('Role of vic@example.test') as HTMLSelectElement).value).toBe('viewer');
    expect(await screen.findByText('pat@example.test')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Email address'), { target: { value: ' new@example.test ' } });
    fireEvent.change(screen.getByLabelText('Role'), { target: { value: 'viewer' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send invitation' }));

    expect(await screen.findByText('Invitation sent to new@example.test.')).toBeTruthy();
    expect(api.callsTo('POST', '/api/me/org/invitations').map((call) => call.body)).toEqual([{ email: 'new@example.test', role: 'viewer' }]);
  });

  it("lists the organisation's IT provider for its owner, who can remove it", async () => {
    // Prepare
    const api = stubApi({
      'GET /api/me/org/members': { status: 200, body: { role: 'owner', members: [OWNER] } },
      'GET /api/me/org/invitations': { status: 200, body: { invitations: [] } },
      'GET /api/me/org/providers': { status: 200, body: { providers: [{ providerId: 'provider-1', name: 'Acme IT Services', linkedAt: '2026-03-01T00:00:00.000Z' }] } },
      'DELETE /api/me/org/providers/provider-1': { status: 204 },
    });
    renderWithProviders(
      <AuthTestProvider value={{}}>
        <TeamTab />
      </AuthTestProvider>,
    );
    const panel = within(await screen.findByRole('region', { name: 'IT providers' }));

    // Act
    fireEvent.click(panel.getByRole('button', { name: 'Remove Acme IT Services as your IT provider' }));

    // Assess
    expect(panel.getByText('IT provider since 1 Mar 2026')).toBeTruthy();
    await vi.waitFor(() => expect(api.callsTo('DELETE', '/api/me/org/providers/provider-1')).toHaveLength(1));
  });

  it('lets the owner change a role, remove a member and revoke an invitation', async () => {
    const api = renderTeam('owner');

    fireEvent.change(await screen.findByLabelText('Role of vic@example.test'), { target: { value: 'admin' } });
    fireEvent.click(screen.getByRole('button', { name: 'Remove vic@example.test' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Revoke the invitation of pat@example.test' }));
    await screen.findByText('pat@example.test');

    await vi.waitFor(() => expect(api.callsTo('DELETE', '/api/me/org/invitations/invt_AAAAAAAAAAAAAAAA')).toHaveLength(1));
    expect(api.callsTo('PUT', '/api/me/org/members/user-2').map((call) => call.body)).toEqual([{ role: 'admin' }]);
    expect(api.callsTo('DELETE', '/api/me/org/members/user-2')).toHaveLength(1);
  });

  it('shows a viewer the members read-only, no invitation form nor invitations, and the way to leave', async () => {
    const api = renderTeam('viewer');

    const members = await screen.findByRole('region', { name: 'Members' });
    expect(within(members).getByText('You are a viewer in this organisation.', { exact: false })).toBeTruthy();
    expect(within(members).queryByRole('combobox')).toBeNull();
    expect(within(members).queryByRole('button')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Send invitation' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Leave organisation' })).toBeTruthy();
    expect(api.callsTo('GET', '/api/me/org/invitations')).toEqual([]);
    expect(api.callsTo('GET', '/api/me/org/access-log')).toEqual([]);
    expect(screen.queryByRole('region', { name: 'Access log' })).toBeNull();
  });

  it("shows the owner the organisation's access log: what happened, to what, by whom, when (issue 28)", async () => {
    // Prepare
    stubApi({
      'GET /api/me/org/members': { status: 200, body: { role: 'owner', members: [OWNER] } },
      'GET /api/me/org/invitations': { status: 200, body: { invitations: [] } },
      'GET /api/me/org/access-log': {
        status: 200,
        body: {
          events: [
            { id: 'e2', at: '2026-03-02T00:00:00.000Z', kind: 'api-token-revoked', label: 'API token revoked', actor: 'Rampart', subject: 'Rita CI (rita@example.test)' },
            { id: 'e1', at: '2026-03-02T00:00:00.000Z', kind: 'member-removed', label: 'Member removed', actor: 'ada@example.test', subject: 'rita@example.test' },
          ],
        },
      },
    });

    // Act
    renderWithProviders(
      <AuthTestProvider value={{}}>
        <TeamTab />
      </AuthTestProvider>,
    );
    const log = within(await screen.findByRole('region', { name: 'Access log' }));

    // Assess
    expect(log.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'API token revokedRita CI (rita@example.test) · by Rampart · 2 Mar 2026',
      'Member removedrita@example.test · by ada@example.test · 2 Mar 2026',
    ]);
  });
});

describe("a viewer's Settings", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('has no Alert destinations or API tab, and Domains lists without adding, verifying or deleting', async () => {
    stubApi({
      'GET /api/me': { status: 200, body: { ...ACCOUNT, organisation: { id: 'org-1', role: 'viewer' } } },
      'GET /api/me/domains': domainsAnswer(domainView('pending.example.test', false)),
      'GET /api/me/audits': auditsAnswer(),
    });
    renderWithProviders(
      <AuthTestProvider value={{}}>
        <SettingsSection />
      </AuthTestProvider>,
      { route: '/dashboard/settings?tab=domains' },
    );

    await vi.waitFor(() => expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['Profile', 'Team', 'Domains', 'Policies', 'Notifications', 'Security']));
    expect(await screen.findByText('pending.example.test')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add Domain' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Delete / })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Check verification' })).toBeNull();
  });
});
