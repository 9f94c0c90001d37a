import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BillingView, InvoiceView, OrderView, SubscriptionView } from '../../../lib/contracts';
import { advance, renderWithProviders, stubApi } from '../../../testing/api-stub';
import { AuthTestProvider } from '../../auth/auth-provider';
import { SubscriptionSection } from './subscription-section';

const subscription = (extra: Partial<SubscriptionView> = {}): SubscriptionView => ({
  tier: 'monitor_lite',
  status: 'active',
  scansLimit: 30,
  scansUsed: 12,
  price: 49,
  currency: 'AUD',
  billingPeriod: 'monthly',
  startDate: '2026-11-01T00:00:00.000Z',
  endDate: '2026-12-01T00:00:00.000Z',
  ...extra,
});

const invoice = (extra: Partial<InvoiceView> = {}): InvoiceView => ({
  id: 'in_1',
  date: '2026-11-01T00:00:00.000Z',
  amountCents: 4_900,
  currency: 'aud',
  status: 'paid',
  description: 'Monitor Lite, November 2026',
  receiptUrl: 'https://invoice.stripe.test/i/in_1',
  ...extra,
});

const order: OrderView = {
  orderId: 'cs_test_a1b2c3d4',
  checkoutSessionId: 'cs_test_a1b2c3d4e5f6g7h8',
  planId: 'pro-audit',
  planName: 'Pro Audit',
  amountTotal: 39_900,
  currency: 'aud',
  orderDate: '2026-10-15T03:00:00.000Z',
  status: 'paid',
  auditId: '0b3c5d2e-7f41-4a8b-9c1d-2e3f4a5b6c7d',
  receiptUrl: '/api/orders/cs_test_a1b2c3d4e5f6g7h8/receipt.pdf',
};

const billing = (extra: Partial<BillingView> = {}): BillingView => ({
  subscription: subscription(),
  invoices: [invoice(), invoice({ id: 'in_0', date: '2026-10-01T00:00:00.000Z', description: 'Monitor Lite, October 2026', status: 'failed', receiptUrl: undefined })],
  orders: [order],
  canManageBilling: true,
  subscriberAuditDiscountPercent: 10,
  ...extra,
});

const PORTAL_URL = 'https://billing.stripe.test/p/session/test_123';

function renderSection() {
  return renderWithProviders(
    <AuthTestProvider value={{ status: 'signed-in' }}>
      <SubscriptionSection />
    </AuthTestProvider>,
    { route: '/dashboard/subscription' },
  );
}

function stubAssign() {
  const assign = vi.fn<(url: string | URL) => void>();
  vi.stubGlobal('location', { ...window.location, assign });
  return assign;
}

describe('the subscription section', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('shows the current plan, its status, period and usage from the billing API', async () => {
    // Prepare
    stubApi({ 'GET /api/me/billing': { status: 200, body: billing() } });

    // Act
    renderSection();
    await advance();

    // Assess
    const current = within(screen.getByRole('region', { name: 'Current plan' }));
    expect(current.getByText('Monitor Lite')).toBeTruthy();
    expect(current.getByTestId('subscription-status').textContent).toBe('active');
    expect(current.getByText('1 November 2026 – 1 December 2026')).toBeTruthy();
    expect(current.getByText('12 / 30 scans used')).toBeTruthy();
    expect(current.getByText('As a subscriber you get 10% off paid audits, applied at checkout.')).toBeTruthy();
    expect(document.querySelector('[data-tone]')?.getAttribute('data-tone')).toBe('ok');
  });

  it.each([
    [25, 30, 'high', true],
    [19, 30, 'warn', false],
  ] as const)('colours %i of %i scans %s, warning only over 80%%', async (used, limit, tone, warned) => {
    // Prepare
    stubApi({ 'GET /api/me/billing': { status: 200, body: billing({ subscription: subscription({ scansUsed: used, scansLimit: limit }) }) } });

    // Act
    renderSection();
    await advance();

    // Assess
    expect(document.querySelector('[data-tone]')?.getAttribute('data-tone')).toBe(tone);
    expect(screen.queryByText('You are running low on scans. Upgrade your plan to keep scanning.') !== null).toBe(warned);
  });

  it('lists invoices and one-off orders newest first with date, description, amount, status and receipt', async () => {
    // Prepare
    stubApi({ 'GET /api/me/billing': { status: 200, body: billing() } });

    // Act
    renderSection();
    await advance();

    // Assess
    const table = within(screen.getByRole('region', { name: 'Billing history' })).getByRole('table');
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent));
    expect(rows).toEqual([
      ['1 Nov 2026', 'Monitor Lite, November 2026', 'A$49', 'Paid', 'Receipt for Monitor Lite, November 2026, 1 Nov 2026'],
      ['15 Oct 2026', 'Pro Audit (order cs_test_a1b2c3d4)', 'A$399', 'Paid', 'Receipt for Pro Audit (order cs_test_a1b2c3d4), 15 Oct 2026'],
      ['1 Oct 2026', 'Monitor Lite, October 2026', 'A$49', 'Failed', '—'],
    ]);
    const receipts = within(table).getAllByRole('link');
    expect(receipts.map((link) => link.getAttribute('href'))).toEqual([
      'https://invoice.stripe.test/i/in_1',
      '/api/orders/cs_test_a1b2c3d4e5f6g7h8/receipt.pdf',
    ]);
  });

  it('says there are no invoices yet when there are neither invoices nor orders', async () => {
    // Prepare
    stubApi({ 'GET /api/me/billing': { status: 200, body: billing({ invoices: [], orders: [] }) } });

    // Act
    renderSection();
    await advance();

    // Assess
    const history = within(screen.getByRole('region', { name: 'Billing history' }));
    expect(history.queryByRole('table')).toBeNull();
    expect(history.getByText('No invoices yet. Invoices appear here once you buy a plan.')).toBeTruthy();
  });

  it('opens the billing portal with Manage Billing', async () => {
    // Prepare
    const assign = stubAssign();
    const api = stubApi({
      'GET /api/me/billing': { status: 200, body: billing() },
      'POST /api/me/billing-portal': { status: 200, body: { url: PORTAL_URL } },
    });
    renderSection();
    await advance();

    // Act
    fireEvent.click(screen.getByRole('button', { name: 'Manage Billing' }));
    await advance();

    // Assess
    expect(api.callsTo('POST', '/api/me/billing-portal')).toHaveLength(1);
    expect(assign).toHaveBeenCalledExactlyOnceWith(PORTAL_URL);
  });

  it('disables Manage Billing with an explanation when there is no customer yet', async () => {
    // Prepare
    stubApi({ 'GET /api/me/billing': { status: 200, body: billing({ subscription: subscription({ tier: 'basic', billingPeriod: 'trial', status: 'trial', scansLimit: 3, scansUsed: 0 }), invoices: [], orders: [], canManageBilling: false }) } });

    // Act
    renderSection();
    await advance();

    // Assess
    const button = screen.getByRole('button', { name: 'Manage Billing' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(document.getElementById(button.getAttribute('aria-describedby')!)?.textContent).toContain('Billing management opens once you have bought a plan');
    expect(screen.getByText('Free Trial')).toBeTruthy();
    expect(screen.queryByText(/off paid audits/)).toBeNull();
  });

  it("shows the API's message when the portal answers 409", async () => {
    // Prepare
    const assign = stubAssign();
    stubApi({
      'GET /api/me/billing': { status: 200, body: billing() },
      'POST /api/me/billing-portal': { status: 409, body: { error: 'no_billing_account', message: 'There is no billing account yet: it is created with your first purchase.' } },
    });
    renderSection();
    await advance();

    // Act
    fireEvent.click(screen.getByRole('button', { name: 'Manage Billing' }));
    await advance();

    // Assess
    expect(screen.getByRole('alert').textContent).toBe('There is no billing account yet: it is created with your first purchase.');
    expect(assign).not.toHaveBeenCalled();
  });

  it("says 'Could not open the billing portal. Please try again.' when the portal fails", async () => {
    // Prepare
    stubAssign();
    stubApi({
      'GET /api/me/billing': { status: 200, body: billing() },
      'POST /api/me/billing-portal': { status: 502, body: { error: 'billing_portal_failed', message: 'Could not open the billing portal. Please try again.' } },
    });
    renderSection();
    await advance();

    // Act
    fireEvent.click(screen.getByRole('button', { name: 'Manage Billing' }));
    await advance();

    // Assess
    expect(screen.getByRole('alert').textContent).toBe('Could not open the billing portal. Please try again.');
    expect((screen.getByRole('button', { name: 'Manage Billing' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('offers Monitor Lite, Monitor Plus, the 5-Scan Pack and the 20-Scan Pack, the current plan not again, each starting checkout', async () => {
    // Prepare
    const assign = stubAssign();
    const api = stubApi({
      'GET /api/me/billing': { status: 200, body: billing() },
      'POST /api/checkout-sessions': { status: 201, body: { url: 'https://checkout.stripe.test/c/pay/cs_test_9', sessionId: 'cs_test_9' } },
    });
    renderSection();
    await advance();
    const option = (id: string) => within(screen.getByTestId(`upgrade-${id}`));

    // Act
    fireEvent.click(option('pro-scan').getByRole('button', { name: 'Choose 20-Scan Pack' }));
    const during = option('pro-scan').getByRole('button').textContent;
    await advance();

    // Assess
    expect(option('monitor-lite').getByText('A$49/month')).toBeTruthy();
    expect((option('monitor-lite').getByRole('button') as HTMLButtonElement).textContent).toBe('Current plan');
    expect((option('monitor-lite').getByRole('button') as HTMLButtonElement).disabled).toBe(true);
    expect(option('monitor-plus').getByText('A$99/month')).toBeTruthy();
    expect(option('monitor-plus').getByText('100 scans a month')).toBeTruthy();
    expect(option('basic-scan').getByText('A$249')).toBeTruthy();
    expect(option('basic-scan').getByText('5 scans')).toBeTruthy();
    expect(option('pro-scan').getByText('A$449')).toBeTruthy();
    expect(option('pro-scan').getByText('20 scans')).toBeTruthy();
    expect(during).toBe('Processing...');
    expect(api.callsTo('POST', '/api/checkout-sessions').map((call) => call.body)).toEqual([{ planId: 'pro-scan' }]);
    expect(assign).toHaveBeenCalledExactlyOnceWith('https://checkout.stripe.test/c/pay/cs_test_9');
  });

  it("shows 'Failed to start checkout. Please try again.' when an upgrade cannot start", async () => {
    // Prepare
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    stubApi({
      'GET /api/me/billing': { status: 200, body: billing() },
      'POST /api/checkout-sessions': { status: 502, body: { error: 'checkout_failed', message: 'Failed to create checkout session' } },
    });
    renderSection();
    await advance();

    // Act
    fireEvent.click(screen.getByRole('button', { name: 'Choose Monitor Plus' }));
    await advance();

    // Assess
    expect(within(screen.getByRole('region', { name: 'Upgrade options' })).getByRole('alert').textContent).toBe(
      'Failed to start checkout. Please try again.',
    );
    consoleError.mockRestore();
  });
});
