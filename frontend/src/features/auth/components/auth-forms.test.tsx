import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders, stubApi } from '../../../testing/api-stub';
import { AuthTestProvider, type AuthContextValue } from '../auth-provider';
import { LoginForm, totpMessages } from './login-form';
import { ResetPasswordForm } from './reset-password-form';
import { SetPasswordForm } from './set-password-form';
import { SignupForm } from './signup-form';

type SessionModule = Awaited<ReturnType<AuthContextValue['session']>>;

/** An Amplify stand-in: each step a spy the test arranges. */
function fakeSession(overrides: Partial<SessionModule> = {}) {
  return {
    logIn: vi.fn(async () => ({ step: 'done' as const })),
    setFirstPassword: vi.fn(async () => ({ step: 'done' as const })),
    register: vi.fn(async () => undefined),
    confirmRegistration: vi.fn(async () => undefined),
    resendRegistrationCode: vi.fn(async () => undefined),
    requestPasswordReset: vi.fn(async () => undefined),
    completePasswordReset: vi.fn(async () => undefined),
    ...overrides,
  } as unknown as SessionModule & Record<string, ReturnType<typeof vi.fn>>;
}

function renderAuth(ui: React.ReactElement, session: SessionModule, extra: Partial<AuthContextValue> = {}, route = '/auth/login') {
  const refresh = vi.fn(async () => ({ userId: 'u1', email: 'owner@example.com' }));
  renderWithProviders(
    <AuthTestProvider value={{ status: 'signed-out', user: undefined, session: async () => session, refresh, ...extra }}>
      <Routes>
        <Route path="/auth/*" element={ui} />
        <Route path="/dashboard/*" element={<h1>Dashboard page</h1>} />
      </Routes>
    </AuthTestProvider>,
    { route },
  );
  return { refresh };
}

const GOOD_PASSWORD = 'Correct-Horse-9-Battery';

afterEach(() => vi.unstubAllGlobals());

describe('LoginForm', () => {
  it('signs in with the remember-me choice and goes to the returnUrl', async () => {
    const session = fakeSession();
    const { refresh } = renderAuth(<LoginForm />, session, {}, '/auth/login?returnUrl=%2Fdashboard%2Fhistory');
    await userEvent.type(screen.getByLabelText('Email'), ' owner@example.com ');
    await userEvent.type(screen.getByLabelText('Password'), 'secret-password');
    await userEvent.click(screen.getByLabelText('Remember me'));
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    await screen.findByRole('heading', { name: 'Dashboard page' });
    expect(session.logIn).toHaveBeenCalledWith('owner@example.com', 'secret-password', true);
    expect(refresh).toHaveBeenCalled();
  });

  it("shows Cognito's message, or the spec's fallback, when sign-in fails", async () => {
    const failure = Object.assign(new Error('Incorrect username or password.'), { name: 'NotAuthorizedException' });
    const session = fakeSession({ logIn: vi.fn().mockRejectedValueOnce(failure).mockRejectedValueOnce(new Error('')) });
    renderAuth(<LoginForm />, session);
    await userEvent.type(screen.getByLabelText('Email'), 'owner@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'wrong');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Incorrect username or password.');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Login failed. Please try again.');
  });

  it('requires both fields before calling Cognito', async () => {
    const session = fakeSession();
    renderAuth(<LoginForm />, session);
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(screen.getByText('Email is required')).toBeTruthy();
    expect(screen.getByText('Password is required')).toBeTruthy();
    expect(session.logIn).not.toHaveBeenCalled();
  });

  it('asks a lead-created account for its own password after the temporary one', async () => {
    const session = fakeSession({ logIn: vi.fn(async () => ({ step: 'new-password-required' as const })) });
    stubApi({ 'GET /api/pwned-passwords/F057C': { status: 200, body: { suffixes: [] } } });
    renderAuth(<LoginForm />, session);
    await userEvent.type(screen.getByLabelText('Email'), 'owner@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'Temp-Pass-123!');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    await screen.findByRole('heading', { name: 'Set your password' });
    await userEvent.type(screen.getByLabelText('New password'), 'short');
    await userEvent.type(screen.getByLabelText('Confirm new password'), 'short');
    await userEvent.click(screen.getByRole('button', { name: 'Set Password' }));
    expect(screen.getByText('Use at least 12 characters')).toBeTruthy();
    expect(session.setFirstPassword).not.toHaveBeenCalled();
    await userEvent.clear(screen.getByLabelText('New password'));
    await userEvent.clear(screen.getByLabelText('Confirm new password'));
    await userEvent.type(screen.getByLabelText('New password'), GOOD_PASSWORD);
    await userEvent.type(screen.getByLabelText('Confirm new password'), GOOD_PASSWORD);
    await userEvent.click(screen.getByRole('button', { name: 'Set Password' }));
    await screen.findByRole('heading', { name: 'Dashboard page' });
    expect(session.setFirstPassword).toHaveBeenCalledWith(GOOD_PASSWORD);
  });

  it('asks for the authenticator code when two-step sign-in is on, refuses a wrong one and signs in with the right one', async () => {
    const mismatch = Object.assign(new Error('Invalid code received for user'), { name: 'CodeMismatchException' });
    const answerTotpCode = vi.fn().mockRejectedValueOnce(mismatch).mockResolvedValueOnce({ step: 'done' });
    const session = fakeSession({ logIn: vi.fn(async () => ({ step: 'totp-code' as const })), answerTotpCode } as never);
    const { refresh } = renderAuth(<LoginForm />, session);
    await userEvent.type(screen.getByLabelText('Email'), 'owner@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'secret-password');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    await screen.findByRole('heading', { name: 'Two-step sign-in' });
    await userEvent.type(screen.getByLabelText('Authentication code'), '12ab');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(screen.getByRole('alert').textContent).toBe(totpMessages.format);
    expect(answerTotpCode).not.toHaveBeenCalled();
    await userEvent.clear(screen.getByLabelText('Authentication code'));
    await userEvent.type(screen.getByLabelText('Authentication code'), '111111');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(totpMessages.wrong));
    await userEvent.clear(screen.getByLabelText('Authentication code'));
    await userEvent.type(screen.getByLabelText('Authentication code'), '222222');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await screen.findByRole('heading', { name: 'Dashboard page' });
    expect(answerTotpCode.mock.calls).toEqual([['111111'], ['222222']]);
    expect(refresh).toHaveBeenCalled();
  });

  it('shows the demo credentials when the deployment publishes them, and signs in with them at once', async () => {
    const session = fakeSession();
    const { refresh } = renderAuth(<LoginForm />, session, { demo: { email: 'demo@rampart.example', password: 'Demo-Password-1!' } }, '/auth/login?returnUrl=%2Fdashboard');
    expect(screen.getByText('demo@rampart.example')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Use the demo account' }));
    await screen.findByRole('heading', { name: 'Dashboard page' });
    expect(vi.mocked(session.logIn).mock.calls).toEqual([['demo@rampart.example', 'Demo-Password-1!', false]]);
    expect(refresh).toHaveBeenCalledTimes(1);
  });
});

describe('SignupForm', () => {
  async function fill(fields: Partial<Record<string, string>>) {
    for (const [label, value] of Object.entries(fields)) if (value) await userEvent.type(screen.getByLabelText(label), value);
  }

  it("names every missing field and the spec's two messages, calling nothing", async () => {
    const session = fakeSession();
    renderAuth(<SignupForm />, session, {}, '/auth/signup');
    await fill({ Password: GOOD_PASSWORD, 'Confirm password': `${GOOD_PASSWORD}x` });
    await userEvent.click(screen.getByRole('button', { name: 'Create Account' }));
    for (const text of ['First name is required', 'Last name is required', 'Email is required', 'Company is required', 'Passwords do not match', 'Please agree to the terms and conditions']) {
      expect(await screen.findByText(text)).toBeTruthy();
    }
    expect(session.register).not.toHaveBeenCalled();
  });

  it('refuses a password Pwned Passwords knows, sending only the first 5 characters of its SHA-1', async () => {
    // SHA-1("Password123!") = 49EFEF5F70D47ADC2DB2EB397FBEF5F7BC560E29
    const api = stubApi({ 'GET /api/pwned-passwords/49EFE': { status: 200, body: { suffixes: [{ suffix: 'F5F70D47ADC2DB2EB397FBEF5F7BC560E29', count: 52000 }] } } });
    const session = fakeSession();
    renderAuth(<SignupForm />, session, {}, '/auth/signup');
    await fill({ 'First name': 'Olivia', 'Last name': 'Owner', Email: 'olivia@example.com', Company: 'Example Shop', Password: 'Password123!', 'Confirm password': 'Password123!' });
    await userEvent.click(screen.getByRole('checkbox'));
    await userEvent.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText(/appeared in a data breach/)).toBeTruthy();
    expect(api.calls.map((c) => c.path)).toEqual(['/api/pwned-passwords/49EFE']);
    expect(session.register).not.toHaveBeenCalled();
  });

  it("shows Cognito's message, or 'An unexpected error occurred. Please try again.', when sign-up fails", async () => {
    stubApi({ 'GET /api/pwned-passwords/F057C': { status: 200, body: { suffixes: [] } } });
    const taken = Object.assign(new Error('An account with the given email already exists.'), { name: 'UsernameExistsException' });
    const session = fakeSession({ register: vi.fn().mockRejectedValueOnce(taken).mockRejectedValueOnce(new Error('')) });
    renderAuth(<SignupForm />, session, {}, '/auth/signup');
    await fill({ 'First name': 'Olivia', 'Last name': 'Owner', Email: 'olivia@example.com', Company: 'Example Shop', Password: GOOD_PASSWORD, 'Confirm password': GOOD_PASSWORD });
    await userEvent.click(screen.getByRole('checkbox'));
    await userEvent.click(screen.getByRole('button', { name: 'Create Account' }));
    expect((await screen.findByRole('alert')).textContent).toBe('An account with the given email already exists.');
    await userEvent.click(screen.getByRole('button', { name: 'Create Account' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('An unexpected error occurred. Please try again.'));
    expect(session.register).toHaveBeenCalledTimes(2);
  });

  it('creates the user, confirms the emailed code, signs in and saves the profile', async () => {
    const api = stubApi({
      'GET /api/pwned-passwords/F057C': { status: 502, body: { error: 'breach_check_unavailable', message: 'x' } },
      'PUT /api/me': { status: 200, body: {} },
    });
    const session = fakeSession();
    const { refresh } = renderAuth(<SignupForm />, session, {}, '/auth/signup');
    await fill({ 'First name': 'Olivia', 'Last name': 'Owner', Email: 'olivia@example.com', Company: 'Example, Shop', Password: GOOD_PASSWORD, 'Confirm password': GOOD_PASSWORD });
    await userEvent.click(screen.getByRole('checkbox'));
    await userEvent.click(screen.getByRole('button', { name: 'Create Account' }));
    await screen.findByRole('heading', { name: 'Confirm your email' });
    expect(session.register).toHaveBeenCalledWith({ email: 'olivia@example.com', password: GOOD_PASSWORD, firstName: 'Olivia', lastName: 'Owner' });
    await userEvent.type(screen.getByLabelText('Confirmation code'), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await screen.findByRole('heading', { name: 'Dashboard page' });
    expect(session.confirmRegistration).toHaveBeenCalledWith('olivia@example.com', '123456');
    expect(session.logIn).toHaveBeenCalledWith('olivia@example.com', GOOD_PASSWORD, true);
    expect(api.callsTo('PUT', '/api/me')[0]!.body).toEqual({ firstName: 'Olivia', lastName: 'Owner', company: 'Example, Shop' });
    expect(refresh).toHaveBeenCalled();
    // The check was unreachable (502): signup went on, as "where reachable" asks.
    expect(api.callsTo('GET', '/api/pwned-passwords/F057C')).toHaveLength(1);
  });

  it('keeps the returnUrl in its sign-in link and goes there once the account is confirmed', async () => {
    // Prepare: a passive report's unlock sends the visitor here on the way to verifying its domain.
    const back = '/dashboard/settings?tab=domains&add=shop.example.test&unlock=0b3c5d2e-7f41-4a8b-9c1d-2e3f4a5b6c7d';
    stubApi({
      'GET /api/pwned-passwords/F057C': { status: 200, body: { suffixes: [] } },
      'PUT /api/me': { status: 200, body: {} },
    });
    const session = fakeSession();
    function Where() {
      const location = useLocation();
      return <p data-testid="where">{`${location.pathname}${location.search}`}</p>;
    }
    renderWithProviders(
      <AuthTestProvider value={{ status: 'signed-out', user: undefined, session: async () => session, refresh: vi.fn(async () => undefined) }}>
        <Routes>
          <Route path="/auth/*" element={<SignupForm />} />
          <Route path="/dashboard/*" element={<Where />} />
        </Routes>
      </AuthTestProvider>,
      { route: `/auth/signup?returnUrl=${encodeURIComponent(back)}` },
    );
    const signInHref = screen.getByRole('link', { name: 'Sign in' }).getAttribute('href');

    // Act
    await fill({ 'First name': 'Ada', 'Last name': 'Lead', Email: 'ada@gmail.test', Company: 'Example Shop', Password: GOOD_PASSWORD, 'Confirm password': GOOD_PASSWORD });
    await userEvent.click(screen.getByRole('checkbox'));
    await userEvent.click(screen.getByRole('button', { name: 'Create Account' }));
    await userEvent.type(await screen.findByLabelText('Confirmation code'), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));

    // Assess
    expect(signInHref).toBe(`/auth/login?returnUrl=${encodeURIComponent(back)}`);
    expect((await screen.findByTestId('where')).textContent).toBe(back);
  });
});

describe('ResetPasswordForm', () => {
  it("asks for the email, then 'Check your email' with the code and the new password", async () => {
    stubApi({ 'GET /api/pwned-passwords/F057C': { status: 200, body: { suffixes: [] } } });
    const session = fakeSession();
    renderAuth(<ResetPasswordForm />, session, {}, '/auth/reset-password');
    await userEvent.click(screen.getByRole('button', { name: 'Send Reset Code' }));
    expect(screen.getByText('Email is required')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Email'), 'owner@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Send Reset Code' }));
    await screen.findByRole('heading', { name: 'Check your email' });
    expect(session.requestPasswordReset).toHaveBeenCalledWith('owner@example.com');
    await userEvent.type(screen.getByLabelText('Verification code'), '654321');
    await userEvent.type(screen.getByLabelText('New password'), GOOD_PASSWORD);
    await userEvent.type(screen.getByLabelText('Confirm new password'), GOOD_PASSWORD);
    await userEvent.click(screen.getByRole('button', { name: 'Reset Password' }));
    await screen.findByRole('heading', { name: 'Password changed' });
    expect(session.completePasswordReset).toHaveBeenCalledWith('owner@example.com', '654321', GOOD_PASSWORD);
  });

  it("shows the spec's message when Cognito refuses the request", async () => {
    renderAuth(<ResetPasswordForm />, fakeSession({ requestPasswordReset: vi.fn().mockRejectedValue(new Error('boom')) }), {}, '/auth/reset-password');
    await userEvent.type(screen.getByLabelText('Email'), 'owner@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Send Reset Code' }));
    expect((await screen.findByRole('alert')).textContent).toBe('An unexpected error occurred. Please try again.');
  });
});

describe('SetPasswordForm (issue 29 item 4)', () => {
  const TOKEN = 'T'.repeat(43);
  const openLink = (fragment: string) => window.history.replaceState(null, '', `/auth/set-password${fragment}`);

  it('sets the password with the link, takes the token out of the address, signs in with it and opens the dashboard', async () => {
    openLink(`#token=${TOKEN}`);
    const api = stubApi({
      'GET /api/pwned-passwords/F057C': { status: 200, body: { suffixes: [] } },
      'POST /api/account/password': { status: 200, body: { email: 'owner@example.com', message: 'Your password is set. You are signing in now.' } },
    });
    const session = fakeSession();
    const { refresh } = renderAuth(<SetPasswordForm />, session, {}, '/auth/set-password');
    await screen.findByRole('heading', { name: 'Choose your password' });
    expect(window.location.hash).toBe('');
    await userEvent.type(screen.getByLabelText('New password'), GOOD_PASSWORD);
    await userEvent.type(screen.getByLabelText('Confirm new password'), GOOD_PASSWORD);
    await userEvent.click(screen.getByRole('button', { name: 'Set Password' }));
    await screen.findByRole('heading', { name: 'Dashboard page' });
    expect(api.callsTo('POST', '/api/account/password').map((c) => c.body)).toEqual([{ token: TOKEN, password: GOOD_PASSWORD }]);
    expect(session.logIn).toHaveBeenCalledWith('owner@example.com', GOOD_PASSWORD, false);
    expect(refresh).toHaveBeenCalled();
  });

  it('says a used or expired link cannot be used, with the ways in that remain, and signs nobody in', async () => {
    openLink(`#token=${TOKEN}`);
    stubApi({
      'GET /api/pwned-passwords/F057C': { status: 200, body: { suffixes: [] } },
      'POST /api/account/password': { status: 410, body: { error: 'link_expired', message: 'This link has expired. Choose a password with "Forgot password" on the sign-in page: we email you a code.' } },
    });
    const session = fakeSession();
    renderAuth(<SetPasswordForm />, session, {}, '/auth/set-password');
    await userEvent.type(await screen.findByLabelText('New password'), GOOD_PASSWORD);
    await userEvent.type(screen.getByLabelText('Confirm new password'), GOOD_PASSWORD);
    await userEvent.click(screen.getByRole('button', { name: 'Set Password' }));
    expect((await screen.findByRole('alert')).textContent).toContain('This link has expired.');
    expect(screen.getByRole('link', { name: 'Forgot password' }).getAttribute('href')).toBe('/auth/reset-password');
    expect(screen.queryByLabelText('New password')).toBeNull();
    expect(session.logIn).not.toHaveBeenCalled();
  });

  it('without a token in the address, asks for the whole link and offers Forgot password', async () => {
    openLink('');
    const api = stubApi({});
    renderAuth(<SetPasswordForm />, fakeSession(), {}, '/auth/set-password');
    expect((await screen.findByRole('alert')).textContent).toContain('This link is not complete.');
    expect(screen.getByRole('link', { name: 'Forgot password' })).toBeTruthy();
    expect(api.calls).toEqual([]);
  });
});
