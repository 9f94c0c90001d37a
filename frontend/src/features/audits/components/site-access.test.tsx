import { screen, within } from '@testing-library/react';
import type { ReactElement } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Audit, AuditResultView, CheckResult, GradeCap, SiteAccessView } from '../../../lib/contracts';
import { setAccessTokenSource } from '../../../lib/api-client';
import { advance, renderWithProviders, stubApi } from '../../../testing/api-stub';
import { AuthTestProvider } from '../../auth/auth-provider';
import { AuditResults } from './audit-results';
import { SharedReport } from './shared-report';

const ID = '0b3c5d2e-7f41-4a8b-9c1d-2e3f4a5b6c7d';
const TOKEN = 'AbCdEfGhIjKlMnOpQrStUv';
const renderResults = (ui: ReactElement) => renderWithProviders(<AuthTestProvider value={{ status: 'signed-out' }}>{ui}</AuthTestProvider>);

// A report whose site answered every page request with Cloudflare's managed challenge, as the API
// sends it (lambdas/domain/site-access-view.ts): the page-reading checks skipped with cause blocked.
const block = {
  kind: 'challenge',
  vendor: 'cloudflare',
  vendorName: 'Cloudflare',
  status: 403,
  url: 'https://shop.example.test/',
  reason: "Cloudflare answered the scanner with a bot challenge (403, cf-mitigated: challenge) instead of the site's page.",
};
const keptOut = ['exposure', 'http', 'software', 'wordpress'];
const titles: Record<string, string> = { exposure: 'Exposed files', http: 'HTTP security headers', software: 'Software and known vulnerabilities', wordpress: 'WordPress' };
const checks: CheckResult[] = [
  { name: 'dns', status: 'ok', findings: [], data: {} },
  { name: 'tls', status: 'ok', findings: [], data: {} },
  ...keptOut.map((name): CheckResult => ({ name, status: 'skipped', cause: 'blocked', reason: block.reason, findings: [], data: { blocked: block } })),
];
const siteAccess: SiteAccessView = {
  blocked: true,
  ...block,
  retryAfterSeconds: null,
  headline: 'We could not see your site: Cloudflare’s bot protection answered our scanner with a challenge (403) instead of the site.',
  checks: keptOut.map((check) => ({ check, title: titles[check]!, cause: 'blocked' as const })),
  guide: {
    title: 'Let the Rampart scanner in through Cloudflare',
    steps: [
      'Log in to the Cloudflare dashboard (dash.cloudflare.com) and select the domain.',
      'Name it "Allow Rampart scanner". Under "When incoming requests match", choose Field: User Agent, Operator: contains, Value: RampartScanner.',
      'Run the scan again. The report then grades your site itself instead of the page that stopped the scanner.',
    ],
  },
};
const partialCap: GradeCap = { id: 'partial', limit: 89, reason: 'Not everything was checked, and a partial report never gets an A: it cannot look better because less was checked.' };

const audit: Audit = {
  id: ID,
  targetUrl: 'https://shop.example.test/',
  host: 'shop.example.test',
  status: 'completed',
  createdAt: '2026-01-01T00:00:00.000Z',
  completedAt: '2026-01-01T00:00:20.000Z',
  score: 89,
  grade: 'B',
  riskLevel: 'low',
  gradeCaps: [partialCap],
  checks,
};

const result = {
  id: ID,
  target_url: audit.targetUrl,
  audit_status: 'completed',
  error_message: null,
  created_at: audit.createdAt,
  completed_at: audit.completedAt,
  host: audit.host,
  business_name: null,
  risk_level: 'low',
  risk_score: 89,
  grade: 'B',
  grade_caps: [partialCap],
  site_access: siteAccess,
  scan_mode: 'active',
  coverage: {
    mode: 'active',
    allowedMode: 'active',
    partial: true,
    notChecked: keptOut.map((check) => ({ check, title: titles[check]!, cause: 'blocked' as const, reason: block.reason })),
  },
  dns_results: { status: 'completed', subdomainsFound: 0, totalSubdomains: 0, activeSubdomains: null, completedAt: audit.completedAt! },
  port_scan_results: [],
  vulnerability_summary: { vulnerabilities: [], totalIssues: 0, criticalIssues: 0, subdomainsScanned: 0, riskFactors: [], overallRisk: 'low', recommendations: [] },
  counters: { totalIssues: 0, criticalIssues: 0, openPorts: 0, subdomains: 0 },
  finding_counts: { critical: 0, high: 0, medium: 0, low: 0, info: 0 },
  observations: [],
  grades: { tls: 'A', httpObservatory: null },
  breaches: { status: 'not-configured', checked: null, breached: null },
  technologies: [],
  tls: { status: 'completed', grade: 'A', ports: [], hsts: null, httpsRedirect: null },
  email_security: { status: 'completed', domain: null, spf: null, dmarc: null, dkim: { selectorsFound: [] }, mx: [] },
  network: { status: 'completed', address: null, portsScanned: 100, closed: 100, filtered: 0, firewall: null },
} as unknown as AuditResultView;

/** The elements in document order: is `a` before `b`? */
const before = (a: Element, b: Element) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;

describe('a report whose site blocked the scanner', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    setAccessTokenSource(async () => undefined);
  });

  it('says first, in plain words, that we could not see the site, lists what was not checked and numbers the steps to let the scanner in', async () => {
    // Prepare
    stubApi({ [`GET /api/audits/${ID}`]: { status: 200, body: { audit, result } } });

    // Act
    renderResults(<AuditResults auditId={ID} />);
    await advance();

    // Assess
    const panel = screen.getByRole('region', { name: 'We could not see your site' });
    expect(panel.textContent).toContain('We could not see your site: Cloudflare’s bot protection answered our scanner with a challenge (403) instead of the site.');
    expect(before(panel, screen.getByTestId('scan-mode'))).toBe(true);
    expect(before(panel, screen.getByTestId('risk-score'))).toBe(true);
    const kept = within(panel).getByRole('list', { name: 'Checks the site kept out' });
    expect(within(kept).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Exposed files (exposed files and folders): Not checked — the site blocked the scanner',
      'HTTP security headers (security headers and cookies): Not checked — the site blocked the scanner',
      'Software and known vulnerabilities (software versions and their known vulnerabilities): Not checked — the site blocked the scanner',
      'WordPress (WordPress, its plugins and themes): Not checked — the site blocked the scanner',
    ]);
    expect(within(panel).getByRole('heading', { name: 'Let the Rampart scanner in through Cloudflare' })).toBeTruthy();
    const steps = within(panel).getByRole('list', { name: 'To let the scanner in:' });
    expect(steps.tagName).toBe('OL');
    expect(within(steps).getAllByRole('listitem').map((item) => item.textContent)).toEqual(siteAccess.guide!.steps);
    // The guide's last step says to run the scan again: not said twice.
    expect(within(panel).queryByTestId('site-access-again')).toBeNull();
    // The website-hardening card, read from the pages, says it was not checked rather than vanish.
    expect(screen.getByTestId('protections-web').textContent).toBe('Website hardeningNot checked — the site blocked the scanner');
    // The technical table says why each of those checks has no result.
    const row = screen.getByRole('rowheader', { name: 'http' }).closest('tr')!;
    expect(row.textContent).toContain('Not checked — the site blocked the scanner');
  });

  it('still says to run the scan again when the report has no steps for the platform', async () => {
    stubApi({ [`GET /api/audits/${ID}`]: { status: 200, body: { audit, result: { ...result, site_access: { ...siteAccess, guide: null } } } } });
    renderResults(<AuditResults auditId={ID} />);
    await advance();
    const panel = screen.getByRole('region', { name: 'We could not see your site' });
    expect(within(panel).getByTestId('site-access-again').textContent).toBe(
      'Then run the scan again: the report will grade your site itself, not the page that stopped the scanner.',
    );
  });

  it('shows the same on the shared page', async () => {
    vi.setSystemTime(new Date('2026-01-01T10:00:00.000Z'));
    stubApi({ [`GET /api/shared-audits/${TOKEN}`]: { status: 200, body: { success: true, audit: result, expiresAt: '2026-01-02T09:59:00.000Z', message: 'Shared' } } });
    renderWithProviders(<SharedReport shareToken={TOKEN} />);
    await advance();
    const panel = screen.getByRole('region', { name: 'We could not see your site' });
    expect(panel.textContent).toContain('Cloudflare’s bot protection answered our scanner with a challenge');
    expect(within(panel).getAllByRole('listitem').map((item) => item.textContent)).toContain(siteAccess.guide!.steps[0]);
  });

  it('shows nothing of the kind when the scanner saw the site', async () => {
    stubApi({ [`GET /api/audits/${ID}`]: { status: 200, body: { audit, result: { ...result, site_access: null } } } });
    renderResults(<AuditResults auditId={ID} />);
    await advance();
    expect(screen.queryByTestId('site-access')).toBeNull();
  });
});

describe('the grade caps beside the grade', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  const capped = (caps: GradeCap[], score: number, grade: string, partial = false) =>
    ({ ...result, site_access: null, risk_score: score, grade, grade_caps: caps, coverage: { ...result.coverage, partial, notChecked: partial ? result.coverage.notChecked : [] } }) as AuditResultView;

  it('names each cap that held the grade down, with why, lowest first', async () => {
    const caps: GradeCap[] = [
      { id: 'kev', limit: 59, reason: "A vulnerability known to be exploited in attacks (CISA's KEV catalog) is on the site: CVE-2020-11022 (jQuery 1.12.4 has known vulnerabilities)." },
      { id: 'no-https', limit: 69, reason: 'The site has no working HTTPS: port 443 does not answer with TLS.' },
    ];
    stubApi({ [`GET /api/audits/${ID}`]: { status: 200, body: { audit, result: capped(caps, 59, 'F') } } });
    renderResults(<AuditResults auditId={ID} />);
    await advance();
    expect(screen.getByTestId('grade').textContent).toBe('F');
    const list = within(screen.getByTestId('grade-caps'));
    expect(list.getByText('Why the grade stops here')).toBeTruthy();
    expect(list.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      "Grade capped at F (59): A vulnerability known to be exploited in attacks (CISA's KEV catalog) is on the site: CVE-2020-11022 (jQuery 1.12.4 has known vulnerabilities).",
      'Grade capped at D (69): The site has no working HTTPS: port 443 does not answer with TLS.',
    ]);
  });

  it("says the partial cap once: as a cap when it lowered the score, else with the partial report's note", async () => {
    stubApi({ [`GET /api/audits/${ID}`]: { status: 200, body: { audit, result: capped([partialCap], 89, 'B', true) } } });
    const first = renderResults(<AuditResults auditId={ID} />);
    await advance();
    expect(screen.getAllByText(/partial report never gets an A|A partial report’s score stops at 89/)).toHaveLength(1);
    first.unmount();

    stubApi({ [`GET /api/audits/${ID}`]: { status: 200, body: { audit, result: capped([], 75, 'C', true) } } });
    renderResults(<AuditResults auditId={ID} />);
    await advance();
    expect(screen.queryByTestId('grade-caps')).toBeNull();
    expect(screen.getByText('A partial report’s score stops at 89: it never gets an A, so it cannot look better because less was checked.')).toBeTruthy();
  });
});
