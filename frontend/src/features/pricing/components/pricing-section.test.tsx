import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthTestProvider, type AuthStatus } from '../../auth/auth-provider';
import { PENDING_CHECKOUT_KEY } from '../../payments/hooks/use-checkout';
import { advance, stubApi } from '../../../testing/api-stub';
import { PricingSection } from './pricing-section';

function LoginProbe() {
  const location = useLocation();
  return <p data-testid="login-location">{`${location.pathname}${location.search}`}</p>;
}

/** The pricing section on `/` with a login page that answers at once, or (pending) never loads. */
function renderPricing({ loginPending = false, status = 'signed-out' }: { loginPending?: boolean; status?: AuthStatus } = {}) {
  const router = createMemoryRouter(
    [
      { path: '/', Component: PricingSection },
      loginPending ? { path: '/auth/login', lazy: () => new Promise<never>(() => {}) } : { path: '/auth/login', Component: LoginProbe },
    ],
    { initialEntries: ['/'] },
  );
  const view = render(
    <AuthTestProvider value={{ status }}>
      <RouterProvider router={router} />
    </AuthTestProvider>,
  );
  return Object.assign(router, { unmount: view.unmount });
}

const card = (planId: string) => screen.getByTestId(`plan-${planId}`);

const CHECKOUT_URL = 'https://checkout.stripe.test/c/pay/cs_test_a1b2c3d4e5f6g7h8';

/** window.location.assign cannot be spied on in jsdom; the whole location is swapped for one whose assign records. */
function stubAssign() {
  const assign = vi.fn<(url: string | URL) => void>();
  vi.stubGlobal('location', { ...window.location, assign });
  return assign;
}

describe('the pricing section', () => {
  beforeEach(() => {
    sessionStorage.clear();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('opens on Security Audits with the Basic Audit at A$249 and the Pro Audit at A$399', () => {
    // Act
    renderPricing();

    // Assess
    expect(screen.getByRole('tab', { name: 'Security Audits' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tab', { name: 'Monthly Protection' }).getAttribute('aria-selected')).toBe('false');
    expect(within(card('basic-audit')).getByText('A$249')).toBeTruthy();
    expect(within(card('pro-audit')).getByText('A$399')).toBeTruthy();
    expect(screen.queryByTestId('plan-monitor-lite')).toBeNull();
    expect(screen.getByText(/Subscribers get automatic discounts on audits, applied at checkout\./)).toBeTruthy();
  });

  it('shows Monitor Lite at A$49/month and Monitor Plus at A$99/month on the Monthly Protection tab', () => {
    // Prepare
    renderPricing();

    // Act
    fireEvent.click(screen.getByRole('tab', { name: 'Monthly Protection' }));

    // Assess
    expect(screen.getByRole('tab', { name: 'Monthly Protection' }).getAttribute('aria-selected')).toBe('true');
    expect(within(card('monitor-lite')).getByText('A$49').nextSibling?.textContent).toBe('/month');
    expect(within(card('monitor-plus')).getByText('A$99').nextSibling?.textContent).toBe('/month');
    expect(within(card('monitor-lite')).getByText('30 scans a month')).toBeTruthy();
    expect(screen.queryByTestId('plan-basic-audit')).toBeNull();
    expect(screen.getByRole('tabpanel').getAttribute('aria-labelledby')).toBe('pricing-tab-monthly');
  });

  it('moves between the tabs with the arrow keys, selecting and focusing each', () => {
    // Prepare
    renderPricing();
    const audits = screen.getByRole('tab', { name: 'Security Audits' });
    audits.focus();

    // Act
    fireEvent.keyDown(audits, { key: 'ArrowRight' });

    // Assess
    const monthly = screen.getByRole('tab', { name: 'Monthly Protection' });
    expect(monthly.getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(monthly);
    expect(monthly.tabIndex).toBe(0);
    expect(audits.tabIndex).toBe(-1);

    // Act (wraps around)
    fireEvent.keyDown(monthly, { key: 'ArrowRight' });

    // Assess
    expect(audits.getAttribute('aria-selected')).toBe('true');
  });

  it('sends a signed-out visitor to /auth/login with a returnUrl back to the pricing section, remembering the plan', async () => {
    // Prepare
    const api = stubApi({});
    const router = renderPricing();

    // Act
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Choose Pro Audit' }));
    });

    // Assess
    expect(router.state.location.pathname).toBe('/auth/login');
    expect(new URLSearchParams(router.state.location.search).get('returnUrl')).toBe('/#pricing-section');
    expect(screen.getByTestId('login-location').textContent).toBe('/auth/login?returnUrl=%2F%23pricing-section');
    expect(JSON.parse(sessionStorage.getItem(PENDING_CHECKOUT_KEY)!)).toMatchObject({ planId: 'pro-audit', path: '/' });
    expect(api.calls).toEqual([]);
  });

  it("shows 'Processing...' with a spinner on the chosen plan, and disables every plan, while the next page loads", async () => {
    // Prepare
    renderPricing({ loginPending: true });
    fireEvent.click(screen.getByRole('tab', { name: 'Monthly Protection' }));

    // Act
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Choose Monitor Lite' }));
    });

    // Assess
    const chosen = within(card('monitor-lite')).getByRole('button') as HTMLButtonElement;
    const other = within(card('monitor-plus')).getByRole('button') as HTMLButtonElement;
    expect(chosen.textContent).toBe('Processing...');
    expect(chosen.querySelector('.animate-spin')).not.toBeNull();
    expect(chosen.disabled).toBe(true);
    expect(chosen.getAttribute('aria-busy')).toBe('true');
    expect(other.textContent).toBe('Choose Monitor Plus');
    expect(other.disabled).toBe(true);
  });

  it("starts a signed-in user's checkout with the plan, shows 'Processing...' and sends the browser to the checkout url", async () => {
    // Prepare
    vi.useFakeTimers();
    const assign = stubAssign();
    const api = stubApi({ 'POST /api/checkout-sessions': { status: 201, body: { url: CHECKOUT_URL, sessionId: 'cs_test_a1b2c3d4e5f6g7h8' } } });
    renderPricing({ status: 'signed-in' });
    fireEvent.click(screen.getByRole('tab', { name: 'Monthly Protection' }));

    // Act (the answer arrives only once the test awaits, so the processing state can be read first)
    fireEvent.click(screen.getByRole('button', { name: 'Choose Monitor Plus' }));
    const duringText = within(card('monitor-plus')).getByRole('button').textContent;
    const otherDisabled = (within(card('monitor-lite')).getByRole('button') as HTMLButtonElement).disabled;
    await advance();

    // Assess
    expect(duringText).toBe('Processing...');
    expect(otherDisabled).toBe(true);
    expect(api.calls).toEqual([{ method: 'POST', path: '/api/checkout-sessions', body: { planId: 'monitor-plus' } }]);
    expect(assign).toHaveBeenCalledExactlyOnceWith(CHECKOUT_URL);
    expect(sessionStorage.getItem(PENDING_CHECKOUT_KEY)).toBeNull();
  });

  it("goes back to idle with 'Failed to start checkout. Please try again.' when the checkout cannot start", async () => {
    // Prepare
    vi.useFakeTimers();
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    const assign = stubAssign();
    stubApi({ 'POST /api/checkout-sessions': { status: 502, body: { error: 'checkout_failed', message: 'Failed to create checkout session' } } });
    renderPricing({ status: 'signed-in' });

    // Act
    fireEvent.click(screen.getByRole('button', { name: 'Choose Basic Audit' }));
    await advance();

    // Assess
    expect(screen.getByRole('alert').textContent).toBe('Failed to start checkout. Please try again.');
    const button = within(card('basic-audit')).getByRole('button') as HTMLButtonElement;
    expect(button.textContent).toBe('Choose Basic Audit');
    expect(button.disabled).toBe(false);
    expect(assign).not.toHaveBeenCalled();
    consoleError.mockRestore();
  });

  it('resumes the plan chosen before logging in once, on the return to the page signed in', async () => {
    // Prepare
    vi.useFakeTimers();
    const assign = stubAssign();
    const api = stubApi({ 'POST /api/checkout-sessions': { status: 201, body: { url: CHECKOUT_URL, sessionId: 'cs_test_a1b2c3d4e5f6g7h8' } } });
    sessionStorage.setItem(PENDING_CHECKOUT_KEY, JSON.stringify({ planId: 'pro-audit', path: '/', savedAt: Date.now() }));

    // Act
    const first = renderPricing({ status: 'signed-in' });
    await advance();
    first.unmount();
    renderPricing({ status: 'signed-in' });
    await advance();

    // Assess
    expect(api.callsTo('POST', '/api/checkout-sessions').map((call) => call.body)).toEqual([{ planId: 'pro-audit' }]);
    expect(assign).toHaveBeenCalledExactlyOnceWith(CHECKOUT_URL);
    expect(sessionStorage.getItem(PENDING_CHECKOUT_KEY)).toBeNull();
  });

  it('does not resume a plan chosen on another page, or while still signed out', async () => {
    // Prepare
    vi.useFakeTimers();
    stubAssign();
    const api = stubApi({ 'POST /api/checkout-sessions': { status: 201, body: { url: CHECKOUT_URL, sessionId: 'cs_test_x' } } });
    const elsewhere = JSON.stringify({ planId: 'pro-audit', auditId: '0b3c5d2e-7f41-4a8b-9c1d-2e3f4a5b6c7d', path: '/results/0b3c5d2e-7f41-4a8b-9c1d-2e3f4a5b6c7d', savedAt: Date.now() });
    sessionStorage.setItem(PENDING_CHECKOUT_KEY, elsewhere);

    // Act
    const first = renderPricing({ status: 'signed-in' });
    await advance();
    first.unmount();
    sessionStorage.setItem(PENDING_CHECKOUT_KEY, JSON.stringify({ planId: 'pro-audit', path: '/', savedAt: Date.now() }));
    renderPricing({ status: 'signed-out' });
    await advance();

    // Assess
    expect(api.calls).toEqual([]);
    expect(JSON.parse(sessionStorage.getItem(PENDING_CHECKOUT_KEY)!)).toMatchObject({ path: '/' });
  });
});
