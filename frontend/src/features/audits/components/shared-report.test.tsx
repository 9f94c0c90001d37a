import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SharedAuditView } from '../../../lib/contracts';
import { advance, renderWithProviders, stubApi } from '../../../testing/api-stub';
import { expiresInLabel, SHARE_EMAIL_NOTE, SharedReport } from './shared-report';

const TOKEN = 'AbCdEfGhIjKlMnOpQrStUv';
const NOW = new Date('2026-01-01T10:00:00.000Z');

/** The shared view carries no audit id (issue 28 finding 11): the page emails by the link's token. */
const view = {
  host: 'shop.example.test',
  business_name: 'Example Shop',
  completed_at: '2026-01-01T09:59:00.000Z',
  risk_level: 'medium',
  risk_score: 65,
  grade: 'D',
  counters: { totalIssues: 7, criticalIssues: 0, openPorts: 11, subdomains: 3 },
  port_scan_results: Array.from({ length: 11 }, (_, i) => ({ port_number: 8000 + i, service_name: 'http-alt', port_status: 'open', risk_level: 'low' })),
  vulnerability_summary: {
    vulnerabilities: Array.from({ length: 7 }, (_, i) => ({
      id: `f.${i}`,
      title: `Finding ${i}`,
      severity: 'low',
      category: 'Web Security',
      description: 'd',
      recommendation: 'r',
    })),
    riskFactors: [],
    recommendations: [],
  },
  technologies: [],
  scan_mode: 'active',
  coverage: { mode: 'active', allowedMode: 'active', partial: false, notChecked: [] },
} as unknown as SharedAuditView;
const EMAIL_PATH = `/api/shared-audits/${TOKEN}/email`;

describe('the shared report page', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: NOW });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("counts down in hours and minutes to 'Expired'", () => {
    const now = NOW.getTime();
    expect(expiresInLabel('2026-01-02T09:59:00.000Z', now)).toBe('Expires in 23h 59m');
    expect(expiresInLabel('2026-01-01T10:05:30.000Z', now)).toBe('Expires in 0h 5m');
    expect(expiresInLabel('2026-01-01T10:00:00.000Z', now)).toBe('Expired');
  });

  it('shows the read-only report: expiry, risk, counters, 5 vulnerabilities and 8 ports with "and N more", calls to action home', async () => {
    // Prepare
    stubApi({
      [`GET /api/shared-audits/${TOKEN}`]: {
        status: 200,
        body: { success: true, audit: view, expiresAt: '2026-01-02T09:59:00.000Z', message: 'Shared security report for shop.example.test' },
      },
    });

    // Act
    renderWithProviders(<SharedReport shareToken={TOKEN} />);
    await advance();
    const before = screen.getByTestId('expires-in').textContent;
    await advance(60_000);

    // Assess
    expect(before).toBe('Expires in 23h 59m');
    expect(screen.getByTestId('expires-in').textContent).toBe('Expires in 23h 58m');
    expect(screen.getByTestId('expiry-banner').textContent).toContain('This shared report link expires on');
    expect(screen.getByTestId('risk-banner').textContent).toContain('MEDIUM RISK');
    const vulnerabilities = screen.getByRole('region', { name: /^Issues to fix/ });
    expect(within(vulnerabilities).getAllByRole('listitem')).toHaveLength(5);
    expect(within(vulnerabilities).getByText('and 2 more')).toBeTruthy();
    const ports = screen.getByRole('region', { name: 'Open Ports' });
    expect(within(ports).getAllByRole('listitem')).toHaveLength(8);
    expect(within(ports).getByText('and 3 more')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Show all|Share/ })).toBeNull();
    expect(screen.getByRole('link', { name: 'Get Your Free Security Report' }).getAttribute('href')).toBe('/#audit-form');
  });

  it("lets the holder of a link the owner made (canEmail) email the report by the link's token alone, and shows the API's refusal", async () => {
    // Prepare
    const api = stubApi({
      [`GET /api/shared-audits/${TOKEN}`]: { status: 200, body: { success: true, audit: view, expiresAt: '2026-01-02T09:59:00.000Z', canEmail: true } },
      [`POST ${EMAIL_PATH}`]: [
        { status: 200, body: { sent: true, email: 'cfo@example.test', message: 'The report was sent to cfo@example.test.' } },
        { status: 410, body: { error: 'share_exhausted', message: 'This share link has reached its maximum number of uses.' } },
      ],
    });
    renderWithProviders(<SharedReport shareToken={TOKEN} />);
    await advance();

    // Act
    fireEvent.click(screen.getByRole('button', { name: 'Email Report' }));
    const dialog = screen.getByRole('dialog', { name: 'Email Report' });
    fireEvent.change(within(dialog).getByLabelText('Email address'), { target: { value: 'cfo@example.test' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send Report' }));
    await advance();
    const sent = within(dialog).getByRole('status').textContent;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send Report' }));
    await advance();

    // Assess
    expect(within(dialog).getByText(SHARE_EMAIL_NOTE)).toBeTruthy();
    expect(api.callsTo('POST', EMAIL_PATH).map((call) => call.body)).toEqual([{ email: 'cfo@example.test' }, { email: 'cfo@example.test' }]);
    expect(sent).toBe('The report was sent to cfo@example.test.');
    expect(within(dialog).getByRole('alert').textContent).toBe('This share link has reached its maximum number of uses.');
  });

  it.each([
    ['canEmail false (a link made signed out or by someone else)', { canEmail: false }],
    ['no canEmail', {}],
  ])("offers no 'Email Report' with %s, but shows the report", async (_name, flag) => {
    // Prepare
    const api = stubApi({ [`GET /api/shared-audits/${TOKEN}`]: { status: 200, body: { success: true, audit: view, expiresAt: '2026-01-02T09:59:00.000Z', ...flag } } });

    // Act
    renderWithProviders(<SharedReport shareToken={TOKEN} />);
    await advance();

    // Assess
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('shop.example.test');
    expect(screen.queryByRole('button', { name: 'Email Report' })).toBeNull();
    expect(api.callsTo('POST', EMAIL_PATH)).toEqual([]);
  });

  it("shows 'Share Link Invalid' with the server's message and the possible reasons", async () => {
    // Prepare
    stubApi({
      [`GET /api/shared-audits/${TOKEN}`]: {
        status: 410,
        body: { success: false, error: 'share_expired', message: 'Shared audit not found or expired' },
      },
    });

    // Act
    renderWithProviders(<SharedReport shareToken={TOKEN} />);
    await advance();

    // Assess
    const alert = screen.getByRole('alert');
    expect(within(alert).getByRole('heading').textContent).toBe('Share Link Invalid');
    expect(alert.textContent).toContain('Shared audit not found or expired');
    expect(within(alert).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'The link has expired (shared links work for 24 hours)',
      'The link was typed or copied incorrectly',
      'The original audit has been deleted',
      'The link has reached its maximum number of uses',
    ]);
  });

  it("falls back to 'Failed to load shared audit' when the server's refusal carries no message", async () => {
    // Prepare
    stubApi({ [`GET /api/shared-audits/${TOKEN}`]: { status: 502, body: '<html>Bad gateway</html>' } });

    // Act
    renderWithProviders(<SharedReport shareToken={TOKEN} />);
    await advance();

    // Assess
    const alert = screen.getByRole('alert');
    expect(within(alert).getByRole('heading').textContent).toBe('Share Link Invalid');
    expect(within(alert).getByText('Failed to load shared audit')).toBeTruthy();
    expect(within(alert).getAllByRole('listitem')).toHaveLength(4);
  });

  it("shows 'No Audit Data' with the server's message when the answer holds no report", async () => {
    // Prepare
    stubApi({ [`GET /api/shared-audits/${TOKEN}`]: { status: 200, body: { success: false, message: 'This report is no longer available.' } } });

    // Act
    renderWithProviders(<SharedReport shareToken={TOKEN} />);
    await advance();

    // Assess
    expect(screen.getByRole('heading', { name: 'No Audit Data' })).toBeTruthy();
    expect(screen.getByText('This report is no longer available.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to Home' }).getAttribute('href')).toBe('/');
    expect(screen.queryByTestId('risk-banner')).toBeNull();
  });

  it("says 'Invalid share link' for a malformed token without asking the server", async () => {
    // Prepare
    const api = stubApi({});

    // Act
    renderWithProviders(<SharedReport shareToken="not-a-token" />);
    await advance();

    // Assess
    expect(screen.getByRole('alert').textContent).toContain('Invalid share link');
    expect(api.calls).toEqual([]);
  });
});
