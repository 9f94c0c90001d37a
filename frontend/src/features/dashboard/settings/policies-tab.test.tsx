import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { policyMessages, type SecurityPolicyView } from '../../../lib/contracts';
import { renderWithProviders, stubApi } from '../../../testing/api-stub';
import { PoliciesTab } from './policies-tab';

const policy = (findingId: string, overrides: Partial<SecurityPolicyView> = {}): SecurityPolicyView => ({
  domain: 'shop.example.test',
  findingId,
  action: 'accept',
  reason: `Reason for ${findingId}`,
  expiresAt: null,
  createdAt: '2026-11-01T00:00:00.000Z',
  createdBy: 'ada@example.test',
  active: true,
  ...overrides,
});

const day = (iso: string) => new Intl.DateTimeFormat('en-AU', { day: 'numeric', month: 'short', year: 'numeric' }).format(new Date(iso));
const rowTexts = () =>
  screen
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent));

describe('Settings → Policies', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('lists each policy with its domain, finding, action, reason and expiry, and removes one', async () => {
    // Prepare
    const accepted = policy('tls.protocol.tls10');
    const muted = policy('http.csp.missing', { action: 'mute', domain: 'blog.example.test', expiresAt: '2027-02-01T12:00:00.000Z' });
    const expired = policy('dns.caa.missing', { action: 'mute', expiresAt: '2020-01-01T00:00:00.000Z', active: false });
    const api = stubApi({
      'GET /api/me/policies': [
        { status: 200, body: { policies: [accepted, muted, expired], canManage: true } },
        { status: 200, body: { policies: [muted, expired], canManage: true } },
      ],
      'DELETE /api/me/policies/shop.example.test/tls.protocol.tls10': { status: 204 },
    });

    // Act
    renderWithProviders(<PoliciesTab />);
    await screen.findByRole('table');
    const before = rowTexts();
    fireEvent.click(screen.getByRole('button', { name: 'Remove the policy for tls.protocol.tls10 on shop.example.test' }));

    // Assess
    expect(before).toEqual([
      ['shop.example.test', 'tls.protocol.tls10', 'Accepted risk', 'Reason for tls.protocol.tls10', 'Never', 'Remove'],
      ['blog.example.test', 'http.csp.missing', 'Muted', 'Reason for http.csp.missing', day(muted.expiresAt!), 'Remove'],
      ['shop.example.test', 'dns.caa.missing', 'Policy expired', 'Reason for dns.caa.missing', `Expired ${day(expired.expiresAt!)}`, 'Remove'],
    ]);
    await waitFor(() => expect(rowTexts()).toHaveLength(2));
    expect(api.callsTo('DELETE', '/api/me/policies/shop.example.test/tls.protocol.tls10')).toHaveLength(1);
    expect(screen.queryByText(policyMessages.planRequired, { exact: false })).toBeNull();
  });

  it('says how to make one when there are none, and offers the upgrade without the plan', async () => {
    stubApi({ 'GET /api/me/policies': { status: 200, body: { policies: [], canManage: false } } });

    renderWithProviders(<PoliciesTab />);

    expect(await screen.findByText('No policies yet. Accept or mute a finding from one of your reports.')).toBeTruthy();
    expect(screen.getByText(policyMessages.planRequired, { exact: false })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'View plans' }).getAttribute('href')).toBe('/dashboard/subscription');
  });

  it('shows the failure when the list cannot be read', async () => {
    stubApi({ 'GET /api/me/policies': { status: 500, body: { error: 'internal_error', message: 'Something went wrong' } } });

    renderWithProviders(<PoliciesTab />);

    expect((await screen.findByRole('alert')).textContent).toBe('Failed to load your policies. Please try again.');
  });
});
