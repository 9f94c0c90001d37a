import { screen } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { advance, renderWithProviders } from '../../../testing/api-stub';
import { PremiumUnlock } from './premium-unlock';
import { SubscriptionSuccess } from './subscription-success';

const AUDIT_ID = '0b3c5d2e-7f41-4a8b-9c1d-2e3f4a5b6c7d';

function Where() {
  const location = useLocation();
  return <p data-testid="where">{`${location.pathname}${location.search}`}</p>;
}

function renderUnlock(props: Parameters<typeof PremiumUnlock>[0]) {
  return renderWithProviders(
    <Routes>
      <Route path="/payment-success" element={<PremiumUnlock {...props} />} />
      <Route path="*" element={<Where />} />
    </Routes>,
    { route: '/payment-success' },
  );
}

describe('the payment pages', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("says 'Invalid payment session' without a session id", async () => {
    renderUnlock({ sessionId: null, auditId: AUDIT_ID });
    await advance(5_000);
    expect(screen.getByRole('heading').textContent).toBe('Invalid payment session');
  });

  it('shows the unlocking screen, then after 2 s the premium report', async () => {
    // Prepare
    const unlock = vi.fn(async () => {});
    renderUnlock({ sessionId: 'cs_test_123', auditId: AUDIT_ID, unlock });

    // Act
    await advance(1_999);
    const during = screen.getByRole('status').textContent;
    await advance(1);

    // Assess
    expect(during).toContain('Unlocking your premium security report');
    expect(unlock).toHaveBeenCalledWith({ sessionId: 'cs_test_123', auditId: AUDIT_ID });
    expect(screen.getByTestId('where').textContent).toBe(`/results/${AUDIT_ID}?premium=true`);
  });

  it('goes to the dashboard when there is no audit id', async () => {
    renderUnlock({ sessionId: 'cs_test_123', auditId: null });
    await advance(2_000);
    expect(screen.getByTestId('where').textContent).toBe('/dashboard');
  });

  it("shows 'Payment Processing Error' with Return to Home when unlocking fails", async () => {
    // Prepare
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    const unlock = vi.fn(async () => {
      throw new Error('session not paid');
    });

    // Act
    renderUnlock({ sessionId: 'cs_test_123', auditId: AUDIT_ID, unlock });
    await advance(2_000);

    // Assess
    expect(screen.getByRole('heading').textContent).toBe('Payment Processing Error');
    expect(screen.getByText('Failed to process payment. Please contact support.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Return to Home' }).getAttribute('href')).toBe('/');
    expect(consoleError).toHaveBeenCalled();
    consoleError.mockRestore();
  });

  it('shows the order id (the first 16 characters of the session), next steps and Go to Dashboard; no details without a session', () => {
    // Act
    const first = renderWithProviders(<SubscriptionSuccess sessionId="cs_test_a1b2c3d4e5f6g7h8i9" />);
    const orderId = screen.getByTestId('order-id').textContent;
    const dashboard = screen.getByRole('link', { name: 'Go to Dashboard' }).getAttribute('href');
    first.unmount();
    renderWithProviders(<SubscriptionSuccess sessionId={null} />);

    // Assess
    expect(orderId).toBe('cs_test_a1b2c3d4');
    expect(dashboard).toBe('/dashboard');
    expect(screen.queryByTestId('order-id')).toBeNull();
    expect(screen.getByRole('heading', { name: 'Next steps' })).toBeTruthy();
  });
});
