import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BillingView, MonthlyReportView } from '../../../lib/contracts';
import { renderWithProviders, stubApi } from '../../../testing/api-stub';
import { AuthTestProvider } from '../../auth/auth-provider';
import { MONTHLY_REPORT_DOWNLOAD_FAILED, MONTHLY_REPORTS_EMPTY } from './monthly-reports';
import { SubscriptionSection } from './subscription-section';

const billing = (billingPeriod: 'monthly' | 'trial'): BillingView => ({
  subscription: {
    tier: billingPeriod === 'monthly' ? 'monitor_plus' : 'basic',
    status: billingPeriod === 'monthly' ? 'active' : 'trial',
    scansLimit: 100,
    scansUsed: 1,
    price: billingPeriod === 'monthly' ? 99 : 0,
    currency: 'AUD',
    billingPeriod,
    startDate: '2026-11-01T00:00:00.000Z',
    endDate: '2026-12-01T00:00:00.000Z',
  },
  invoices: [],
  orders: [],
  canManageBilling: false,
  subscriberAuditDiscountPercent: 0,
});

const report = (month: string, label: string, extra: Partial<MonthlyReportView> = {}): MonthlyReportView => ({
  month,
  label,
  generatedAt: `${month}-28T00:10:00.000Z`,
  emailed: true,
  domains: ['shop.example.com', 'blog.example.com'],
  sizeBytes: 7_400,
  pdfPath: `/api/me/reports/monthly/${month}.pdf`,
  ...extra,
});

function renderSection() {
  return renderWithProviders(
    <AuthTestProvider value={{ status: 'signed-in' }}>
      <SubscriptionSection />
    </AuthTestProvider>,
    { route: '/dashboard/subscription' },
  );
}

describe('Subscription → Monthly reports', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('lists each month’s report, newest first, with its domains and whether it was emailed', async () => {
    stubApi({
      'GET /api/me/billing': { status: 200, body: billing('monthly') },
      'GET /api/me/reports/monthly': { status: 200, body: { reports: [report('2026-10', 'October 2026'), report('2026-09', 'September 2026', { emailed: false, domains: ['shop.example.com'] })] } },
    });
    renderSection();

    const october = await screen.findByRole('listitem', { name: 'October 2026' });
    const september = screen.getByRole('listitem', { name: 'September 2026' });
    expect(within(october).getByText(/2 domains · made 28 Oct 2026 · emailed/)).toBeTruthy();
    expect(within(september).getByText(/1 domain · made 28 Sept? 2026 · not emailed \(email alerts are off\)/)).toBeTruthy();
    expect(within(october).getByRole('button', { name: 'Download PDF of the October 2026 report' })).toBeTruthy();
  });

  it('says when the first report will come, and shows no card on the trial', async () => {
    stubApi({ 'GET /api/me/billing': { status: 200, body: billing('monthly') }, 'GET /api/me/reports/monthly': { status: 200, body: { reports: [] } } });
    const { unmount } = renderSection();
    expect(await screen.findByText(MONTHLY_REPORTS_EMPTY)).toBeTruthy();
    unmount();

    const api = stubApi({ 'GET /api/me/billing': { status: 200, body: billing('trial') } });
    renderSection();
    await screen.findByRole('heading', { name: 'Billing history' });
    expect(screen.queryByRole('heading', { name: 'Monthly reports' })).toBeNull();
    expect(api.callsTo('GET', '/api/me/reports/monthly')).toEqual([]);
  });

  it('downloads the month’s PDF with the user’s token under the product’s file name, and says so when it fails', async () => {
    stubApi({
      'GET /api/me/billing': { status: 200, body: billing('monthly') },
      'GET /api/me/reports/monthly': { status: 200, body: { reports: [report('2026-10', 'October 2026')] } },
    });
    const listed = globalThis.fetch;
    const pdf = new Blob(['%PDF-1.7'], { type: 'application/pdf' });
    const pdfAnswers = [{ ok: true, status: 200, blob: async () => pdf }, { ok: false, status: 404, json: async () => ({ error: 'monthly_report_not_found', message: 'There is no monthly report for that month.' }) }];
    const fetchPdf = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => (String(input).endsWith('.pdf') ? (pdfAnswers.shift() as unknown as Response) : listed(input, init)));
    vi.stubGlobal('fetch', fetchPdf);
    const createObjectURL = vi.fn((_blob: Blob) => 'blob:http://localhost/monthly-report');
    class StubUrl extends URL {
      static override createObjectURL = createObjectURL;
      static override revokeObjectURL = vi.fn();
    }
    vi.stubGlobal('URL', StubUrl);
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    renderSection();
    const download = await screen.findByRole('button', { name: 'Download PDF of the October 2026 report' });

    fireEvent.click(download);
    await waitFor(() => expect(saved).toEqual(['rampart-monthly-report-2026-10.pdf']));
    expect(createObjectURL).toHaveBeenCalledWith(pdf);
    expect(String(fetchPdf.mock.calls.find(([input]) => String(input).endsWith('.pdf'))![0])).toMatch(/\/api\/me\/reports\/monthly\/2026-10\.pdf$/);

    fireEvent.click(download);
    expect((await screen.findByRole('alert')).textContent).toBe(MONTHLY_REPORT_DOWNLOAD_FAILED);
  });
});
