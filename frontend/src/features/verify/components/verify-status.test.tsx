import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders, stubApi } from '../../../testing/api-stub';
import type { BadgeStatusView } from '../../../lib/contracts';
import { VerifyStatus } from './verify-status';

const status = (extra: Partial<BadgeStatusView> = {}): BadgeStatusView => ({
  domain: 'shop.example.com',
  verified: true,
  eligible: true,
  grade: 'B',
  score: 84,
  lastScan: '2026-11-20T03:00:00.000Z',
  reasons: [],
  ...extra,
});

const showVerify = (domain: string) => renderWithProviders(<VerifyStatus domain={domain} />, { route: `/verify/${domain}` });

const details = () => {
  const list = within(screen.getByRole('region', { name: 'Security status' }));
  return Object.fromEntries(list.getAllByRole('term').map((term) => [term.textContent, term.nextElementSibling?.textContent]));
};
const verdict = () => screen.getByRole('region', { name: 'Verdict' }).textContent;

describe('/verify/{domain}', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('states the current grade, the last scan date, that the domain is verified and that the badge is active', async () => {
    // Prepare
    const api = stubApi({ 'GET /api/badges/shop.example.com': { status: 200, body: status() } });

    // Act
    showVerify('shop.example.com');

    // Assess
    await screen.findByRole('heading', { level: 1, name: 'Security status of shop.example.com' });
    expect(api.callsTo('GET', '/api/badges/shop.example.com')).toHaveLength(1);
    expect(details()).toEqual({
      'Current grade': 'B (score 84/100)',
      'Last scan': '20 November 2026',
      'Domain ownership': 'Verified',
      Badge: 'Active',
    });
    expect(verdict()).toMatch(/^Badge active/);
    const badge = screen.getByRole('img', { name: 'Rampart badge for shop.example.com' });
    expect(badge.getAttribute('src')).toBe('/badge/shop.example.com.svg?theme=light&size=medium&style=detailed');
    await waitFor(() => expect(document.title).toBe('Security status of shop.example.com — Rampart'));
  });

  it('says clearly that an unknown domain is not verified, with no grade and no scan', async () => {
    // Prepare
    stubApi({
      'GET /api/badges/unknown.example.org': {
        status: 200,
        body: status({ domain: 'unknown.example.org', verified: false, eligible: false, grade: null, score: null, lastScan: null, reasons: ['Verify that you own the domain', 'Run a scan'] }),
      },
    });

    // Act
    showVerify('unknown.example.org');

    // Assess
    await screen.findByRole('heading', { name: 'Security status of unknown.example.org' });
    expect(verdict()).toContain('Not verified');
    expect(verdict()).toContain('Rampart has not verified unknown.example.org.');
    expect(details()).toEqual({
      'Current grade': 'No current grade',
      'Last scan': 'No completed scan',
      'Domain ownership': 'Not verified',
      Badge: 'Not active',
    });
  });

  it('gives the reasons when a verified domain has no active badge', async () => {
    // Prepare
    stubApi({
      'GET /api/badges/blog.example.com': {
        status: 200,
        body: status({ domain: 'blog.example.com', eligible: false, grade: 'D', score: 64, lastScan: '2026-09-01T03:00:00.000Z', reasons: ['Scan again (the last scan is over 30 days old)'] }),
      },
    });

    // Act
    showVerify('blog.example.com');

    // Assess
    await screen.findByRole('heading', { name: 'Security status of blog.example.com' });
    expect(verdict()).toMatch(/^Badge not active/);
    expect(within(screen.getByRole('region', { name: 'Verdict' })).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Scan again (the last scan is over 30 days old)',
    ]);
    expect(details()).toMatchObject({ 'Current grade': 'D (score 64/100)', 'Last scan': '1 September 2026', 'Domain ownership': 'Verified', Badge: 'Not active' });
  });

  it('treats a domain the API does not know (404) as not verified', async () => {
    // Prepare
    stubApi({ 'GET /api/badges/gone.example.net': { status: 404, body: { error: 'not_found', message: 'Not found' } } });

    // Act
    showVerify('gone.example.net');

    // Assess
    await screen.findByRole('heading', { name: 'Security status of gone.example.net' });
    expect(details()).toEqual({ 'Current grade': 'No current grade', 'Last scan': 'No completed scan', 'Domain ownership': 'Not verified', Badge: 'Not active' });
  });

  it('answers an address that is not a domain with a clear message, without asking the API', async () => {
    // Prepare
    const api = stubApi({});

    // Act
    showVerify('not_a_domain');

    // Assess
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('heading').textContent).toBe('Invalid domain');
    expect(alert.textContent).toContain('"not_a_domain" is not a valid domain name');
    expect(api.calls).toHaveLength(0);
  });

  it('shows the same message when the API refuses the domain (400)', async () => {
    // Prepare
    stubApi({ 'GET /api/badges/localhost.localdomain': { status: 400, body: { error: 'validation_failed', message: 'Please enter a valid domain.' } } });

    // Act
    showVerify('localhost.localdomain');

    // Assess
    expect(within(await screen.findByRole('alert')).getByRole('heading').textContent).toBe('Invalid domain');
  });
});
