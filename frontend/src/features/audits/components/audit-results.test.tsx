import { fireEvent, screen, within } from '@testing-library/react';
import type { ReactElement } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Audit, AuditResultView, PortScanResultView, VulnerabilityView } from '../../../lib/contracts';
import { setAccessTokenSource } from '../../../lib/api-client';
import { advance, renderWithProviders, stubApi } from '../../../testing/api-stub';
import { AuthTestProvider } from '../../auth/auth-provider';
import { AuditResults } from './audit-results';

const ID = '0b3c5d2e-7f41-4a8b-9c1d-2e3f4a5b6c7d';

/** The paid audit offer on the report reads who is signed in. */
const renderResults = (ui: ReactElement) => renderWithProviders(<AuthTestProvider value={{ status: 'signed-out' }}>{ui}</AuthTestProvider>);

const audit: Audit = {
  id: ID,
  targetUrl: 'https://shop.example.test/',
  host: 'shop.example.test',
  status: 'completed',
  createdAt: '2026-01-01T00:00:00.000Z',
  completedAt: '2026-01-01T00:00:20.000Z',
  score: 40,
  grade: 'F',
  riskLevel: 'high',
  checks: [{ name: 'dns', status: 'ok', findings: [], data: { ipv4: ['203.0.113.10'] } }],
};

const vulnerability = (n: number, extra: Partial<VulnerabilityView> = {}): VulnerabilityView => ({
  id: `finding.${n}`,
  title: `Finding number ${n}`,
  severity: 'medium',
  category: 'Web Security',
  description: `Why finding ${n} matters`,
  recommendation: `How to fix finding ${n}`,
  ...extra,
});

const port = (n: number): PortScanResultView => ({ port_number: 8000 + n, service_name: 'http-alt', port_status: 'open', risk_level: 'low' });

const result: AuditResultView = {
  id: ID,
  target_url: audit.targetUrl,
  audit_status: 'completed',
  error_message: null,
  scan_mode: 'active',
  coverage: { mode: 'active', allowedMode: 'active', partial: false, notChecked: [] },
  created_at: audit.createdAt,
  completed_at: audit.completedAt!,
  risk_level: 'high',
  dns_results: { status: 'completed', subdomainsFound: 12, totalSubdomains: 12, activeSubdomains: 9, completedAt: audit.completedAt! },
  port_scan_results: Array.from({ length: 10 }, (_, i) => port(i)),
  vulnerability_summary: {
    vulnerabilities: [
      vulnerability(1, {
        severity: 'critical',
        title: 'Apache httpd 2.4.49 has known vulnerabilities',
        evidence: 'Server: Apache/2.4.49',
        cvssScore: 9.8,
        cves: ['CVE-2021-41773', 'CVE-2021-42013'],
      }),
      ...Array.from({ length: 6 }, (_, i) => vulnerability(i + 2)),
    ],
    totalIssues: 7,
    criticalIssues: 1,
    subdomainsScanned: 12,
    riskFactors: ['Software: 1 issue (1 critical)', 'Web Security: 6 issues (6 medium)'],
    overallRisk: 'high',
    recommendations: [
      { priority: 'immediate', title: 'Update Apache', action: 'Upgrade to 2.4.62 or later.' },
      { priority: 'long-term', title: 'Scan regularly', action: 'Every month.' },
    ],
  },
  host: audit.host,
  business_name: 'Example Shop',
  risk_score: 40,
  grade: 'F',
  counters: { totalIssues: 7, criticalIssues: 1, openPorts: 10, subdomains: 12 },
  finding_counts: { critical: 1, high: 0, medium: 6, low: 0, info: 0 },
  observations: [],
  grades: { tls: null, httpObservatory: null },
  breaches: { status: 'not-configured', checked: null, breached: null },
  technologies: [
    {
      name: 'Apache httpd',
      version: '2.4.49',
      category: 'web server',
      knownVulnerabilities: 2,
      cves: [
        { id: 'CVE-2021-41773', cvssScore: 7.5, exploited: true },
        { id: 'CVE-2021-42013', cvssScore: 9.8, exploited: false },
      ],
    },
  ],
  tls: { status: 'completed', grade: null, ports: [], hsts: null, httpsRedirect: null },
  email_security: { status: 'completed', domain: null, spf: null, dmarc: null, dkim: { selectorsFound: [] }, mx: [] },
  network: { status: 'completed', address: null, portsScanned: 100, closed: 90, filtered: 0, firewall: null },
};

const SHARE = {
  shareToken: 'AbCdEfGhIjKlMnOpQrStUv',
  url: 'http://localhost/share/AbCdEfGhIjKlMnOpQrStUv',
  expiresAt: '2026-01-02T00:00:20.000Z',
  maxUses: 100,
};

describe('the results page', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    setAccessTokenSource(async () => undefined);
  });

  it('shows score and grade in their colours, the four counters and the first 5 issues, then all', async () => {
    // Prepare
    stubApi({ [`GET /api/audits/${ID}`]: { status: 200, body: { audit, result } } });
    renderResults(<AuditResults auditId={ID} />);
    await advance();
    const list = () => within(screen.getByRole('region', { name: /^Issues to fix/ })).getAllByRole('listitem');

    // Act
    const before = list().length;
    fireEvent.click(screen.getByRole('button', { name: 'Show all 7 issues' }));
    const after = list().length;

    // Assess
    expect(screen.getByTestId('risk-score').className).toContain('text-red-700');
    expect(screen.getByTestId('grade').className).toContain('text-red-700');
    expect(screen.getByTestId('risk-banner').textContent).toContain('HIGH RISK');
    const summary = screen.getByRole('region', { name: 'Summary' });
    const counters = within(summary).getAllByRole('term').map((term) => [term.textContent, term.nextElementSibling?.textContent]);
    expect(counters).toEqual([
      ['Total Issues', '7'],
      ['Critical Issues', '1'],
      ['Open Ports', '10'],
      ['Subdomains', '12'],
    ]);
    expect([before, after]).toEqual([5, 7]);
  });

  it('opens a vulnerability to its evidence, why it matters, how to fix it and its CVEs with CVSS and exploitation', async () => {
    // Prepare
    stubApi({ [`GET /api/audits/${ID}`]: { status: 200, body: { audit, result } } });
    renderResults(<AuditResults auditId={ID} />);
    await advance();
    const toggle = screen.getByRole('button', { name: /Apache httpd 2.4.49 has known vulnerabilities/ });

    // Act
    const closedHidden = (document.getElementById(toggle.getAttribute('aria-controls')!) as HTMLElement).hidden;
    fireEvent.click(toggle);
    const panel = document.getElementById(toggle.getAttribute('aria-controls')!) as HTMLElement;

    // Assess
    expect(closedHidden).toBe(true);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(panel.hidden).toBe(false);
    expect(panel.textContent).toContain('Server: Apache/2.4.49');
    expect(panel.textContent).toContain('Why it matters');
    expect(panel.textContent).toContain('How to fix');
    const cves = within(panel).getAllByRole('listitem').map((item) => item.textContent);
    expect(cves).toEqual(['CVE-2021-41773 · CVSS 7.5Exploited in the wild', 'CVE-2021-42013 · CVSS 9.8']);
  });

  it('lists the first 8 open ports, an honest breaches card, the subdomain counts and the recommendations', async () => {
    // Prepare
    stubApi({ [`GET /api/audits/${ID}`]: { status: 200, body: { audit, result } } });
    renderResults(<AuditResults auditId={ID} />);
    await advance();
    const ports = screen.getByRole('region', { name: 'Open Ports' });

    // Act
    const shown = within(ports).getAllByRole('listitem').length;
    fireEvent.click(within(ports).getByRole('button', { name: 'Show all 10 open ports' }));

    // Assess
    expect(shown).toBe(8);
    expect(within(ports).getAllByRole('listitem')).toHaveLength(10);
    expect(screen.getByRole('region', { name: 'Password Breaches' }).textContent).toContain('not configured');
    expect(screen.getByRole('region', { name: 'Password Breaches' }).textContent).not.toMatch(/\d/);
    expect(screen.getByRole('region', { name: 'Subdomains' }).textContent).toContain('12');
    expect(screen.getByText('Update Apache')).toBeTruthy();
    expect(screen.getByText('Scan regularly')).toBeTruthy();
  });

  it("shows the empty states 'No vulnerabilities detected' and 'No concerning open ports detected'", async () => {
    // Prepare
    const clean = {
      ...result,
      port_scan_results: [],
      counters: { ...result.counters, totalIssues: 0, criticalIssues: 0, openPorts: 0 },
      vulnerability_summary: { ...result.vulnerability_summary, vulnerabilities: [] },
    };
    stubApi({ [`GET /api/audits/${ID}`]: { status: 200, body: { audit, result: clean } } });

    // Act
    renderResults(<AuditResults auditId={ID} />);
    await advance();

    // Assess
    expect(screen.getByText('No vulnerabilities detected')).toBeTruthy();
    expect(screen.getByText('No concerning open ports detected')).toBeTruthy();
  });

  it("creates a share link and says 'Copied to clipboard!' for 2 s after copying it", async () => {
    // Prepare
    const api = stubApi({
      [`GET /api/audits/${ID}`]: { status: 200, body: { audit, result } },
      [`POST /api/audits/${ID}/shares`]: { status: 201, body: SHARE },
    });
    const writeText = vi.fn(async () => {});
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    renderResults(<AuditResults auditId={ID} />);
    await advance();

    // Act
    fireEvent.click(screen.getByRole('button', { name: 'Share Report' }));
    await advance();
    const link = (screen.getByLabelText('Share link') as HTMLInputElement).value;
    fireEvent.click(screen.getByRole('button', { name: 'Copy Link' }));
    await advance();
    const copied = screen.queryByText('Copied to clipboard!') !== null;
    await advance(1_999);
    const stillCopied = screen.queryByText('Copied to clipboard!') !== null;
    await advance(1);

    // Assess
    expect(api.callsTo('POST', `/api/audits/${ID}/shares`)).toHaveLength(1);
    expect(link).toBe(SHARE.url);
    expect(writeText).toHaveBeenCalledWith(SHARE.url);
    expect([copied, stillCopied]).toEqual([true, true]);
    expect(screen.queryByText('Copied to clipboard!')).toBeNull();
  });

  it("sends the session's token with the share request when signed in, so the owner's link may email the report", async () => {
    // Prepare
    stubApi({
      [`GET /api/audits/${ID}`]: { status: 200, body: { audit, result } },
      [`POST /api/audits/${ID}/shares`]: { status: 201, body: SHARE },
    });
    setAccessTokenSource(async () => 'id-token');
    renderResults(<AuditResults auditId={ID} />);
    await advance();

    // Act
    fireEvent.click(screen.getByRole('button', { name: 'Share Report' }));
    await advance();

    // Assess
    const sent = vi.mocked(fetch).mock.calls.filter(([url, init]) => String(url).endsWith(`/api/audits/${ID}/shares`) && init?.method === 'POST');
    expect(sent.map(([, init]) => (init?.headers as Record<string, string>).authorization)).toEqual(['Bearer id-token']);
  });

  it('offers the PDF in every mode but hides the share and dashboard controls when shared=true', async () => {
    // Prepare
    stubApi({ [`GET /api/audits/${ID}`]: { status: 200, body: { audit, result } } });

    // Act
    renderResults(<AuditResults auditId={ID} mode="shared" />);
    await advance();

    // Assess
    expect(screen.getByRole('link', { name: 'Download PDF Report' }).getAttribute('href')).toBe(`/reports/${ID}.pdf`);
    expect(screen.queryByRole('button', { name: /Share/ })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Back to Dashboard' })).toBeNull();
  });

  it("says who requested the report when the API gives the owner's leads block, and nothing of the kind without it", async () => {
    // Prepare
    const leads = { first_name: 'Ada', last_name: 'Lovelace', business_name: 'Example Shop', web_url: audit.targetUrl, email: 'ada@shop.example.test' };
    stubApi({ [`GET /api/audits/${ID}`]: { status: 200, body: { audit, result: { ...result, leads } } } });

    // Act
    const owner = renderResults(<AuditResults auditId={ID} />);
    await advance();

    // Assess
    const requestedBy = screen.getByTestId('audit-requested-by');
    expect([requestedBy.querySelector('dt')?.textContent, requestedBy.querySelector('dd')?.textContent]).toEqual(['Requested by', 'Ada Lovelace (ada@shop.example.test)']);
    owner.unmount();

    // Act: the public view of the same audit
    stubApi({ [`GET /api/audits/${ID}`]: { status: 200, body: { audit, result } } });
    renderResults(<AuditResults auditId={ID} />);
    await advance();

    // Assess
    expect(screen.getByText('Example Shop')).toBeTruthy();
    expect(screen.queryByTestId('audit-requested-by')).toBeNull();
    expect(screen.queryByText(/Requested by/)).toBeNull();
  });

  it('offers Email Report to the owner (the API gave the leads block) and sends the address, but not to anyone else', async () => {
    // Prepare
    const leads = { first_name: 'Ada', last_name: 'Lovelace', business_name: 'Example Shop', web_url: audit.targetUrl, email: 'ada@shop.example.test' };
    const api = stubApi({
      [`GET /api/audits/${ID}`]: { status: 200, body: { audit, result: { ...result, leads } } },
      [`POST /api/audits/${ID}/email`]: { status: 200, body: { sent: true, email: 'cfo@example.test', message: 'The report was sent to cfo@example.test.' } },
    });
    const owner = renderResults(<AuditResults auditId={ID} />);
    await advance();

    // Act
    fireEvent.click(screen.getByRole('button', { name: 'Email Report' }));
    // The dialog is its own chunk, loaded on this first click.
    await advance();
    const dialog = screen.getByRole('dialog', { name: 'Email Report' });
    fireEvent.change(within(dialog).getByLabelText('Email address'), { target: { value: 'cfo@example.test' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send Report' }));
    await advance();
    const answer = within(dialog).getByRole('status').textContent;
    owner.unmount();

    // Assess: the owner's request carries no share token (the session's token says who asks).
    expect(api.callsTo('POST', `/api/audits/${ID}/email`).map((call) => call.body)).toEqual([{ email: 'cfo@example.test' }]);
    expect(answer).toBe('The report was sent to cfo@example.test.');

    // Act: the public view of the same audit, and the owner's in the read-only mode
    stubApi({ [`GET /api/audits/${ID}`]: { status: 200, body: { audit, result } } });
    const stranger = renderResults(<AuditResults auditId={ID} />);
    await advance();
    const strangerSees = screen.queryByRole('button', { name: 'Email Report' });
    stranger.unmount();
    stubApi({ [`GET /api/audits/${ID}`]: { status: 200, body: { audit, result: { ...result, leads } } } });
    renderResults(<AuditResults auditId={ID} mode="shared" />);
    await advance();

    // Assess
    expect(strangerSees).toBeNull();
    expect(screen.queryByRole('button', { name: 'Email Report' })).toBeNull();
  });

  it("shows 'No Audit Data' for a completed audit without a report", async () => {
    // Prepare
    stubApi({ [`GET /api/audits/${ID}`]: { status: 200, body: { audit } } });

    // Act
    renderResults(<AuditResults auditId={ID} />);
    await advance();

    // Assess
    expect(screen.getByRole('heading', { name: 'No Audit Data' })).toBeTruthy();
  });

  it("shows 'Audit not found' for a 404 and 'Failed to load audit results' with Try Again otherwise", async () => {
    // Prepare
    stubApi({ [`GET /api/audits/${ID}`]: { status: 404, body: { error: 'audit_not_found', message: 'Audit not found' } } });
    const first = renderResults(<AuditResults auditId={ID} />);
    await advance();
    const notFound = screen.queryByRole('heading', { name: 'Audit not found' }) !== null;
    first.unmount();
    stubApi({ [`GET /api/audits/${ID}`]: { status: 500, body: { error: 'internal_error', message: 'Something went wrong on our side. Please try again.' } } });

    // Act
    renderResults(<AuditResults auditId={ID} />);
    await advance();

    // Assess
    expect(notFound).toBe(true);
    expect(screen.getByRole('heading', { name: 'Failed to load audit results' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try Again' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Start New Assessment' }).getAttribute('href')).toBe('/');
  });

  it("says 'Failed to fetch audit results' with the server's message, or 'HTTP {status}' when it gives none", async () => {
    // Prepare
    stubApi({ [`GET /api/audits/${ID}`]: { status: 500, body: { error: 'internal_error', message: 'Something went wrong on our side. Please try again.' } } });
    const first = renderResults(<AuditResults auditId={ID} />);
    await advance();
    const withMessage = screen.getByRole('alert').textContent;
    first.unmount();
    stubApi({ [`GET /api/audits/${ID}`]: { status: 502, body: '<html>Bad gateway</html>' } });

    // Act
    renderResults(<AuditResults auditId={ID} />);
    await advance();
    const paragraphs = Array.from(screen.getByRole('alert').querySelectorAll('p')).map((p) => p.textContent);

    // Assess
    expect(withMessage).toContain('Failed to fetch audit results');
    expect(withMessage).toContain('Something went wrong on our side. Please try again.');
    expect(paragraphs).toEqual(['Failed to fetch audit results', 'HTTP 502']);
  });

  it('colours the score (80+ green, 60 to 79 yellow, below 60 red) and the grade (A green, B blue, C yellow, D orange, F red)', async () => {
    // Prepare
    const cases = [
      { score: 95, grade: 'A', scoreColour: 'text-green-700', gradeColour: 'text-green-700' },
      { score: 80, grade: 'B', scoreColour: 'text-green-700', gradeColour: 'text-blue-700' },
      { score: 79, grade: 'C', scoreColour: 'text-yellow-700', gradeColour: 'text-yellow-700' },
      { score: 60, grade: 'D', scoreColour: 'text-yellow-700', gradeColour: 'text-orange-700' },
      { score: 59, grade: 'F', scoreColour: 'text-red-700', gradeColour: 'text-red-700' },
    ] as const;
    const seen: { score: string | null; grade: string | null; scoreColour: boolean; gradeColour: boolean }[] = [];

    // Act
    for (const { score, grade, scoreColour, gradeColour } of cases) {
      stubApi({ [`GET /api/audits/${ID}`]: { status: 200, body: { audit: { ...audit, score, grade }, result: { ...result, risk_score: score, grade } } } });
      const view = renderResults(<AuditResults auditId={ID} />);
      await advance();
      const scoreEl = screen.getByTestId('risk-score');
      const gradeEl = screen.getByTestId('grade');
      seen.push({
        score: scoreEl.firstChild?.textContent ?? null,
        grade: gradeEl.textContent,
        scoreColour: scoreEl.className.includes(scoreColour),
        gradeColour: gradeEl.className.includes(gradeColour),
      });
      view.unmount();
    }

    // Assess
    expect(seen).toEqual(cases.map(({ score, grade }) => ({ score: String(score), grade, scoreColour: true, gradeColour: true })));
  });
});
