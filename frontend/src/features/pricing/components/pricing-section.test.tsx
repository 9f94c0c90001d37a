import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { PENDING_CHECKOUT_KEY } from '../hooks/use-checkout';
import { PricingSection } from './pricing-section';

function LoginProbe() {
  const location = useLocation();
  return <p data-testid="login-location">{`${location.pathname}${location.search}`}</p>;
}

/** The pricing section on `/` with a login page that answers at once, or (pending) never loads. */
function renderPricing({ loginPending = false }: { loginPending?: boolean } = {}) {
  const router = createMemoryRouter(
    [
      { path: '/', Component: PricingSection },
      loginPending ? { path: '/auth/login', lazy: () => new Promise<never>(() => {}) } : { path: '/auth/login', Component: LoginProbe },
    ],
    { initialEntries: ['/'] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

const card = (planId: string) => screen.getByTestId(`plan-${planId}`);

describe('the pricing section', () => {
  beforeEach(() => {
    sessionStorage.clear();
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

  it('sends a signed-out visitor to /auth/login with a returnUrl back to the pricing section', async () => {
    // Prepare
    const router = renderPricing();

    // Act
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Choose Pro Audit' }));
    });

    // Assess
    expect(router.state.location.pathname).toBe('/auth/login');
    expect(new URLSearchParams(router.state.location.search).get('returnUrl')).toBe('/#pricing-section');
    expect(screen.getByTestId('login-location').textContent).toBe('/auth/login?returnUrl=%2F%23pricing-section');
    expect(sessionStorage.getItem(PENDING_CHECKOUT_KEY)).toBe('pro-audit');
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
});
