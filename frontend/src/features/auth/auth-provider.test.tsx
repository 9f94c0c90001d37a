import { render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LoginRoute } from '../../app/routes/auth';
import { apiPost } from '../../lib/api-client';
import { renderWithProviders, stubApi } from '../../testing/api-stub';
import { AuthProvider, storedSessionMayExist, useAuth } from './auth-provider';

/** What Amplify leaves in storage for a signed-in user (the login's "remember me" picks the storage). */
const STORED_SESSION_KEY = 'CognitoIdentityServiceProvider.web-client.LastAuthUser';

const RUNTIME_CONFIG = {
  auth: { userPoolId: 'ap-southeast-2_local', userPoolClientId: 'web-client', authFlowType: 'USER_PASSWORD_AUTH' },
  demo: { email: 'demo@rampart.example', password: 'Demo-Password-1' },
};

function AuthState() {
  const { status, started } = useAuth();
  return <p data-testid="auth">{`${status} ${started ? 'started' : 'not started'}`}</p>;
}

const state = () => screen.getByTestId('auth').textContent;

afterEach(() => {
  vi.unstubAllGlobals();
  window.localStorage.clear();
  window.sessionStorage.clear();
});

describe('AuthProvider', () => {
  it('treats a browser without a stored session as signed out, loading neither the runtime config nor Amplify', async () => {
    // Prepare
    const api = stubApi({ 'POST /api/leads': { status: 201, body: { auditId: 'a1' } } });

    // Act
    renderWithProviders(
      <AuthProvider>
        <AuthState />
      </AuthProvider>,
    );
    const shownFirst = state();
    await apiPost('/api/leads', { firstName: 'Ada' });

    // Assess
    expect(shownFirst).toBe('signed-out not started');
    expect(state()).toBe('signed-out not started');
    // The lead goes out at once, without a token and without waiting for the sign-in code.
    expect(api.calls.map((call) => `${call.method} ${call.path}`)).toEqual(['POST /api/leads']);
  });

  it('reads the session at start when storage holds one, and calls wait for it', async () => {
    // Prepare
    window.sessionStorage.setItem(STORED_SESSION_KEY, 'olivia');
    const api = stubApi({ 'POST /api/leads': { status: 201, body: { auditId: 'a1' } } });

    // Act
    renderWithProviders(
      <AuthProvider>
        <AuthState />
      </AuthProvider>,
    );
    const shownFirst = state();
    await apiPost('/api/leads', { firstName: 'Ada' });
    await waitFor(() => expect(state()).not.toBe('loading started'), { timeout: 10_000 });

    // Assess
    expect(shownFirst).toBe('loading started');
    // No runtime config here (404): sign-in is unavailable, and the call went out after trying, without a token.
    expect(state()).toBe('unavailable started');
    expect(api.calls.map((call) => `${call.method} ${call.path}`)).toEqual(['GET /runtime-config.json', 'POST /api/leads']);
  }, 15_000);

  it('has the login page read the session when none was stored: a spinner, then the demo credentials', async () => {
    // Prepare
    const api = stubApi({ 'GET /runtime-config.json': { status: 200, body: RUNTIME_CONFIG } });

    // Act
    renderWithProviders(
      <AuthProvider>
        <LoginRoute />
      </AuthProvider>,
      { route: '/auth/login' },
    );
    const spinnerFirst = screen.queryByRole('status') !== null && screen.queryByRole('heading', { name: 'Client Login' }) === null;

    // Assess
    await screen.findByText(RUNTIME_CONFIG.demo.email, {}, { timeout: 10_000 });
    expect(spinnerFirst).toBe(true);
    expect(screen.getByRole('heading', { name: 'Client Login' })).toBeTruthy();
    expect(api.callsTo('GET', '/runtime-config.json')).toHaveLength(1);
  }, 15_000);
});

describe('useAuth', () => {
  it('throws the spec\'s developer error outside an AuthProvider (SPEC §8)', () => {
    function Reader() {
      useAuth();
      return null;
    }
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() => render(<Reader />)).toThrow('useAuth must be used within an AuthProvider');
    quiet.mockRestore();
  });
});

describe('storedSessionMayExist', () => {
  it("finds Amplify's keys in either storage, and nothing else counts", () => {
    // Prepare, Act, Assess
    expect(storedSessionMayExist()).toBe(false);
    window.localStorage.setItem('rampart.auth.remember', 'local');
    window.localStorage.setItem('theme', 'dark');
    expect(storedSessionMayExist()).toBe(false);
    window.localStorage.setItem(STORED_SESSION_KEY, 'olivia');
    expect(storedSessionMayExist()).toBe(true);
    window.localStorage.clear();
    window.sessionStorage.setItem(STORED_SESSION_KEY, 'olivia');
    expect(storedSessionMayExist()).toBe(true);
  });
});
