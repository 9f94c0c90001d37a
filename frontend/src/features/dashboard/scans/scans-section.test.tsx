import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FREE_REPORT_NAME, getPlan } from '../../../lib/catalogue';
import type { AuditHistoryEntry } from '../../../lib/contracts';
import { renderWithProviders, stubApi } from '../../../testing/api-stub';
import { auditsPage, historyEntry } from '../history/audit-fixtures';
import { ScansSection } from './scans-section';

const AUDITS = 'GET /api/me/audits';

const scans: AuditHistoryEntry[] = [
  historyEntry({ id: 'a', domain: 'shop.example.test', riskScore: 90, tier: 'pro', findings: { totalIssues: 1, criticalIssues: 0, openPorts: 2, subdomains: 1 } }),
  historyEntry({ id: 'b', domain: 'blog.test', riskScore: 55, findings: { totalIssues: 6, criticalIssues: 2, openPorts: 5, subdomains: 0 } }),
  historyEntry({ id: 'c', domain: 'new.example.test', status: 'queued', riskScore: null, riskLevel: null, scanDuration: null }),
];

const SHARE = {
  status: 201,
  body: { shareToken: 'AbCdEfGhIjKlMnOpQrStUv', url: 'https://rampart.example/share/AbCdEfGhIjKlMnOpQrStUv', expiresAt: '2025-03-02T12:00:00.000Z', maxUses: 100 },
};

const domainsListed = () =>
  within(screen.getByRole('list', { name: 'Scans' }))
    .getAllByRole('listitem')
    .map((item) => item.querySelector('p')?.textContent);

async function showScans(audits: AuditHistoryEntry[] = scans, routes: Parameters<typeof stubApi>[0] = {}) {
  const api = stubApi({ [AUDITS]: auditsPage(audits), ...routes });
  renderWithProviders(<ScansSection />);
  await screen.findByRole('heading', { name: 'Security Scans' });
  await screen.findByText('Total Scans');
  return api;
}

const card = (label: string) => screen.getByText(label).nextElementSibling?.textContent;

describe('the Security Scans section', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('shows New Scan to /dashboard, the summary cards and a row per scan with its report link', async () => {
    // Act
    await showScans();

    // Assess
    expect(screen.getByRole('link', { name: 'New Scan' }).getAttribute('href')).toBe('/dashboard');
    expect([card('Total Scans'), card('Completed'), card('Average Score'), card('Critical Issues')]).toEqual(['3', '2', '73', '2']);
    expect(domainsListed()).toEqual(['shop.example.test', 'blog.test', 'new.example.test']);
    expect(screen.getByRole('link', { name: 'View Report for blog.test' }).getAttribute('href')).toBe('/results/b');
    const queued = screen.getByText('new.example.test').closest('li')!;
    expect(within(queued).getByText('queued')).toBeTruthy();
    expect(within(queued).getByText('Share and Email open once the scan has completed.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Share report for new.example.test' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Email report for new.example.test' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('searches the domain and filters by scan type', async () => {
    // Prepare
    await showScans();
    const typeLabels = within(screen.getByLabelText('Scan type')).getAllByRole('option').map((option) => option.textContent);

    // Act
    fireEvent.change(screen.getByLabelText('Search scans'), { target: { value: 'EXAMPLE' } });
    const searched = domainsListed();
    fireEvent.change(screen.getByLabelText('Scan type'), { target: { value: 'free-report' } });
    const basicAndSearched = domainsListed();
    fireEvent.change(screen.getByLabelText('Search scans'), { target: { value: '' } });
    fireEvent.change(screen.getByLabelText('Scan type'), { target: { value: 'pro-audit' } });
    const pro = domainsListed();
    fireEvent.change(screen.getByLabelText('Search scans'), { target: { value: 'blog' } });

    // Assess
    // The plan catalogue's names: a free scan is never 'Basic', the Basic Audit's word (issue 29 item 2).
    expect(typeLabels).toEqual(['All scans', FREE_REPORT_NAME, getPlan('basic-audit').name, getPlan('pro-audit').name]);
    expect(typeLabels).toEqual(['All scans', 'Free report', 'Basic Audit', 'Pro Audit']);
    expect(searched).toEqual(['shop.example.test', 'new.example.test']);
    expect(basicAndSearched).toEqual(['new.example.test']);
    expect(pro).toEqual(['shop.example.test']);
    expect(screen.getByText('No scans found')).toBeTruthy();
  });

  it("names each row's scan type from the plan catalogue (Pro Audit, Free report), and marks the scan behind an eligible badge with a link to the badge", async () => {
    // Prepare
    const entries = [
      historyEntry({ id: 'p', domain: 'paid.example.test', tier: 'pro', badgeEligible: true }),
      historyEntry({ id: 'f', domain: 'free.example.test' }),
    ];

    // Act
    await showScans(entries);
    fireEvent.change(screen.getByLabelText('Scan type'), { target: { value: 'pro-audit' } });
    const proOnly = domainsListed();

    // Assess
    expect(proOnly).toEqual(['paid.example.test']);
    const paid = screen.getByText('paid.example.test').closest('li')!;
    expect(within(paid).getByText('Pro Audit')).toBeTruthy();
    expect(within(paid).getByRole('link', { name: 'Badge eligible' }).getAttribute('href')).toBe('/dashboard/badge');
    fireEvent.change(screen.getByLabelText('Scan type'), { target: { value: 'free-report' } });
    const free = screen.getByText('free.example.test').closest('li')!;
    expect(within(free).getByText('Free report')).toBeTruthy();
    expect(within(free).queryByText('Basic')).toBeNull();
    expect(within(free).queryByText('Badge eligible')).toBeNull();
  });

  it('shows an empty state when the user has no scans', async () => {
    // Act
    await showScans([]);

    // Assess
    expect(screen.getByText('No scans yet')).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Scans' })).toBeNull();
    expect([card('Total Scans'), card('Average Score')]).toEqual(['0', '—']);
  });

  it("Share creates a link through the shares API, shows the API's URL and expiry, and Copy Link says 'Copied to clipboard!' for 2 s", async () => {
    // Prepare
    const api = await showScans(scans, { 'POST /api/audits/b/shares': SHARE });
    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });

    // Act
    fireEvent.click(screen.getByRole('button', { name: 'Share report for blog.test' }));
    const dialog = await screen.findByRole('dialog', { name: 'Share Report' });
    const link = (await within(dialog).findByLabelText('Share link')) as HTMLInputElement;
    const expiryText = within(dialog).getByRole('status').textContent;
    vi.useFakeTimers();
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Copy Link' })));
    const copiedText = within(dialog).getByRole('status').textContent;
    await act(async () => vi.advanceTimersByTime(1_999));
    const at1999 = within(dialog).getByRole('status').textContent;
    await act(async () => vi.advanceTimersByTime(1));
    const at2000 = within(dialog).getByRole('status').textContent;

    // Assess
    expect(api.callsTo('POST', '/api/audits/b/shares')).toHaveLength(1);
    expect(within(dialog).getByText('blog.test')).toBeTruthy();
    expect(link.value).toBe('https://rampart.example/share/AbCdEfGhIjKlMnOpQrStUv');
    expect(expiryText).toMatch(/until 2 Mar 2025.*up to 100 times/);
    expect(writeText).toHaveBeenCalledWith('https://rampart.example/share/AbCdEfGhIjKlMnOpQrStUv');
    expect(copiedText).toBe('Copied to clipboard!');
    expect(at1999).toBe('Copied to clipboard!');
    expect(at2000).not.toContain('Copied');
  });

  it("shows the shares API's refusal, and Close returns focus to the row's Share button", async () => {
    // Prepare
    await showScans(scans, { 'POST /api/audits/a/shares': { status: 429, body: { error: 'rate_limited', message: 'Too many share links for this report' } } });
    const shareButton = screen.getByRole('button', { name: 'Share report for shop.example.test' });
    shareButton.focus();

    // Act
    fireEvent.click(shareButton);
    const dialog = await screen.findByRole('dialog', { name: 'Share Report' });
    const alertText = (await within(dialog).findByRole('alert')).textContent;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));

    // Assess
    expect(alertText).toContain('Too many share links for this report');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(shareButton);
  });

  it('Email sends the address typed to the email-audit route and shows the answer', async () => {
    // Prepare
    const api = await showScans(scans, {
      'POST /api/audits/a/email': { status: 200, body: { sent: true, email: 'owner@example.test', message: 'The report was sent to owner@example.test.' } },
    });

    // Act
    fireEvent.click(screen.getByRole('button', { name: 'Email report for shop.example.test' }));
    const dialog = screen.getByRole('dialog', { name: 'Email Report' });
    const focused = document.activeElement;
    fireEvent.change(within(dialog).getByLabelText('Email address'), { target: { value: ' Owner@Example.test ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send Report' }));
    const answer = await within(dialog).findByRole('status');

    // Assess
    expect(focused).toBe(within(dialog).getByLabelText('Email address'));
    expect(api.callsTo('POST', '/api/audits/a/email').map((call) => call.body)).toEqual([{ email: 'Owner@Example.test' }]);
    expect(answer.textContent).toBe('The report was sent to owner@example.test.');
  });

  it("says 'Please enter an email address' for an empty address without calling the API", async () => {
    // Prepare
    const api = await showScans();
    fireEvent.click(screen.getByRole('button', { name: 'Email report for blog.test' }));
    const dialog = screen.getByRole('dialog', { name: 'Email Report' });

    // Act
    fireEvent.change(within(dialog).getByLabelText('Email address'), { target: { value: '   ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send Report' }));

    // Assess
    expect(within(dialog).getByRole('alert').textContent).toBe('Please enter an email address');
    expect(api.calls.filter((call) => call.method === 'POST')).toEqual([]);
  });

  it("shows the email API's error message, and Escape closes the modal", async () => {
    // Prepare
    await showScans(scans, {
      'POST /api/audits/b/email': { status: 400, body: { error: 'validation_failed', message: 'Please enter a valid email address' } },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Email report for blog.test' }));
    const dialog = screen.getByRole('dialog', { name: 'Email Report' });

    // Act
    fireEvent.change(within(dialog).getByLabelText('Email address'), { target: { value: 'not-an-address' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send Report' }));
    const alertText = (await within(dialog).findByRole('alert')).textContent;
    fireEvent.keyDown(within(dialog).getByLabelText('Email address'), { key: 'Escape' });

    // Assess
    expect(alertText).toBe('Please enter a valid email address');
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
