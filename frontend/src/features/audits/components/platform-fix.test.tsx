import { fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Audit, AuditResultView, IncludedPlatformGuides, ProvidersView, RemediationPlanView, VulnerabilityView } from '../../../lib/contracts';
import { advance, renderWithProviders, stubApi } from '../../../testing/api-stub';
import { AuthTestProvider } from '../../auth/auth-provider';
import { AuditResults } from './audit-results';
import { ProvidersLine } from './platform-fix';
import { RemediationPlan } from './remediation-plan';
import { VulnerabilitiesList } from './vulnerabilities-list';

const SPF = 'v=spf1 include:_spf.google.com -all';

const providers: ProvidersView = {
  summary: 'Your mail: Google Workspace · DNS: Cloudflare',
  roles: [
    { role: 'mail', label: 'Mail', providers: [{ id: 'google-workspace', name: 'Google Workspace', evidence: ['MX smtp.google.com', 'SPF include:_spf.google.com'] }] },
    { role: 'dns', label: 'DNS', providers: [{ id: 'cloudflare', name: 'Cloudflare', evidence: ['NS adam.ns.cloudflare.com'] }] },
  ],
};

/** What the view carries for a paid audit's soft-failing SPF on Google Workspace mail and Cloudflare DNS. */
const spfGuides: IncludedPlatformGuides = {
  access: 'included',
  topic: 'spf',
  serverConfig: false,
  guides: [
    {
      platform: 'google-workspace',
      platformName: 'Google Workspace',
      role: 'mail',
      kind: 'steps',
      steps: ['Google Workspace sends as your domain once include:_spf.google.com is in the SPF record.'],
      note: 'Add every other service that sends as your domain.',
    },
    {
      platform: 'cloudflare',
      platformName: 'Cloudflare',
      role: 'dns',
      kind: 'steps',
      steps: ['Log in to the Cloudflare dashboard (dash.cloudflare.com) and select example.com.au.', 'Go to DNS → Records.', `Find the TXT record named @ in the list, select Edit, change its value to: ${SPF}; then save.`],
      records: [{ type: 'TXT', name: '@', value: SPF }],
    },
  ],
};

const hstsOnShopify: IncludedPlatformGuides = {
  access: 'included',
  topic: 'hsts',
  serverConfig: false,
  guides: [
    {
      platform: 'shopify',
      platformName: 'Shopify',
      role: 'host',
      kind: 'not-supported',
      statement: 'Shopify does not let you set response headers.',
      steps: ['Shopify already sends HSTS on its own domains; ask Shopify support about yours.'],
      source: { url: 'https://help.shopify.com/', checked: '2026-12-07', status: 'unconfirmed' },
    },
  ],
};

const vulnerability = (id: string, extra: Partial<VulnerabilityView> = {}): VulnerabilityView => ({
  id,
  title: `Title of ${id}`,
  severity: 'medium',
  category: 'Email Security',
  description: `About ${id}`,
  recommendation: `Fix ${id}`,
  ...extra,
});

const open = (title: string) => fireEvent.click(screen.getByRole('button', { name: new RegExp(title) }));

describe('the providers line', () => {
  it('shows the summary near the top and, on request, each role with what it was read from', () => {
    // Act
    render(<ProvidersLine providers={providers} />);

    // Assess
    expect(screen.getByRole('heading', { level: 2, name: 'Where your site and mail run' })).toBeTruthy();
    expect(screen.getByTestId('providers-summary').textContent).toBe('Your mail: Google Workspace · DNS: Cloudflare');
    const evidence = screen.getByRole('group');
    expect(within(evidence).getByText('How we know')).toBeTruthy();
    expect(evidence.textContent).toContain('Google Workspace: MX smtp.google.com; SPF include:_spf.google.com');
    expect(evidence.textContent).toContain('Cloudflare: NS adam.ns.cloudflare.com');
  });

  it('shows nothing for a report where nothing was detected, or one made before detection', () => {
    // Act
    const { container: none } = render(<ProvidersLine providers={null} />);
    const { container: old } = render(<ProvidersLine providers={undefined} />);

    // Assess
    expect(none.innerHTML).toBe('');
    expect(old.innerHTML).toBe('');
  });
});

describe('platform fixes under each finding', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('shows a paid audit "Fix it in <platform>" with numbered steps, the record to copy and the note', async () => {
    // Prepare
    const writeText = vi.fn(async () => {});
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    render(<VulnerabilitiesList vulnerabilities={[vulnerability('email.spf.softfail', { platformGuides: spfGuides })]} technologies={[]} limit={5} />);

    // Act
    open('Title of email.spf.softfail');
    fireEvent.click(screen.getByRole('button', { name: 'Copy the value of the TXT record @' }));
    await advance();

    // Assess: the group is an h3, the finding an h4 under it, each platform's block an h5 under that.
    expect(screen.getByRole('heading', { level: 3 }).textContent).toBe('Fix this month (1)');
    expect(screen.getByRole('heading', { level: 4 }).textContent).toContain('Title of email.spf.softfail');
    expect(screen.getAllByRole('heading', { level: 5 }).map((h) => h.textContent)).toEqual(['Fix it in Google Workspace', 'Fix it in Cloudflare']);
    const cloudflare = screen.getByRole('list', { name: 'Steps in Cloudflare' });
    expect(within(cloudflare).getAllByRole('listitem').map((li) => li.textContent)).toEqual(spfGuides.guides[1]!.steps);
    expect(cloudflare.tagName).toBe('OL');
    expect(screen.getByText(SPF, { selector: 'code' })).toBeTruthy();
    expect(writeText).toHaveBeenCalledWith(SPF);
    expect(screen.getByText('Copied to clipboard!')).toBeTruthy();
    expect(screen.getByText('Add every other service that sends as your domain.').textContent).toBe('Note: Add every other service that sends as your domain.');
    expect(screen.queryByTestId('platform-guides-teaser')).toBeNull();
  });

  it("says where each guide's steps come from and when they were checked, and when no vendor page confirms them", () => {
    // Prepare
    const vendor = { ...spfGuides, guides: [{ ...spfGuides.guides[1]!, source: { url: 'https://developers.cloudflare.com/dns/manage-dns-records/how-to/create-dns-records/', checked: '2026-12-07', status: 'vendor' as const } }] };
    render(
      <VulnerabilitiesList
        vulnerabilities={[vulnerability('email.spf.softfail', { platformGuides: vendor }), vulnerability('tls.hsts.missing', { platformGuides: hstsOnShopify })]}
        technologies={[]}
        limit={5}
      />,
    );

    // Act
    open('Title of email.spf.softfail');
    open('Title of tls.hsts.missing');

    // Assess
    const lines = screen.getAllByTestId('guide-source');
    expect(lines.map((line) => line.textContent)).toEqual(['Source: developers.cloudflare.com, checked 7 Dec 2026', 'Not confirmed by the vendor: looked for at help.shopify.com, 7 Dec 2026']);
    expect(within(lines[0]!).getByRole('link', { name: 'developers.cloudflare.com' }).getAttribute('href')).toBe('https://developers.cloudflare.com/dns/manage-dns-records/how-to/create-dns-records/');
  });

  it('says first what the platform does not allow, then what to do instead', () => {
    // Act
    render(<VulnerabilitiesList vulnerabilities={[vulnerability('tls.hsts.missing', { platformGuides: hstsOnShopify })]} technologies={[]} limit={5} />);
    open('Title of tls.hsts.missing');

    // Assess
    const block = screen.getByRole('heading', { level: 5, name: 'Fix it in Shopify' }).parentElement!;
    const texts = [...block.querySelectorAll('p, li')].map((el) => el.textContent);
    expect(texts).toEqual([
      'Shopify does not let you set response headers.',
      'What you can do instead:',
      'Shopify already sends HSTS on its own domains; ask Shopify support about yours.',
      'Not confirmed by the vendor: looked for at help.shopify.com, 7 Dec 2026',
    ]);
  });

  it('shows a free report only the one-line note, never the steps', () => {
    // Act
    render(
      <VulnerabilitiesList
        vulnerabilities={[
          vulnerability('email.spf.softfail', {
            platformGuides: { access: 'teaser', topic: 'spf', platformNames: ['Google Workspace', 'Cloudflare'], teaser: 'The paid audit includes step-by-step instructions for Google Workspace and Cloudflare.' },
          }),
        ]}
        technologies={[]}
        limit={5}
      />,
    );
    open('Title of email.spf.softfail');

    // Assess
    expect(screen.getByTestId('platform-guides-teaser').textContent).toBe('The paid audit includes step-by-step instructions for Google Workspace and Cloudflare.');
    expect(screen.queryByRole('heading', { level: 5 })).toBeNull();
    expect(screen.queryByTestId('platform-guides')).toBeNull();
  });
});

describe("the Pro remediation plan's items", () => {
  const headerStep = { text: 'Add the header in nginx:', examples: [{ label: 'nginx', code: 'add_header Strict-Transport-Security "max-age=300" always;' }] };
  const item = (guides: IncludedPlatformGuides | undefined): RemediationPlanView => ({
    webServer: 'nginx',
    items: [
      {
        findingId: 'tls.hsts.missing',
        title: 'HSTS is not enabled',
        severity: 'medium',
        category: 'SSL/TLS',
        whyItMatters: 'Visitors can be intercepted.',
        steps: [headerStep, { text: 'Check it:', examples: [{ label: 'Shell', code: 'curl -sI https://shop.example.test/' }] }],
        verify: { text: 'The header is there.' },
        effort: 'quick',
        ...(guides ? { platformGuides: guides } : {}),
      },
    ],
  });

  it("shows the platform's block and hides the web server lines when the platform's server is not the owner's", () => {
    // Act
    render(<RemediationPlan plan={item(hstsOnShopify)} />);
    open('HSTS is not enabled');

    // Assess
    expect(screen.getByRole('heading', { level: 4, name: 'Fix it in Shopify' })).toBeTruthy();
    expect(screen.queryByText(headerStep.examples[0]!.code)).toBeNull();
    expect(screen.getByText('curl -sI https://shop.example.test/')).toBeTruthy();
    expect(screen.getByText('General steps')).toBeTruthy();
  });

  it('keeps the web server lines next to the guide when serverConfig is true, and shows the plan as before without guides', () => {
    // Act
    const { unmount } = render(<RemediationPlan plan={item({ ...hstsOnShopify, serverConfig: true })} />);
    open('HSTS is not enabled');
    const withGuide = screen.queryByText(headerStep.examples[0]!.code) !== null;
    unmount();
    render(<RemediationPlan plan={item(undefined)} />);
    open('HSTS is not enabled');

    // Assess
    expect(withGuide).toBe(true);
    expect(screen.getByText(headerStep.examples[0]!.code)).toBeTruthy();
    expect(screen.getByText('Steps')).toBeTruthy();
    expect(screen.queryByRole('heading', { level: 4 })).toBeNull();
  });
});

describe('the results page', () => {
  const ID = '5e2f8a1b-3c4d-4e5f-8a9b-0c1d2e3f4a5b';
  const audit: Audit = {
    id: ID,
    targetUrl: 'https://shop.example.com.au/',
    host: 'shop.example.com.au',
    status: 'completed',
    createdAt: '2026-01-01T00:00:00.000Z',
    completedAt: '2026-01-01T00:00:20.000Z',
    score: 95,
    grade: 'A',
    riskLevel: 'low',
    checks: [],
  };
  const view = (extra: Partial<AuditResultView>): AuditResultView => ({
    id: ID,
    target_url: audit.targetUrl,
    audit_status: 'completed',
    error_message: null,
    scan_mode: 'active',
    coverage: { mode: 'active', allowedMode: 'active', partial: false, notChecked: [] },
    created_at: audit.createdAt,
    completed_at: audit.completedAt!,
    risk_level: 'low',
    dns_results: { status: 'completed', subdomainsFound: 0, totalSubdomains: 0, activeSubdomains: 0, completedAt: audit.completedAt! },
    port_scan_results: [],
    vulnerability_summary: { vulnerabilities: [vulnerability('email.spf.softfail', { platformGuides: spfGuides })], totalIssues: 1, criticalIssues: 0, subdomainsScanned: 0, riskFactors: [], overallRisk: 'low', recommendations: [] },
    host: audit.host,
    business_name: null,
    risk_score: 95,
    grade: 'A',
    counters: { totalIssues: 1, criticalIssues: 0, openPorts: 0, subdomains: 0 },
    finding_counts: { critical: 0, high: 0, medium: 1, low: 0, info: 0 },
    observations: [],
    grades: { tls: 'A', httpObservatory: null },
    breaches: { status: 'not-configured', checked: null, breached: null },
    technologies: [],
    tls: { status: 'completed', grade: 'A', ports: [], hsts: null, httpsRedirect: true },
    email_security: { status: 'completed', domain: 'example.com.au', spf: null, dmarc: null, dkim: { selectorsFound: [] }, mx: [] },
    network: { status: 'completed', address: null, portsScanned: 100, closed: 100, filtered: 0, firewall: null },
    ...extra,
  });
  const renderResults = async (result: AuditResultView) => {
    stubApi({ [`GET /api/audits/${ID}`]: { status: 200, body: { audit, result } } });
    renderWithProviders(
      <AuthTestProvider value={{ status: 'signed-out' }}>
        <AuditResults auditId={ID} />
      </AuthTestProvider>,
    );
    await advance();
  };
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('shows the providers line above the vulnerabilities', async () => {
    // Act
    await renderResults(view({ providers }));

    // Assess
    const headings = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent ?? '');
    expect(headings.indexOf('Where your site and mail run')).toBeGreaterThanOrEqual(0);
    expect(headings.indexOf('Where your site and mail run')).toBeLessThan(headings.findIndex((h) => h.startsWith('Issues to fix')));
    expect(screen.getByTestId('providers-summary').textContent).toBe(providers.summary);
  });

  it('renders a report stored before detection: no providers line, the finding without a guide', async () => {
    // Act
    await renderResults(view({ vulnerability_summary: { ...view({}).vulnerability_summary, vulnerabilities: [vulnerability('email.spf.softfail')] } }));
    open('Title of email.spf.softfail');

    // Assess
    expect(screen.queryByTestId('providers')).toBeNull();
    expect(screen.getByText('Fix email.spf.softfail')).toBeTruthy();
    expect(screen.queryByTestId('platform-guides')).toBeNull();
    expect(screen.queryByTestId('platform-guides-teaser')).toBeNull();
  });
});
