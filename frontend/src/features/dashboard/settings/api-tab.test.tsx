import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiTokenMessages, type ApiTokenList, type ApiTokenView } from '../../../lib/contracts';
import { advance, renderWithProviders, stubApi } from '../../../testing/api-stub';
import { ApiTab, apiTabMessages, usageExamples } from './api-tab';

const SECRET = 'rmp_ab12CDEFghijklmnopqrstuvwxyz0123456789-_AB';

const token = (name: string, overrides: Partial<ApiTokenView> = {}): ApiTokenView => ({
  id: `6f1c2d8e-3b1a-4c5e-9f00-${String(name.length).padStart(12, '0')}`,
  name,
  prefix: 'rmp_ab12',
  createdAt: '2026-03-02T01:00:00.000Z',
  lastUsedAt: null,
  expiresAt: null,
  ...overrides,
});

const listAnswer = (tokens: ApiTokenView[], apiAccess = true): { status: number; body: ApiTokenList } => ({
  status: 200,
  body: { tokens, apiAccess, limit: 10, requestsPerMinute: 60 },
});

const CI = token('CI pipeline', { lastUsedAt: '2026-03-05T04:30:00.000Z', expiresAt: '2026-05-20T01:00:00.000Z', createdBy: { id: 'user-2', email: 'rita@example.test' } });

describe('Settings → API', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('lists tokens by name and prefix with their dates, never a secret, and shows curl examples for this site', async () => {
    // Prepare
    stubApi({ 'GET /api/me/api-tokens': listAnswer([CI, token('Backup')]) });

    // Act
    renderWithProviders(<ApiTab />);
    const row = await screen.findByRole('listitem', { name: 'CI pipeline' });

    // Assess
    expect(within(row).getByText('rmp_ab12…')).toBeTruthy();
    expect(within(row).getByText('2 Mar 2026')).toBeTruthy();
    expect(within(row).getByText('20 May 2026')).toBeTruthy();
    expect(within(row).getByText(/5 Mar 2026/)).toBeTruthy();
    const backup = screen.getByRole('listitem', { name: 'Backup' });
    expect(within(backup).getAllByText('never')).toHaveLength(2);
    // Who made each (issue 28): shown when recorded.
    expect(within(row).getByText('rita@example.test')).toBeTruthy();
    expect(within(backup).queryByText('Made by')).toBeNull();
    expect(screen.getByRole('region', { name: 'Create an API token' })).toBeTruthy();
    const origin = window.location.origin;
    expect(screen.getByText(`curl -H "Authorization: Bearer $API_TOKEN" ${origin}/api/v1/audits`)).toBeTruthy();
    expect(screen.getByText(`curl -H "Authorization: Bearer $API_TOKEN" ${origin}/api/v1/audits/AUDIT_ID`)).toBeTruthy();
    expect(
      screen.getByText(`curl -X POST -H "Authorization: Bearer $API_TOKEN" -H "Content-Type: application/json" -d '{"domain":"example.com"}' ${origin}/api/v1/scans`),
    ).toBeTruthy();
    expect(screen.getByText(/60 requests a minute/)).toBeTruthy();
  });

  it('builds the examples from the given base URL and the route manifest', () => {
    expect(usageExamples('https://api.example.test').map((example) => example.command.split(' ').at(-1))).toEqual([
      'https://api.example.test/api/v1/audits',
      'https://api.example.test/api/v1/audits/AUDIT_ID',
      'https://api.example.test/api/v1/scans',
    ]);
  });

  it('creates a token with its name and expiry, shows the secret once with a warning, and copies it with “Copied to clipboard!” for 2 s', async () => {
    // Prepare
    vi.useFakeTimers({ shouldAdvanceTime: false });
    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    const created = token('Nightly', { expiresAt: '2026-04-01T00:00:00.000Z' });
    const api = stubApi({
      'GET /api/me/api-tokens': [listAnswer([]), listAnswer([created])],
      'POST /api/me/api-tokens': { status: 201, body: { token: created, secret: SECRET } },
    });
    renderWithProviders(<ApiTab />);
    await advance();

    // Act
    fireEvent.change(screen.getByLabelText('Token name'), { target: { value: '  Nightly ' } });
    fireEvent.change(screen.getByLabelText('Expires'), { target: { value: '30' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create Token' }));
    await advance();
    const secretField = screen.getByLabelText('Your new token “Nightly”') as HTMLInputElement;
    fireEvent.click(within(screen.getByRole('region', { name: 'Your new API token' })).getByRole('button', { name: 'Copy' }));
    await advance();
    const copiedAtOnce = screen.queryByText(apiTabMessages.copied) !== null;
    await advance(1_900);
    const copiedStill = screen.queryByText(apiTabMessages.copied) !== null;
    await advance(200);

    // Assess
    expect(api.callsTo('POST', '/api/me/api-tokens').map((call) => call.body)).toEqual([{ name: 'Nightly', expiresInDays: 30 }]);
    expect(secretField.value).toBe(SECRET);
    expect(secretField.readOnly).toBe(true);
    expect(screen.getByText(apiTabMessages.secretWarning)).toBeTruthy();
    expect(writeText).toHaveBeenCalledWith(SECRET);
    expect([copiedAtOnce, copiedStill]).toEqual([true, true]);
    expect(screen.queryByText(apiTabMessages.copied)).toBeNull();
    expect(screen.getByRole('listitem', { name: 'Nightly' })).toBeTruthy();
    expect((screen.getByLabelText('Token name') as HTMLInputElement).value).toBe('');
  });

  it('hides the secret for good once Done is pressed', async () => {
    // Prepare
    const created = token('Once');
    stubApi({
      'GET /api/me/api-tokens': [listAnswer([]), listAnswer([created])],
      'POST /api/me/api-tokens': { status: 201, body: { token: created, secret: SECRET } },
    });
    renderWithProviders(<ApiTab />);
    fireEvent.change(await screen.findByLabelText('Token name'), { target: { value: 'Once' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create Token' }));
    await screen.findByRole('region', { name: 'Your new API token' });

    // Act
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));

    // Assess
    expect(screen.queryByRole('region', { name: 'Your new API token' })).toBeNull();
    expect(screen.queryByDisplayValue(SECRET)).toBeNull();
    expect(document.body.textContent).not.toContain(SECRET);
  });

  it('sends a token without an expiry when Never is chosen, and refuses an empty name before sending', async () => {
    // Prepare
    const api = stubApi({
      'GET /api/me/api-tokens': listAnswer([]),
      'POST /api/me/api-tokens': { status: 201, body: { token: token('Forever'), secret: SECRET } },
    });
    renderWithProviders(<ApiTab />);
    const name = await screen.findByLabelText('Token name');

    // Act
    fireEvent.change(name, { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create Token' }));
    const sentForBlank = api.callsTo('POST', '/api/me/api-tokens').length;
    const blankError = screen.getByText(apiTokenMessages.name) !== null;
    fireEvent.change(name, { target: { value: 'Forever' } });
    fireEvent.change(screen.getByLabelText('Expires'), { target: { value: 'never' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create Token' }));
    await screen.findByRole('region', { name: 'Your new API token' });

    // Assess
    expect([sentForBlank, blankError]).toEqual([0, true]);
    expect(api.callsTo('POST', '/api/me/api-tokens').map((call) => call.body)).toEqual([{ name: 'Forever', expiresInDays: null }]);
  });

  it("shows the API's own message when it refuses to create a token", async () => {
    stubApi({
      'GET /api/me/api-tokens': listAnswer([]),
      'POST /api/me/api-tokens': { status: 409, body: { error: 'api_token_limit_reached', message: apiTokenMessages.limitReached } },
    });
    renderWithProviders(<ApiTab />);
    fireEvent.change(await screen.findByLabelText('Token name'), { target: { value: 'Eleventh' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create Token' }));

    expect(await screen.findByText(apiTokenMessages.limitReached)).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Your new API token' })).toBeNull();
  });

  it('revokes a token only after the confirmation, and keeps it on Cancel', async () => {
    // Prepare
    const api = stubApi({
      'GET /api/me/api-tokens': [listAnswer([CI]), listAnswer([])],
      [`DELETE /api/me/api-tokens/${CI.id}`]: { status: 204 },
    });
    renderWithProviders(<ApiTab />);
    await screen.findByRole('listitem', { name: 'CI pipeline' });

    // Act
    fireEvent.click(screen.getByRole('button', { name: 'Revoke CI pipeline' }));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    const afterCancel = api.callsTo('DELETE', `/api/me/api-tokens/${CI.id}`).length;
    fireEvent.click(screen.getByRole('button', { name: 'Revoke CI pipeline' }));
    const confirmation = screen.getByRole('group', { name: 'Revoke CI pipeline?' });
    await act(async () => {
      fireEvent.click(within(confirmation).getByRole('button', { name: 'Yes, revoke' }));
    });

    // Assess
    expect(afterCancel).toBe(0);
    expect(await screen.findByText(apiTabMessages.noTokens)).toBeTruthy();
    expect(api.callsTo('DELETE', `/api/me/api-tokens/${CI.id}`)).toHaveLength(1);
  });

  it('offers no creation without API access: the upgrade note links to the subscription page, existing tokens can still be revoked', async () => {
    stubApi({ 'GET /api/me/api-tokens': listAnswer([CI], false) });

    renderWithProviders(<ApiTab />);

    expect(await screen.findByText(apiTokenMessages.planRequired)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Upgrade your plan' }).getAttribute('href')).toBe('/dashboard/subscription');
    expect(screen.queryByRole('button', { name: 'Create Token' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Revoke CI pipeline' })).toBeTruthy();
  });

  it('says so when the list cannot be loaded', async () => {
    stubApi({ 'GET /api/me/api-tokens': { status: 500, body: { error: 'internal_error', message: 'Something went wrong' } } });

    renderWithProviders(<ApiTab />);

    expect(await screen.findByText(apiTabMessages.loadFailed)).toBeTruthy();
  });
});
