import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders, stubApi } from '../../../testing/api-stub';
import { AuthTestProvider } from '../../auth/auth-provider';
import { ESSENTIAL_EIGHT_DISCLAIMER, type EssentialEightStrategyView, type EssentialEightView } from '../../../lib/contracts';
import { EssentialEightSection } from './essential-eight-section';

const strategy = (id: EssentialEightStrategyView['id'], title: string, extra: Partial<EssentialEightStrategyView> = {}): EssentialEightStrategyView => ({
  id,
  title,
  requirement: `What ML1 asks of ${title}.`,
  status: 'not-assessable',
  statusLabel: 'Cannot be assessed from outside',
  evidence: [],
  howToCheck: [`First step for ${title}.`, `Second step for ${title}.`],
  ...extra,
});

const VIEW: EssentialEightView = {
  domain: 'shop.example.com',
  maturityLevel: 'ML1',
  disclaimer: ESSENTIAL_EIGHT_DISCLAIMER,
  generatedAt: '2026-11-27T00:00:00.000Z',
  sources: { webScan: { auditId: 'a1', completedAt: '2026-11-26T03:00:00.000Z' }, agents: { reporting: 1, total: 2 } },
  strategies: [
    strategy('patch-applications', 'Patch applications', {
      status: 'evidence-against',
      statusLabel: 'Evidence against',
      evidence: [
        {
          effect: 'against',
          source: 'web-scan',
          what: 'Apache HTTP Server 2.4.49 is unpatched more than 48 hours after a working exploit was known: CVE-2021-41773.',
          where: 'Web scan of shop.example.com on 2026-11-26',
          seenAt: '2026-11-26T03:00:00.000Z',
          findingId: 'cve.apache_http_server',
        },
        { effect: 'neutral', source: 'agent', what: '3 known vulnerabilities in installed software.', where: 'Agent on PC-1', seenAt: '2026-11-26T03:00:00.000Z' },
      ],
    }),
    strategy('patch-operating-systems', 'Patch operating systems', {
      status: 'evidence-for',
      statusLabel: 'Evidence for',
      evidence: [{ effect: 'for', source: 'agent', what: 'Windows 11 25H2 (W) still gets security fixes.', where: 'Agent on PC-1', seenAt: '2026-11-26T03:00:00.000Z' }],
    }),
    strategy('multi-factor-authentication', 'Multi-factor authentication'),
    strategy('restrict-administrative-privileges', 'Restrict administrative privileges'),
    strategy('application-control', 'Application control'),
    strategy('office-macros', 'Configure Microsoft Office macro settings'),
    strategy('user-application-hardening', 'User application hardening'),
    strategy('regular-backups', 'Regular backups'),
  ],
};

const DOMAINS = [
  { id: 'd1', domain: 'shop.example.com', verified: true, status: 'verified', verificationToken: 't', addedAt: '2026-01-01T00:00:00.000Z', verification: {} },
  { id: 'd2', domain: 'blog.example.com', verified: true, status: 'verified', verificationToken: 't', addedAt: '2026-01-01T00:00:00.000Z', verification: {} },
];

function showPage(routes: Parameters<typeof stubApi>[0], route = '/dashboard/essential-eight') {
  const api = stubApi(routes);
  renderWithProviders(
    <AuthTestProvider value={{ status: 'signed-in' }}>
      <EssentialEightSection />
    </AuthTestProvider>,
    { route },
  );
  return api;
}

describe('Essential Eight section', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  it("shows the first domain's Eight, each under its own heading with its status written out, what was seen and how to check, and the disclaimer", async () => {
    // Prepare
    const api = showPage({
      'GET /api/me/domains': { status: 200, body: { domains: DOMAINS } },
      'GET /api/me/essential-eight/shop.example.com': { status: 200, body: VIEW },
    });

    // Act
    await screen.findByRole('heading', { level: 2, name: 'Patch applications' });

    // Assess
    expect(api.callsTo('GET', '/api/me/essential-eight/shop.example.com')).toHaveLength(1);
    expect(screen.getByRole('heading', { level: 1, name: 'Essential Eight readiness' })).toBeTruthy();
    expect(screen.getByRole('note').textContent).toBe(ESSENTIAL_EIGHT_DISCLAIMER);
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual(VIEW.strategies.map((s) => s.title));
    const patch = screen.getByRole('region', { name: 'Patch applications' });
    expect(within(patch).getByText('Evidence against')).toBeTruthy();
    const seen = within(patch).getByRole('list', { name: 'What we saw: Patch applications' });
    expect(within(seen).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Against: Apache HTTP Server 2.4.49 is unpatched more than 48 hours after a working exploit was known: CVE-2021-41773.Web scan of shop.example.com on 2026-11-26',
      'Note: 3 known vulnerabilities in installed software.Agent on PC-1',
    ]);
    expect(within(screen.getByRole('region', { name: 'Patch operating systems' })).getByText('Evidence for')).toBeTruthy();
    const backups = screen.getByRole('region', { name: 'Regular backups' });
    expect(within(backups).getByText('Cannot be assessed from outside')).toBeTruthy();
    expect(within(backups).getByText('Nothing our scan or agents can observe bears on this strategy.')).toBeTruthy();
    expect(within(within(backups).getByRole('list', { name: 'How to check: Regular backups' })).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'First step for Regular backups.',
      'Second step for Regular backups.',
    ]);
    expect(screen.getByTestId('e8-sources').textContent).toBe('Based on the web scan of 26 Nov 2026 and 1 of 2 endpoint agents reporting.');
    expect(screen.getByTestId('e8-summary').textContent).toBe('1 strategy with evidence against · 1 with evidence for · 6 cannot be assessed from outside');
  });

  it('loads the view of the domain chosen in the picker', async () => {
    // Prepare
    const api = showPage({
      'GET /api/me/domains': { status: 200, body: { domains: DOMAINS } },
      'GET /api/me/essential-eight/shop.example.com': { status: 200, body: VIEW },
      'GET /api/me/essential-eight/blog.example.com': { status: 200, body: { ...VIEW, domain: 'blog.example.com', sources: { webScan: null, agents: { reporting: 0, total: 0 } } } },
    });
    await screen.findByRole('heading', { level: 2, name: 'Patch applications' });

    // Act
    fireEvent.change(screen.getByLabelText('Domain'), { target: { value: 'blog.example.com' } });

    // Assess
    await screen.findByText('No completed web scan of this domain yet and no endpoint agents.');
    expect(api.callsTo('GET', '/api/me/essential-eight/blog.example.com')).toHaveLength(1);
  });

  it('says how to start when the user has no domains, with the disclaimer still shown', async () => {
    showPage({ 'GET /api/me/domains': { status: 200, body: { domains: [] } } });
    expect(await screen.findByRole('heading', { level: 2, name: 'No domains yet' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Add and verify a domain' }).getAttribute('href')).toBe('/dashboard/settings?tab=domains');
    expect(screen.getByRole('note').textContent).toBe(ESSENTIAL_EIGHT_DISCLAIMER);
  });

  it('shows the API error with Try Again when the view fails', async () => {
    showPage({
      'GET /api/me/domains': { status: 200, body: { domains: DOMAINS } },
      'GET /api/me/essential-eight/shop.example.com': { status: 404, body: { error: 'domain_not_found', message: 'That domain is not one of your domains.' } },
    });
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('The Essential Eight view could not be loaded')).toBeTruthy();
    expect(within(alert).getByText('That domain is not one of your domains.')).toBeTruthy();
    expect(within(alert).getByRole('button', { name: 'Try Again' })).toBeTruthy();
  });
});
