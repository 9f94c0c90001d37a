import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HistorySection } from '../features/dashboard/history/history-section';
import { auditsPage, historyEntry } from '../features/dashboard/history/audit-fixtures';
import { planName } from '../features/dashboard/layout/plan';
import { UpgradeOptions } from '../features/dashboard/subscription/upgrade-options';
import { AuthTestProvider } from '../features/auth/auth-provider';
import { formatMoney, formatPlanPrice, FREE_REPORT_NAME, getPlan, plans, type PlanId } from '../lib/catalogue';
import type { SubscriptionView } from '../lib/contracts';
import { renderWithProviders, stubApi } from '../testing/api-stub';
import { HomePage as HomeRoute } from './routes/home-page';

/**
 * Issue 29 item 2, "one catalogue, one name per product, everywhere": every page's plan names and
 * prices are lambdas/domain/plans.ts's. Each page is rendered and read back against the catalogue.
 */

const STATS = { auditsCompleted: 0, countries: 0, medianScanSeconds: null, averageScanSeconds: null, averageCriticalIssues: null, samples: { scanTimes: 0, criticalIssues: 0 } };

/** Every price written on the page ('A$249', 'A$49/month'), read text node by text node so neighbours do not run together. */
function pricesIn(root: Node): string[] {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const found: string[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const match of (node.textContent ?? '').matchAll(/A\$[\d,]+(?:\.\d{2})?(?:\/month)?/g)) found.push(match[0]);
  }
  return found;
}
/** Every price the catalogue states, and the subscriber-discounted audit prices checkout charges. */
const cataloguePrices = new Set(plans.flatMap((plan) => [formatPlanPrice(plan), formatMoney(plan.amountCents)]));

const subscription: SubscriptionView = {
  tier: 'monitor_lite',
  status: 'active',
  scansLimit: 30,
  scansUsed: 2,
  price: 49,
  currency: 'AUD',
  billingPeriod: 'monthly',
  startDate: '2026-12-01T00:00:00.000Z',
  endDate: '2027-01-01T00:00:00.000Z',
};

describe('plan names and prices come from the one catalogue', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('the landing page: each pricing card is its catalogue plan, every price written is a catalogue price, and no retired name appears', async () => {
    // Prepare
    stubApi({ 'GET /api/stats': { status: 200, body: STATS } });

    // Act
    renderWithProviders(
      <AuthTestProvider value={{ status: 'signed-out' }}>
        <HomeRoute />
      </AuthTestProvider>,
    );
    await screen.findByTestId('plan-basic-audit');

    // Assess
    for (const id of ['basic-audit', 'pro-audit'] as const) {
      const card = within(screen.getByTestId(`plan-${id}`));
      expect(card.getByText(getPlan(id).name)).toBeTruthy();
      expect(card.getByText(formatPlanPrice(getPlan(id)))).toBeTruthy();
    }
    expect([getPlan('basic-audit'), getPlan('pro-audit')].map((plan) => [plan.name, formatPlanPrice(plan)])).toEqual([
      ['Basic Audit', 'A$249'],
      ['Pro Audit', 'A$399'],
    ]);
    const text = document.body.textContent ?? '';
    const written = pricesIn(document.body);
    expect(written.length).toBeGreaterThan(0);
    for (const price of written) expect(cataloguePrices, price).toContain(price);
    for (const retired of ['Pro Scan', 'Basic Scan', 'real-time', 'Real-time']) expect(text).not.toContain(retired);
  });

  it('the subscription page: the two monitoring plans and the two scan packs, named and priced as the catalogue says', async () => {
    // Act
    renderWithProviders(
      <AuthTestProvider value={{ status: 'signed-in' }}>
        <UpgradeOptions subscription={subscription} />
      </AuthTestProvider>,
    );

    // Assess
    const offered = (['monitor-lite', 'monitor-plus', 'basic-scan', 'pro-scan'] as const satisfies readonly PlanId[]).map((id) => {
      const option = within(screen.getByTestId(`upgrade-${id}`));
      return [option.getByRole('heading').textContent, option.getByText(formatPlanPrice(getPlan(id))).textContent];
    });
    expect(offered).toEqual([
      [getPlan('monitor-lite').name, formatPlanPrice(getPlan('monitor-lite'))],
      [getPlan('monitor-plus').name, formatPlanPrice(getPlan('monitor-plus'))],
      [getPlan('basic-scan').name, formatPlanPrice(getPlan('basic-scan'))],
      [getPlan('pro-scan').name, formatPlanPrice(getPlan('pro-scan'))],
    ]);
    // A scan pack is unmistakably not an audit: neither its name nor its price is the Pro Audit's.
    expect(offered.slice(2)).toEqual([
      ['5-Scan Pack', 'A$249'],
      ['20-Scan Pack', 'A$449'],
    ]);
    expect(offered.map(([name]) => name)).not.toContain(getPlan('pro-audit').name);
  });

  it("the dashboard's plan box names the subscription's catalogue plan, and the trial the trial's", () => {
    expect(planName(subscription)).toBe(getPlan('monitor-lite').name);
    expect(planName({ ...subscription, tier: 'monitor_plus' })).toBe(getPlan('monitor-plus').name);
    expect(planName({ ...subscription, tier: 'basic', billingPeriod: 'trial', status: 'trial' })).toBe(getPlan('trial').name);
  });

  it("the audit history: a free scan reads 'Free report', a paid audit the catalogue's audit name", async () => {
    // Prepare
    stubApi({
      'GET /api/me/audits': auditsPage([
        historyEntry({ id: 'f', domain: 'free.example.test' }),
        historyEntry({ id: 'b', domain: 'basic.example.test', product: 'basic-audit' }),
        historyEntry({ id: 'p', domain: 'pro.example.test', tier: 'pro' }),
      ]),
    });

    // Act
    renderWithProviders(<HistorySection />);
    await screen.findByRole('table');

    // Assess
    const label = (domain: string) => screen.getByRole('rowheader', { name: domain }).closest('tr')!.querySelectorAll('td')[1]?.textContent;
    expect([label('free.example.test'), label('basic.example.test'), label('pro.example.test')]).toEqual([FREE_REPORT_NAME, getPlan('basic-audit').name, getPlan('pro-audit').name]);
    expect(FREE_REPORT_NAME).toBe('Free report');
  });
});
