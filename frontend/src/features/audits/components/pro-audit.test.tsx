import { fireEvent, screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { freeRescanMessages, type Audit, type AuditResultView, type BillingView, type RemediationPlanView } from '../../../lib/contracts';
import { advance, renderWithProviders, stubApi } from '../../../testing/api-stub';
import { AuthTestProvider, type AuthStatus } from '../../auth/auth-provider';
import { AuditResults, type ResultsMode } from './audit-results';

const ID = '0b3c5d2e-7f41-4a8b-9c1d-2e3f4a5b6c7d';
const AUDIT_PATH = `/api/audits/${ID}`;
const RESCAN_PATH = `/api/audits/${ID}/rescans`;
const BILLING_PATH = '/api/me/billing';
const NOW = new Date('2026-01-10T00:00:00.000Z');

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
  isPremium: true,
  planType: 'pro',
  depth: 'deep',
  ...extra,
});

const plan: RemediationPlanView = {
  webServer: 'nginx',
  items: [
    {
      findingId: 'ports.database.exposed',
      title: 'Database is open to the internet',
      severity: 'high',
      category: 'Network Security',
      whyItMatters: 'A database reachable from the internet can be attacked directly.',
      steps: [
        { text: 'Find what listens on 3306 on the server:', examples: [{ label: 'Shell', code: "sudo ss -tlnp | grep -E ':(3306)\\b'" }] },
        { text: 'Block the port at the firewall:', examples: [{ label: 'ufw', code: 'sudo ufw deny 3306/tcp' }] },
      ],
      verify: { text: 'From a network outside yours the port does not answer.', command: 'nc -zv -w 5 shop.example.test 3306' },
      effort: 'moderate',
    },
    {
      findingId: 'tls.hsts.missing',
      title: 'HSTS is not enabled',
      severity: 'medium',
      category: 'SSL/TLS',
      whyItMatters: 'Visitors can be intercepted before reaching HTTPS.',
      steps: [
        { text: 'Send the header, first with a five-minute `max-age`:', examples: [{ label: 'nginx', code: 'add_header Strict-Transport-Security "max-age=300" always;' }] },
        { text: 'Check the configuration and reload the web server.' },
        { text: 'Raise it to one year.' },
      ],
      verify: { text: 'https://shop.example.test/ answers with Strict-Transport-Security.' },
      effort: 'quick',
    },
  ],
};

function result(extra: Partial<AuditResultView> = {}): AuditResultView {
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
    vulnerability_summary: { vulnerabilities: [], totalIssues: 2, criticalIssues: 0, subdomainsScanned: 0, riskFactors: [], overallRisk: 'medium', recommendations: [] },
    host: 'shop.example.test',
    business_name: null,
    risk_score: 70,
    grade: 'C',
    counters: { totalIssues: 2, criticalIssues: 0, openPorts: 0, subdomains: 0 },
    finding_counts: { critical: 0, high: 1, medium: 1, low: 0, info: 0 },
    observations: [],
    grades: { tls: null, httpObservatory: null },
    breaches: { status: 'not-configured', checked: null, breached: null },
    technologies: [],
    tls: { status: 'completed', grade: null, ports: [], hsts: null, httpsRedirect: null },
    email_security: { status: 'completed', domain: null, spf: null, dmarc: null, dkim: { selectorsFound: [] }, mx: [] },
    network: { status: 'completed', address: null, portsScanned: 1000, closed: 1000, filtered: 0, firewall: null },
    is_premium: true,
    plan_type: 'pro',
    scan_depth: 'deep',
    remediation_plan: plan,
    free_rescan: { availableUntil: '2026-01-31T00:00:00.000Z', usedAt: null },
    ...extra,
  };
}

const billing = (orders: { auditId: string; planId: 'pro-audit' | 'basic-audit' }[]): BillingView =>
  ({
    subscription: {},
    invoices: [],
    orders: orders.map((order, i) => ({
      orderId: `cs_local_${i}`,
      checkoutSessionId: `cs_local_${i}`,
      planName: order.planId === 'pro-audit' ? 'Pro Audit' : 'Basic Audit',
      amountTotal: 39_900,
      currency: 'aud',
      orderDate: '2026-01-01T00:00:00.000Z',
      status: 'paid',
      receiptUrl: `/api/orders/cs_local_${i}/receipt.pdf`,
      ...order,
    })),
    canManageBilling: true,
    subscriberAuditDiscountPercent: 20,
  }) as unknown as BillingView;

const ownersBilling = billing([{ auditId: ID, planId: 'pro-audit' }]);

function renderResults({ mode = 'public', status = 'signed-in' }: { mode?: ResultsMode; status?: AuthStatus } = {}) {
  return renderWithProviders(
    <AuthTestProvider value={{ status }}>
      <Routes>
        <Route path="/results/:auditId" element={<AuditResults auditId={ID} mode={mode} />} />
      </Routes>
    </AuthTestProvider>,
    { route: `/results/${ID}` },
  );
}

const rescanPanel = () => screen.queryByTestId('free-rescan');

/**
 * The panel's purchase check starts once the report has arrived, inside the fake clock's tick, and
 * fake-timers puts a 0 ms timer set during a tick 1 ms ahead: React Query's notification of its answer
 * needs the clock to move.
 */
const settle = () => advance(1);

describe('the Pro Audit on the results page', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(NOW);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  describe('remediation plan', () => {
    it('lists every finding in the plan’s order, each closed until opened', async () => {
      // Prepare
      stubApi({ [`GET ${AUDIT_PATH}`]: { status: 200, body: { audit: audit(), result: result() } }, [`GET ${BILLING_PATH}`]: { status: 200, body: ownersBilling } });

      // Act
      renderResults();
      await settle();

      // Assess
      const section = within(screen.getByRole('region', { name: 'Remediation plan' }));
      expect(section.getByText('What to do about each issue, worst first. Configuration examples are for nginx, the web server this scan saw.')).toBeTruthy();
      const buttons = section.getAllByRole('button');
      expect(buttons.map((b) => b.textContent)).toEqual(['1.highDatabase is open to the internetNetwork Security · Moderate▾', '2.mediumHSTS is not enabledSSL/TLS · Quick▾']);
      expect(buttons.every((b) => b.getAttribute('aria-expanded') === 'false')).toBe(true);
      expect(section.queryByRole('list', { name: 'Steps for HSTS is not enabled' })).toBeNull();
    });

    it('opens a finding to why it matters, its numbered steps with configuration, how to verify and the effort', async () => {
      // Prepare
      stubApi({ [`GET ${AUDIT_PATH}`]: { status: 200, body: { audit: audit(), result: result() } }, [`GET ${BILLING_PATH}`]: { status: 200, body: ownersBilling } });
      renderResults();
      await settle();
      const section = within(screen.getByRole('region', { name: 'Remediation plan' }));

      // Act
      fireEvent.click(section.getByRole('button', { name: /HSTS is not enabled/ }));

      // Assess
      expect(section.getByRole('button', { name: /HSTS is not enabled/ }).getAttribute('aria-expanded')).toBe('true');
      const steps = section.getByRole('list', { name: 'Steps for HSTS is not enabled' });
      expect(steps.tagName).toBe('OL');
      expect(within(steps).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
        'Send the header, first with a five-minute max-age:nginxadd_header Strict-Transport-Security "max-age=300" always;',
        'Check the configuration and reload the web server.',
        'Raise it to one year.',
      ]);
      expect(within(steps).getByText('max-age').tagName).toBe('CODE');
      expect(section.getByText('Visitors can be intercepted before reaching HTTPS.')).toBeTruthy();
      expect(section.getByText('https://shop.example.test/ answers with Strict-Transport-Security.')).toBeTruthy();
      expect(section.getByText('Quick: under an hour')).toBeTruthy();
      // The other finding stays closed.
      expect(section.queryByRole('list', { name: 'Steps for Database is open to the internet' })).toBeNull();
    });

    it('is shown on the shared (read-only) view too, without the re-scan', async () => {
      const api = stubApi({ [`GET ${AUDIT_PATH}`]: { status: 200, body: { audit: audit(), result: result() } }, [`GET ${BILLING_PATH}`]: { status: 200, body: ownersBilling } });
      renderResults({ mode: 'shared' });
      await settle();
      expect(screen.getByRole('region', { name: 'Remediation plan' })).toBeTruthy();
      expect(rescanPanel()).toBeNull();
      expect(api.callsTo('GET', BILLING_PATH)).toHaveLength(0);
    });

    it('is not on a Basic Audit, which has neither the plan nor the re-scan', async () => {
      const api = stubApi({
        [`GET ${AUDIT_PATH}`]: { status: 200, body: { audit: audit({ planType: 'basic' }), result: result({ plan_type: 'basic', remediation_plan: undefined, free_rescan: undefined }) } },
        [`GET ${BILLING_PATH}`]: { status: 200, body: billing([{ auditId: ID, planId: 'basic-audit' }]) },
      });
      renderResults();
      await settle();
      expect(screen.queryByRole('region', { name: 'Remediation plan' })).toBeNull();
      expect(rescanPanel()).toBeNull();
      expect(api.callsTo('GET', BILLING_PATH)).toHaveLength(0);
    });
  });

  describe('re-scan to confirm fixes', () => {
    it('lets the buyer start the free re-scan, then shows the scan’s progress', async () => {
      // Prepare
      const api = stubApi({
        [`GET ${AUDIT_PATH}`]: [
          { status: 200, body: { audit: audit(), result: result() } },
          { status: 200, body: { audit: audit({ status: 'queued' }), result: result({ audit_status: 'queued', free_rescan: { availableUntil: '2026-01-31T00:00:00.000Z', usedAt: NOW.toISOString() } }) } },
        ],
        [`GET ${BILLING_PATH}`]: { status: 200, body: ownersBilling },
        [`POST ${RESCAN_PATH}`]: { status: 202, body: { auditId: ID, status: 'queued', scanDepth: 'deep', freeRescanUsedAt: NOW.toISOString(), message: freeRescanMessages.started } },
      });
      renderResults();
      await settle();
      const panel = within(screen.getByRole('region', { name: 'Re-scan to confirm fixes' }));
      expect(panel.getByText(/Your Pro Audit includes one free re-scan until 31 Jan 2026/)).toBeTruthy();

      // Act
      fireEvent.click(panel.getByRole('button', { name: 'Re-scan to confirm fixes' }));
      await settle();

      // Assess
      expect(api.callsTo('POST', RESCAN_PATH)).toHaveLength(1);
      expect(api.callsTo('GET', AUDIT_PATH)).toHaveLength(2);
      expect(screen.getByRole('heading', { name: 'Scanning shop.example.test' })).toBeTruthy();
      expect(screen.getByRole('region', { name: 'Premium report' }).textContent).toContain('The free re-scan is running now');
      expect(rescanPanel()).toBeNull();
    });

    it('says so once the free re-scan has been used, with no button', async () => {
      stubApi({
        [`GET ${AUDIT_PATH}`]: { status: 200, body: { audit: audit({ freeRescanUsedAt: '2026-01-05T03:00:00.000Z' }), result: result({ free_rescan: { availableUntil: '2026-01-31T00:00:00.000Z', usedAt: '2026-01-05T03:00:00.000Z' } }) } },
        [`GET ${BILLING_PATH}`]: { status: 200, body: ownersBilling },
      });
      renderResults();
      await settle();
      const panel = within(screen.getByRole('region', { name: 'Re-scan to confirm fixes' }));
      expect(panel.getByText(/You have used the free re-scan included with this Pro Audit \(started 5 Jan 2026/)).toBeTruthy();
      expect(panel.queryByRole('button')).toBeNull();
    });

    it('says until when it was available once the 30 days are over', async () => {
      vi.setSystemTime(new Date('2026-02-01T00:00:00.000Z'));
      stubApi({ [`GET ${AUDIT_PATH}`]: { status: 200, body: { audit: audit(), result: result() } }, [`GET ${BILLING_PATH}`]: { status: 200, body: ownersBilling } });
      renderResults();
      await settle();
      const panel = within(screen.getByRole('region', { name: 'Re-scan to confirm fixes' }));
      expect(panel.getByText(/was available until 31 Jan 2026/)).toBeTruthy();
      expect(panel.queryByRole('button')).toBeNull();
    });

    it("shows the API's reason when the re-scan is refused, and keeps the report", async () => {
      stubApi({
        [`GET ${AUDIT_PATH}`]: { status: 200, body: { audit: audit(), result: result() } },
        [`GET ${BILLING_PATH}`]: { status: 200, body: ownersBilling },
        [`POST ${RESCAN_PATH}`]: { status: 409, body: { error: 'free_rescan_used', message: freeRescanMessages.used } },
      });
      renderResults();
      await settle();
      fireEvent.click(screen.getByRole('button', { name: 'Re-scan to confirm fixes' }));
      await settle();
      expect(screen.getByRole('alert').textContent).toBe(freeRescanMessages.used);
      expect(screen.getByRole('region', { name: 'Remediation plan' })).toBeTruthy();
    });

    it.each<[string, AuthStatus, BillingView | undefined]>([
      ['signed out (no billing asked)', 'signed-out', undefined],
      ["signed in as someone who did not buy this report's Pro Audit", 'signed-in', billing([{ auditId: 'another-audit', planId: 'pro-audit' }])],
      ['signed in, but only a Basic Audit of this report bought', 'signed-in', billing([{ auditId: ID, planId: 'basic-audit' }])],
    ])('is hidden from a reader %s', async (_, status, answer) => {
      const api = stubApi({
        [`GET ${AUDIT_PATH}`]: { status: 200, body: { audit: audit(), result: result() } },
        ...(answer ? { [`GET ${BILLING_PATH}`]: { status: 200, body: answer } } : {}),
      });
      renderResults({ status });
      await settle();
      expect(screen.getByRole('region', { name: 'Remediation plan' })).toBeTruthy();
      expect(rescanPanel()).toBeNull();
      expect(api.callsTo('GET', BILLING_PATH)).toHaveLength(answer ? 1 : 0);
    });
  });
});
