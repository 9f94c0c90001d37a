import { fireEvent, screen, within } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Audit, AuditResultView, SubscriptionView } from '../../../lib/contracts';
import { advance, renderWithProviders, stubApi } from '../../../testing/api-stub';
import { AuthTestProvider, type AuthStatus } from '../../auth/auth-provider';
import { PENDING_CHECKOUT_KEY } from '../../payments/hooks/use-checkout';
import { AUDIT_POLL_INTERVAL_MS, PREMIUM_POLL_LIMIT } from '../api/get-audit';
import { AuditResults, type ResultsMode } from './audit-results';

const ID = '0b3c5d2e-7f41-4a8b-9c1d-2e3f4a5b6c7d';
const AUDIT_PATH = `/api/audits/${ID}`;
const CHECKOUT_URL = 'http://localhost:3000/_local/checkout/cs_local_0123456789abcdef';

/** `GET /api/me` of a signed-in viewer: a trial by default, which keeps the offer (issue 29 item 3). */
const me = (subscription: Partial<SubscriptionView> = {}) => ({
  status: 200,
  body: {
    user: { id: 'user-1', email: 'owner@shop.example.test', firstName: 'Olivia', lastName: 'Owner', company: 'Example Shop', isDemo: false, createdAt: '2026-12-01T00:00:00.000Z' },
    subscription: {
      tier: 'basic',
      status: 'trial',
      scansLimit: 3,
      scansUsed: 1,
      price: 0,
      currency: 'AUD',
      billingPeriod: 'trial',
      startDate: '2026-12-01T00:00:00.000Z',
      endDate: '2026-12-15T00:00:00.000Z',
      ...subscription,
    } satisfies SubscriptionView,
  },
});

const audit = (extra: Partial<Audit> = {}): Audit => ({
  id: ID,
  targetUrl: 'https://shop.example.test/',
  host: 'shop.example.test',
  status: 'completed',
  createdAt: '2026-01-01T00:00:00.000Z',
  completedAt: '2026-01-01T00:00:20.000Z',
  score: 70,
  grade: 'C',
  riskLevel: 'medium',
  checks: [{ name: 'dns', status: 'ok', findings: [] }],
  ...extra,
});

function result(totalIssues: number, extra: Record<string, unknown> = {}): AuditResultView {
  return {
    id: ID,
    target_url: 'https://shop.example.test/',
    audit_status: 'completed',
    error_message: null,
    scan_mode: 'active',
    coverage: { mode: 'active', allowedMode: 'active', partial: false, notChecked: [] },
    created_at: '2026-01-01T00:00:00.000Z',
    completed_at: '2026-01-01T00:00:20.000Z',
    risk_level: 'medium',
    dns_results: { status: 'completed', subdomainsFound: 0, totalSubdomains: 0, activeSubdomains: 0, completedAt: '2026-01-01T00:00:20.000Z' },
    port_scan_results: [],
    vulnerability_summary: {
      vulnerabilities: Array.from({ length: totalIssues }, (_, i) => ({
        id: `finding.${i}`,
        title: `Finding ${i}`,
        severity: 'medium' as const,
        category: 'Web Security',
        description: 'Why it matters',
        recommendation: 'How to fix it',
      })),
      totalIssues,
      criticalIssues: 0,
      subdomainsScanned: 0,
      riskFactors: [],
      overallRisk: 'medium',
      recommendations: [],
    },
    host: 'shop.example.test',
    business_name: null,
    risk_score: 70,
    grade: 'C',
    counters: { totalIssues, criticalIssues: 0, openPorts: 0, subdomains: 0 },
    finding_counts: { critical: 0, high: 0, medium: totalIssues, low: 0, info: 0 },
    observations: [],
    grades: { tls: null, httpObservatory: null },
    breaches: { status: 'not-configured', checked: null, breached: null },
    technologies: [],
    tls: { status: 'completed', grade: null, ports: [], hsts: null, httpsRedirect: null },
    email_security: { status: 'completed', domain: null, spf: null, dmarc: null, dkim: { selectorsFound: [] }, mx: [] },
    network: { status: 'completed', address: null, portsScanned: 100, closed: 100, filtered: 0, firewall: null },
    ...extra,
  } as AuditResultView;
}

function Where() {
  const location = useLocation();
  return <p data-testid="where">{`${location.pathname}${location.search}`}</p>;
}

function renderResults({ mode = 'public', status = 'signed-out', search = '' }: { mode?: ResultsMode; status?: AuthStatus; search?: string } = {}) {
  return renderWithProviders(
    <AuthTestProvider value={{ status }}>
      <Routes>
        <Route path="/results/:auditId" element={<AuditResults auditId={ID} mode={mode} />} />
        <Route path="*" element={<Where />} />
      </Routes>
    </AuthTestProvider>,
    { route: `/results/${ID}${search}` },
  );
}

const offer = () => screen.queryByTestId('paid-audit-offer');

describe('the paid audit offer on the results page', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    sessionStorage.clear();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('offers the Basic Audit at A$249 and the Pro Audit at A$399, with what each adds, on a finished report with issues', async () => {
    // Prepare
    stubApi({ [`GET ${AUDIT_PATH}`]: { status: 200, body: { audit: audit(), result: result(3) } } });

    // Act
    renderResults();
    await advance();

    // Assess
    const basic = within(screen.getByTestId('offer-basic-audit'));
    const pro = within(screen.getByTestId('offer-pro-audit'));
    expect(basic.getByRole('heading').textContent).toBe('Basic Audit');
    expect(basic.getByText('A$249')).toBeTruthy();
    expect(basic.getByText('Deep port scan of the 1,000 most common ports')).toBeTruthy();
    expect(basic.getByText('Security badge eligibility for 30 days')).toBeTruthy();
    expect(pro.getByRole('heading').textContent).toBe('Pro Audit');
    expect(pro.getByText('A$399')).toBeTruthy();
    expect(pro.getByText('A step-by-step remediation plan for each finding')).toBeTruthy();
    expect(pro.getByText('A free re-scan within 30 days to confirm your fixes')).toBeTruthy();
    expect(pro.getByText('Security badge eligibility for 90 days')).toBeTruthy();
    expect(offer()?.textContent).toContain('This free report found 3 issues.');
    expect(offer()?.textContent).toContain('Subscribers get automatic discounts on audits, applied at checkout.');
  });

  it.each([
    ['no issues were found', { result: result(0) }, 'public'],
    ['the report is already premium (is_premium)', { result: result(2, { is_premium: true, plan_type: 'pro' }) }, 'public'],
    ['the audit record says premium', { audit: audit({ isPremium: true, planType: 'pro' }), result: result(2) }, 'public'],
    ['it is the sample report', { result: result(2, { sample: true }) }, 'public'],
    ['the report is the shared read-only view', { result: result(2) }, 'shared'],
    [
      'the site blocked the scanner (a paid audit would meet the same wall)',
      {
        result: result(2, {
          site_access: {
            blocked: true,
            kind: 'challenge',
            vendor: 'cloudflare',
            vendorName: 'Cloudflare',
            status: 403,
            url: 'https://shop.example.test/',
            reason: 'Challenge.',
            headline: 'We could not see your site.',
            checks: [{ check: 'http', title: 'HTTP security headers', cause: 'blocked' }],
            guide: { title: 'Let the scanner in', steps: ['Allow it.'] },
          },
        }),
      },
      'public',
    ],
  ] as const)('is not offered when %s', async (_, body, mode) => {
    // Prepare
    stubApi({ [`GET ${AUDIT_PATH}`]: { status: 200, body: { audit: audit(), ...body } } });

    // Act
    renderResults({ mode });
    await advance();

    // Assess
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('https://shop.example.test/');
    expect(offer()).toBeNull();
  });

  it('is not offered while the scan is running', async () => {
    // Prepare
    stubApi({ [`GET ${AUDIT_PATH}`]: { status: 200, body: { audit: audit({ status: 'in_progress', completedAt: undefined }) } } });

    // Act
    renderResults();
    await advance();

    // Assess
    expect(screen.getByRole('heading', { name: /Scanning shop\.example\.test/ })).toBeTruthy();
    expect(offer()).toBeNull();
  });

  it('sends a signed-out visitor to login with a returnUrl back to the report, remembering the plan and the audit', async () => {
    // Prepare
    const api = stubApi({ [`GET ${AUDIT_PATH}`]: { status: 200, body: { audit: audit(), result: result(1) } } });
    renderResults();
    await advance();

    // Act
    fireEvent.click(screen.getByRole('button', { name: 'Get the Pro Audit' }));
    await advance();

    // Assess
    expect(screen.getByTestId('where').textContent).toBe(`/auth/login?returnUrl=${encodeURIComponent(`/results/${ID}`)}`);
    expect(JSON.parse(sessionStorage.getItem(PENDING_CHECKOUT_KEY)!)).toMatchObject({ planId: 'pro-audit', auditId: ID, path: `/results/${ID}` });
    expect(api.callsTo('POST', '/api/checkout-sessions')).toEqual([]);
  });

  it("starts a signed-in user's checkout for this audit and leaves for the checkout url", async () => {
    // Prepare
    const assign = vi.fn<(url: string | URL) => void>();
    vi.stubGlobal('location', { ...window.location, assign });
    const api = stubApi({
      [`GET ${AUDIT_PATH}`]: { status: 200, body: { audit: audit(), result: result(1) } },
      'GET /api/me': me(),
      'POST /api/checkout-sessions': { status: 201, body: { url: CHECKOUT_URL, sessionId: 'cs_local_0123456789abcdef' } },
    });
    renderResults({ status: 'signed-in' });
    await advance();
    await advance(1_000); // the offer asks GET /api/me once the report is in

    // Act
    fireEvent.click(screen.getByRole('button', { name: 'Get the Basic Audit' }));
    const during = within(screen.getByTestId('offer-basic-audit')).getByRole('button').textContent;
    const otherDisabled = (within(screen.getByTestId('offer-pro-audit')).getByRole('button') as HTMLButtonElement).disabled;
    await advance();

    // Assess
    expect(during).toBe('Processing...');
    expect(otherDisabled).toBe(true);
    expect(api.callsTo('POST', '/api/checkout-sessions').map((call) => call.body)).toEqual([{ planId: 'basic-audit', auditId: ID }]);
    expect(assign).toHaveBeenCalledExactlyOnceWith(CHECKOUT_URL);
  });

  it("shows 'Failed to start checkout. Please try again.' on the offer when the checkout cannot start", async () => {
    // Prepare
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    stubApi({
      [`GET ${AUDIT_PATH}`]: { status: 200, body: { audit: audit(), result: result(1) } },
      'GET /api/me': me(),
      'POST /api/checkout-sessions': { status: 500, body: { error: 'checkout_failed', message: 'Failed to create checkout session' } },
    });
    renderResults({ status: 'signed-in' });
    await advance();
    await advance(1_000); // the offer asks GET /api/me once the report is in

    // Act
    fireEvent.click(screen.getByRole('button', { name: 'Get the Pro Audit' }));
    await advance();

    // Assess
    expect(within(offer()!).getByRole('alert').textContent).toBe('Failed to start checkout. Please try again.');
    expect((screen.getByRole('button', { name: 'Get the Pro Audit' }) as HTMLButtonElement).disabled).toBe(false);
    consoleError.mockRestore();
  });

  it("shows the API's own reason when it refuses the checkout, such as another account's report", async () => {
    // Prepare
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    stubApi({
      [`GET ${AUDIT_PATH}`]: { status: 200, body: { audit: audit(), result: result(1) } },
      'GET /api/me': me(),
      'POST /api/checkout-sessions': { status: 403, body: { error: 'audit_forbidden', message: 'This report belongs to another account.' } },
    });
    renderResults({ status: 'signed-in' });
    await advance();
    await advance(1_000); // the offer asks GET /api/me once the report is in

    // Act
    fireEvent.click(screen.getByRole('button', { name: 'Get the Basic Audit' }));
    await advance();

    // Assess
    expect(within(offer()!).getByRole('alert').textContent).toBe('This report belongs to another account.');
    consoleError.mockRestore();
  });

  it("shows the 'Premium report' banner above the deep scan's progress after the payment's redirect", async () => {
    // Prepare: as the payment's webhook leaves it, premium and queued again for the deep scan.
    stubApi({ [`GET ${AUDIT_PATH}`]: { status: 200, body: { audit: audit({ status: 'queued', completedAt: undefined, isPremium: true, planType: 'basic' }) } } });

    // Act
    renderResults({ search: '?premium=true' });
    await advance();

    // Assess
    expect(screen.getByRole('heading', { name: 'Premium report' })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Premium report' }).textContent).toContain('The deep scan is running now');
    expect(screen.getByRole('heading', { name: /Scanning shop\.example\.test/ })).toBeTruthy();
  });

  it.each([
    ['finished', audit(), result(2)],
    ['still scanning', audit({ status: 'queued', completedAt: undefined }), undefined],
  ] as const)("shows no 'Premium report' banner on a report that is not premium (%s) opened with ?premium=true, and a finished one keeps the offer", async (state, stored, view) => {
    // Prepare: anyone can add the flag to a report link; only the audit's stored state counts.
    stubApi({ [`GET ${AUDIT_PATH}`]: { status: 200, body: { audit: stored, ...(view ? { result: view } : {}) } } });

    // Act
    renderResults({ search: '?premium=true' });
    await advance();

    // Assess
    expect(screen.queryByRole('region', { name: 'Premium report' })).toBeNull();
    expect(screen.queryByText(/This report includes your paid audit|Thank you for your purchase/)).toBeNull();
    if (state === 'finished') expect(within(offer()!).getByRole('heading', { name: 'Go deeper with a paid audit' })).toBeTruthy();
  });

  it('after the payment\'s redirect, reads the audit again until it is stored as premium, then shows the banner instead of the offer', async () => {
    // Prepare: the webhook marks the audit a moment after the order the payment page waited for.
    const api = stubApi({
      [`GET ${AUDIT_PATH}`]: [
        { status: 200, body: { audit: audit(), result: result(2) } },
        { status: 200, body: { audit: audit({ isPremium: true, planType: 'pro' }), result: result(2, { is_premium: true, plan_type: 'pro' }) } },
      ],
    });
    renderResults({ search: '?premium=true' });
    await advance();
    const offeredFirst = offer() !== null;

    // Act
    await advance(AUDIT_POLL_INTERVAL_MS);
    await advance(10 * AUDIT_POLL_INTERVAL_MS);

    // Assess
    expect(offeredFirst).toBe(true);
    expect(screen.getByRole('region', { name: 'Premium report' }).textContent).toContain('This report includes your paid audit');
    expect(offer()).toBeNull();
    // Premium as stored: no more reads.
    expect(api.callsTo('GET', AUDIT_PATH)).toHaveLength(2);
  });

  it(`stops asking after ${PREMIUM_POLL_LIMIT} reads when the audit never becomes premium, and never asks again without the flag`, async () => {
    // Prepare
    const flagged = stubApi({ [`GET ${AUDIT_PATH}`]: { status: 200, body: { audit: audit(), result: result(2) } } });
    const withFlag = renderResults({ search: '?premium=true' });

    // Act
    await advance();
    await advance((PREMIUM_POLL_LIMIT + 5) * AUDIT_POLL_INTERVAL_MS);
    const flaggedReads = flagged.callsTo('GET', AUDIT_PATH).length;
    withFlag.unmount();
    const plain = stubApi({ [`GET ${AUDIT_PATH}`]: { status: 200, body: { audit: audit(), result: result(2) } } });
    renderResults();
    await advance();
    await advance(5 * AUDIT_POLL_INTERVAL_MS);

    // Assess
    expect(flaggedReads).toBe(PREMIUM_POLL_LIMIT);
    expect(plain.callsTo('GET', AUDIT_PATH)).toHaveLength(1);
    expect(screen.queryByRole('region', { name: 'Premium report' })).toBeNull();
    expect(offer()).not.toBeNull();
  });

  it("shows the 'Premium report' banner on a finished premium report without the flag, and none on a free one", async () => {
    // Prepare
    stubApi({ [`GET ${AUDIT_PATH}`]: { status: 200, body: { audit: audit(), result: result(2, { is_premium: true, plan_type: 'pro' }) } } });

    // Act
    const premium = renderResults();
    await advance();
    const banner = screen.queryByRole('heading', { name: 'Premium report' });
    premium.unmount();
    stubApi({ [`GET ${AUDIT_PATH}`]: { status: 200, body: { audit: audit(), result: result(2) } } });
    renderResults();
    await advance();

    // Assess
    expect(banner).not.toBeNull();
    expect(screen.queryByRole('heading', { name: 'Premium report' })).toBeNull();
    expect(offer()).not.toBeNull();
  });
});

describe('the paid audit offer follows what the signed-in viewer already has (issue 29 item 3)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("tells a Monitor Plus subscriber what the audit adds to their plan, never 'This free report'", async () => {
    // Prepare
    stubApi({
      [`GET ${AUDIT_PATH}`]: { status: 200, body: { audit: audit(), result: result(9) } },
      'GET /api/me': me({ tier: 'monitor_plus', status: 'active', billingPeriod: 'monthly', scansLimit: 100, scansUsed: 4, price: 99 }),
    });

    // Act
    renderResults({ status: 'signed-in' });
    await advance();
    await advance(1_000); // the offer asks GET /api/me once the report is in

    // Assess
    expect(within(offer()!).getByRole('heading', { level: 2 }).nextElementSibling?.textContent).toBe(
      'This report found 9 issues. A paid audit scans this site in depth and tells you how to fix what it finds. Your Monitor Plus plan scans the 100 most common ports of the site itself; a paid audit adds the deep scan below, and your subscriber discount is applied at checkout.',
    );
    expect(offer()?.textContent).not.toContain('free report');
  });

  it('offers nothing to a viewer with scan-pack scans left: their own scan already goes deep', async () => {
    // Prepare: the trial's 3 scans and a 5-Scan Pack, 2 used.
    stubApi({
      [`GET ${AUDIT_PATH}`]: { status: 200, body: { audit: audit(), result: result(9) } },
      'GET /api/me': me({ scansLimit: 8, scansUsed: 2 }),
    });

    // Act
    renderResults({ status: 'signed-in' });
    await advance();
    await advance(1_000); // the offer asks GET /api/me once the report is in

    // Assess
    expect(screen.getByText('Security score')).toBeTruthy();
    expect(offer()).toBeNull();
  });

  it("offers a trial viewer the audit as 'This report', with the subscriber discount line", async () => {
    // Prepare
    stubApi({ [`GET ${AUDIT_PATH}`]: { status: 200, body: { audit: audit(), result: result(2) } }, 'GET /api/me': me() });

    // Act
    renderResults({ status: 'signed-in' });
    await advance();
    await advance(1_000); // the offer asks GET /api/me once the report is in

    // Assess
    expect(within(offer()!).getByRole('heading', { level: 2 }).nextElementSibling?.textContent).toBe(
      'This report found 2 issues. A paid audit scans this site in depth and tells you how to fix what it finds. Subscribers get automatic discounts on audits, applied at checkout.',
    );
  });

  it("calls a monitoring re-scan what it is for a Monitor Lite subscriber", async () => {
    // Prepare
    stubApi({
      [`GET ${AUDIT_PATH}`]: { status: 200, body: { audit: audit({ origin: 'monitoring' }), result: result(3) } },
      'GET /api/me': me({ tier: 'monitor_lite', status: 'active', billingPeriod: 'monthly', scansLimit: 30, price: 49 }),
    });

    // Act
    renderResults({ status: 'signed-in' });
    await advance();
    await advance(1_000); // the offer asks GET /api/me once the report is in

    // Assess
    expect(offer()?.textContent).toContain('This monitoring re-scan found 3 issues.');
  });
});
