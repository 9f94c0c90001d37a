import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders, stubApi } from '../../../testing/api-stub';
import { AuthTestProvider } from '../../auth/auth-provider';
import { securityMessages, SecurityTab } from './security-tab';
import { ACCOUNT, DEMO_ACCOUNT } from './test-fixtures';

const STRONG = 'Correct-Horse-42';

function renderSecurity({ changePassword = vi.fn(async () => undefined), signOut = vi.fn(async () => undefined) } = {}) {
  renderWithProviders(
    <AuthTestProvider value={{ session: async () => ({ changePassword }) as never, signOut }}>
      <Routes>
        <Route path="/dashboard/settings" element={<SecurityTab />} />
        <Route path="/" element={<h1>Home page</h1>} />
      </Routes>
    </AuthTestProvider>,
    { route: '/dashboard/settings?tab=security' },
  );
  return { changePassword, signOut };
}

const input = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
function changePassword(current: string, next: string, confirm: string) {
  fireEvent.change(input('Current password'), { target: { value: current } });
  fireEvent.change(input('New password'), { target: { value: next } });
  fireEvent.change(input('Confirm new password'), { target: { value: confirm } });
  fireEvent.click(screen.getByRole('button', { name: 'Update Password' }));
}

const cognitoError = (name: string, message: string) => Object.assign(new Error(message), { name });

describe('Settings → Security', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("says 'New passwords do not match' and changes nothing when the two differ", async () => {
    // Prepare
    stubApi({ 'GET /api/me': { status: 200, body: ACCOUNT } });
    const auth = renderSecurity();
    await screen.findByLabelText('Current password');

    // Act
    changePassword('Old-Password-1', STRONG, `${STRONG}x`);

    // Assess
    expect(screen.getByRole('alert').textContent).toBe('New passwords do not match');
    expect(auth.changePassword).not.toHaveBeenCalled();
  });

  it('shows the policy and what a weak new password lacks, and sends nothing', async () => {
    // Prepare
    stubApi({ 'GET /api/me': { status: 200, body: ACCOUNT } });
    const auth = renderSecurity();
    await screen.findByLabelText('Current password');

    // Act
    changePassword('Old-Password-1', 'short', 'short');

    // Assess
    expect(screen.getByText(/At least 12 characters, with upper and lower case letters, a number and a symbol/)).toBeTruthy();
    const problems = within(screen.getByTestId('password-problems')).getAllByRole('listitem').map((item) => item.textContent);
    expect(problems).toEqual(['Use at least 12 characters', 'Add an uppercase letter (A–Z)', 'Add a number (0–9)', 'Add a symbol, such as ! @ # $ % - or _']);
    expect(screen.getByRole('alert').textContent).toBe(securityMessages.policy);
    expect(auth.changePassword).not.toHaveBeenCalled();
  });

  it('shows and hides each password', async () => {
    // Prepare
    stubApi({ 'GET /api/me': { status: 200, body: ACCOUNT } });
    renderSecurity();
    await screen.findByLabelText('Current password');

    // Act
    fireEvent.click(screen.getByRole('button', { name: 'Show current password' }));
    fireEvent.click(screen.getByRole('button', { name: 'Show new password' }));
    const shown = [input('Current password').type, input('New password').type, input('Confirm new password').type];
    fireEvent.click(screen.getByRole('button', { name: 'Hide new password' }));

    // Assess
    expect(shown).toEqual(['text', 'text', 'password']);
    expect(input('New password').type).toBe('password');
    expect(screen.getByRole('button', { name: 'Show confirm new password' })).toBeTruthy();
  });

  it('says the current password is incorrect when Cognito refuses it', async () => {
    // Prepare
    stubApi({ 'GET /api/me': { status: 200, body: ACCOUNT } });
    const auth = renderSecurity({
      changePassword: vi.fn(async () => {
        throw cognitoError('NotAuthorizedException', 'Incorrect username or password.');
      }),
    });
    await screen.findByLabelText('Current password');

    // Act
    changePassword('Wrong-Password-1', STRONG, STRONG);

    // Assess
    expect((await screen.findByRole('alert')).textContent).toBe('Your current password is incorrect.');
    expect(auth.changePassword).toHaveBeenCalledWith('Wrong-Password-1', STRONG);
  });

  it('changes the password through Cognito with the current one, then clears the form', async () => {
    // Prepare
    stubApi({ 'GET /api/me': { status: 200, body: ACCOUNT } });
    const auth = renderSecurity();
    await screen.findByLabelText('Current password');

    // Act
    changePassword('Old-Password-1', STRONG, STRONG);

    // Assess
    expect((await screen.findByRole('status')).textContent).toBe(securityMessages.changed);
    expect(auth.changePassword).toHaveBeenCalledExactlyOnceWith('Old-Password-1', STRONG);
    expect([input('Current password').value, input('New password').value, input('Confirm new password').value]).toEqual(['', '', '']);
  });

  it('refuses a new password Pwned Passwords knows, without calling Cognito', async () => {
    // Prepare: SHA-1("Correct-Horse-42") = 4133F767279AB73E02934A0523103684219C9A58
    const api = stubApi({
      'GET /api/me': { status: 200, body: ACCOUNT },
      'GET /api/pwned-passwords/4133F': { status: 200, body: { suffixes: [{ suffix: '767279AB73E02934A0523103684219C9A58', count: 3 }] } },
    });
    const auth = renderSecurity();
    await screen.findByLabelText('Current password');

    // Act
    changePassword('Old-Password-1', STRONG, STRONG);

    // Assess
    expect((await screen.findByRole('alert')).textContent).toMatch(/appeared in a data breach/);
    expect(api.callsTo('GET', '/api/pwned-passwords/4133F')).toHaveLength(1);
    expect(auth.changePassword).not.toHaveBeenCalled();
  });

  it('deletes the account only after Yes: DELETE /api/me, sign out, then the home page', async () => {
    // Prepare
    const api = stubApi({ 'GET /api/me': { status: 200, body: ACCOUNT }, 'DELETE /api/me': { status: 204 } });
    const auth = renderSecurity();
    await screen.findByRole('button', { name: 'Delete Account' });

    // Act
    fireEvent.click(screen.getByRole('button', { name: 'Delete Account' }));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    const afterCancel = [api.callsTo('DELETE', '/api/me').length, screen.queryByRole('button', { name: 'Yes, delete my account' })];
    fireEvent.click(screen.getByRole('button', { name: 'Delete Account' }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, delete my account' }));

    // Assess
    expect(await screen.findByRole('heading', { name: 'Home page' })).toBeTruthy();
    expect(afterCancel).toEqual([0, null]);
    expect(api.callsTo('DELETE', '/api/me')).toEqual([{ method: 'DELETE', path: '/api/me', body: undefined }]);
    expect(auth.signOut).toHaveBeenCalledOnce();
  });

  it('keeps the account and says so when the deletion fails', async () => {
    // Prepare
    stubApi({ 'GET /api/me': { status: 200, body: ACCOUNT }, 'DELETE /api/me': { status: 500, body: { error: 'internal_error', message: 'x' } } });
    const auth = renderSecurity();
    await screen.findByRole('button', { name: 'Delete Account' });

    // Act
    fireEvent.click(screen.getByRole('button', { name: 'Delete Account' }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, delete my account' }));

    // Assess
    expect((await screen.findByRole('alert')).textContent).toBe(securityMessages.deleteFailed);
    expect(auth.signOut).not.toHaveBeenCalled();
    expect(screen.queryByRole('heading', { name: 'Home page' })).toBeNull();
  });

  it('offers the demo account neither a password change nor deletion, only a note', async () => {
    // Prepare
    stubApi({ 'GET /api/me': { status: 200, body: DEMO_ACCOUNT } });

    // Act
    renderSecurity();
    const note = await screen.findByRole('note');

    // Assess
    expect(note.textContent).toBe(securityMessages.demo);
    expect(screen.queryByLabelText('Current password')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete Account' })).toBeNull();
  });

  it('disables Update Password while the change is in flight', async () => {
    // Prepare
    let finish: () => void = () => undefined;
    stubApi({ 'GET /api/me': { status: 200, body: ACCOUNT } });
    const change = vi.fn(() => new Promise<undefined>((resolve) => (finish = () => resolve(undefined))));
    renderSecurity({ changePassword: change });
    await screen.findByLabelText('Current password');

    // Act
    changePassword('Old-Password-1', STRONG, STRONG);
    await waitFor(() => expect((screen.getByRole('button', { name: 'Update Password' }) as HTMLButtonElement).disabled).toBe(true));
    // The button is disabled from the breached-password check on; the change itself starts after it.
    await waitFor(() => expect(change).toHaveBeenCalledTimes(1));
    expect((screen.getByRole('button', { name: 'Update Password' }) as HTMLButtonElement).disabled).toBe(true);
    finish();

    // Assess
    await waitFor(() => expect((screen.getByRole('button', { name: 'Update Password' }) as HTMLButtonElement).disabled).toBe(false));
    expect(screen.getByRole('status').textContent).toBe(securityMessages.changed);
  });
});
