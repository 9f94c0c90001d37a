import { screen } from '@testing-library/react';
import type { ReactElement } from 'react';
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { OrderView } from '../../../lib/contracts';
import { advance, renderWithProviders, stubApi } from '../../../testing/api-stub';
import { AuthTestProvider, type AuthStatus } from '../../auth/auth-provider';
import { PremiumUnlock } from './premium-unlock';
import { SubscriptionSuccess } from './subscription-success';

const AUDIT_ID = '0b3c5d2e-7f41-4a8b-9c1d-2e3f4a5b6c7d';
const SESSION_ID = 'cs_test_a1b2c3d4e5f6g7h8i9j0';
const ORDER_PATH = `/api/orders/${SESSION_ID}`;

const order = (extra: Partial<OrderView> = {}): OrderView => ({
  orderId: SESSION_ID.slice(0, 16),
  checkoutSessionId: SESSION_ID,
  planId: 'pro-audit',
  planName: 'Pro Audit',
  amountTotal: 39_900,
  currency: 'aud',
  orderDate: '2026-11-03T04:05:06.000Z',
  status: 'paid',
  auditId: AUDIT_ID,
  receiptUrl: `/api/orders/${SESSION_ID}/receipt.pdf`,
  ...extra,
});

const pending = { status: 404, body: { error: 'order_pending', message: 'The payment has not been confirmed yet.' } };

function Where() {
  const location = useLocation();
  return <p data-testid="where">{`${location.pathname}${location.search}`}</p>;
}

function renderAt(route: string, element: ReactElement, status: AuthStatus = 'signed-in') {
  const path = route.split('?')[0]!;
  return renderWithProviders(
    <AuthTestProvider value={{ status }}>
      <Routes>
        <Route path={path} element={element} />
        <Route path="*" element={<Where />} />
      </Routes>
    </AuthTestProvider>,
    { route },
  );
}

const renderUnlock = (sessionId: string | null, auditId: string | null) =>
  renderAt('/payment-success', <PremiumUnlock sessionId={sessionId} auditId={auditId} />, 'signed-out');

describe('the premium unlock page (/payment-success)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("says 'Invalid payment session' without a session id, asking the API nothing", async () => {
    // Prepare
    const api = stubApi({});

    // Act
    renderUnlock(null, AUDIT_ID);
    await advance(5_000);

    // Assess
    expect(screen.getByRole('heading').textContent).toBe('Invalid payment session');
    expect(api.calls).toEqual([]);
  });

  it("says 'Invalid payment session' when the API says the id cannot be a checkout session", async () => {
    // Prepare
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    stubApi({ 'GET /api/orders/not-a-session': { status: 400, body: { error: 'invalid_session', message: 'Invalid payment session' } } });

    // Act
    renderUnlock('not-a-session', AUDIT_ID);
    await advance(5_000);

    // Assess
    expect(screen.getByRole('heading').textContent).toBe('Invalid payment session');
    expect(screen.queryByTestId('where')).toBeNull();
    consoleError.mockRestore();
  });

  it('waits while the order is pending, then 2 s after the server confirms it opens the premium report', async () => {
    // Prepare
    const api = stubApi({ [`GET ${ORDER_PATH}`]: [pending, pending, { status: 200, body: order() }] });
    renderUnlock(SESSION_ID, AUDIT_ID);

    // Act
    await advance();
    const whilePending = screen.getByRole('status').textContent;
    // Two retries 2 s apart, each answer a few fake milliseconds behind its timer.
    await advance(4_100);
    const confirmed = screen.getByRole('heading').textContent;
    await advance(1_800);
    const stillHere = screen.queryByTestId('where');
    await advance(300);

    // Assess
    expect(whilePending).toContain('Unlocking your premium security report');
    expect(api.callsTo('GET', ORDER_PATH)).toHaveLength(3);
    expect(confirmed).toBe('Payment successful!');
    expect(stillHere).toBeNull();
    expect(screen.getByTestId('where').textContent).toBe(`/results/${AUDIT_ID}?premium=true`);
  });

  it('goes to the dashboard 2 s after confirming an order without an audit', async () => {
    // Prepare
    stubApi({ [`GET ${ORDER_PATH}`]: { status: 200, body: order({ auditId: undefined, planId: 'basic-scan', planName: 'Basic Scan' }) } });

    // Act
    renderUnlock(SESSION_ID, null);
    await advance(2_000);

    // Assess
    expect(screen.getByTestId('where').textContent).toBe('/dashboard');
  });

  it("shows 'Payment Processing Error' with Return to Home when the server knows no such order", async () => {
    // Prepare
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    const api = stubApi({ [`GET ${ORDER_PATH}`]: { status: 404, body: { error: 'order_not_found', message: 'No such order.' } } });

    // Act
    renderUnlock(SESSION_ID, AUDIT_ID);
    await advance(5_000);

    // Assess
    expect(screen.getByRole('heading').textContent).toBe('Payment Processing Error');
    expect(screen.getByText('Failed to process payment. Please contact support.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Return to Home' }).getAttribute('href')).toBe('/');
    expect(api.callsTo('GET', ORDER_PATH)).toHaveLength(1);
    expect(screen.queryByTestId('where')).toBeNull();
    consoleError.mockRestore();
  });

  it('gives up with the error screen when the payment is still unconfirmed after about 20 s', async () => {
    // Prepare
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    const api = stubApi({ [`GET ${ORDER_PATH}`]: pending });
    renderUnlock(SESSION_ID, AUDIT_ID);

    // Act
    await advance(19_000);
    const before = screen.getByRole('heading').textContent;
    await advance(2_000);

    // Assess
    expect(before).toBe('Confirming your payment');
    expect(screen.getByRole('heading').textContent).toBe('Payment Processing Error');
    expect(api.callsTo('GET', ORDER_PATH)).toHaveLength(11);
    consoleError.mockRestore();
  });
});

describe('the subscription success page (/success)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('shows the order from the server once the payment is confirmed: id, plan, A$ amount, date and the receipt', async () => {
    // Prepare
    stubApi({ [`GET ${ORDER_PATH}`]: [pending, { status: 200, body: order({ planId: 'monitor-plus', planName: 'Monitor Plus', amountTotal: 9_900, auditId: undefined }) }] });

    // Act
    renderAt(`/success?session_id=${SESSION_ID}`, <SubscriptionSuccess sessionId={SESSION_ID} />);
    await advance();
    const whilePending = screen.getByRole('status').textContent;
    await advance(2_100);

    // Assess
    expect(whilePending).toContain('Confirming your payment');
    expect(screen.getByTestId('order-id').textContent).toBe('cs_test_a1b2c3d4');
    expect(screen.getByTestId('order-id').textContent).toHaveLength(16);
    expect(screen.getByTestId('order-amount').textContent).toBe('A$99');
    expect(screen.getByText('Monitor Plus')).toBeTruthy();
    expect(screen.getByText('3 November 2026')).toBeTruthy();
    const receipt = screen.getByRole('link', { name: 'Download Receipt' });
    expect(receipt.getAttribute('href')).toBe(`/api/orders/${SESSION_ID}/receipt.pdf`);
    expect(receipt.hasAttribute('download')).toBe(true);
    expect(screen.getByRole('link', { name: 'Go to Dashboard' }).getAttribute('href')).toBe('/dashboard');
    expect(screen.getByText('Monitoring alerts arrive by email as soon as something changes.')).toBeTruthy();
  });

  it("formats a Pro Audit order as 'A$399' and a part-dollar amount with its cents", async () => {
    // Prepare
    const other = 'cs_test_zzzzzzzzzzzzzzzzzz';
    stubApi({
      [`GET ${ORDER_PATH}`]: { status: 200, body: order() },
      [`GET /api/orders/${other}`]: { status: 200, body: order({ checkoutSessionId: other, orderId: other.slice(0, 16), amountTotal: 24_950 }) },
    });

    // Act
    const first = renderAt(`/success?session_id=${SESSION_ID}`, <SubscriptionSuccess sessionId={SESSION_ID} />);
    await advance();
    const proAudit = screen.getByTestId('order-amount').textContent;
    first.unmount();
    renderAt(`/success?session_id=${other}`, <SubscriptionSuccess sessionId={other} />);
    await advance();

    // Assess
    expect(proAudit).toBe('A$399');
    expect(screen.getByTestId('order-amount').textContent).toBe('A$249.50');
  });

  it('skips the order details without a session id, keeping the next steps and Go to Dashboard', async () => {
    // Prepare
    const api = stubApi({});

    // Act
    renderAt('/success', <SubscriptionSuccess sessionId={null} />);
    await advance();

    // Assess
    expect(screen.queryByRole('heading', { name: 'Order details' })).toBeNull();
    expect(screen.getByRole('heading', { name: 'Next steps' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to Dashboard' })).toBeTruthy();
    expect(api.calls).toEqual([]);
  });

  it('sends a signed-out visitor to login with a returnUrl back to this page', async () => {
    // Prepare
    const api = stubApi({});

    // Act
    renderAt(`/success?session_id=${SESSION_ID}`, <SubscriptionSuccess sessionId={SESSION_ID} />, 'signed-out');
    await advance();

    // Assess
    expect(screen.getByTestId('where').textContent).toBe(`/auth/login?returnUrl=${encodeURIComponent(`/success?session_id=${SESSION_ID}`)}`);
    expect(api.calls).toEqual([]);
  });
});
