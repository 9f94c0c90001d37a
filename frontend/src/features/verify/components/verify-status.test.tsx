import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders, stubApi } from '../../../testing/api-stub';
import type { BadgeStatusView } from '../../../lib/contracts';
import { VerifyStatus } from './verify-status';
import {
  BADGE_DEFAULTS,
  badgeEligibility,
  badgeReasons,
  badgeStatus,
  renderBadgeSvg,
  type BadgeEligibilityInput,
} from '../../../../../lambdas/domain/badge';

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

  it('states the current grade, the last scan date, that the owner is proven and that the badge is active', async () => {
    // Prepare
    const api = stubApi({ 'GET /api/badges/shop.example.com': { status: 200, body: status() } });

    // Act
    showVerify('shop.example.com');

    // Assess
    await screen.findByRole('heading', { level: 1, name: 'Security status of shop.example.com' });
    expect(api.callsTo('GET', '/api/badges/shop.example.com')).toHaveLength(1);
    expect(details()).toEqual({
      Badge: 'Active',
      'Security grade': 'B (score 84/100)',
      'Last scan by the owner': '20 November 2026',
      'Domain ownership': 'Proven by the owner',
    });
    expect(verdict()).toMatch(/^Protected by RampartGrade B · Score 84\/100Last scan 20 Nov 2026/);
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
    expect(verdict()).toMatch(/^Security status: not verifiedNo current security grade/);
    expect(verdict()).toContain('A Rampart badge on this site showing a grade is not genuine.');
    expect(details()).toEqual({
      Badge: 'Not active',
      'Security grade': 'No current security grade',
      'Last scan by the owner': 'No completed scan',
      'Domain ownership': 'Not proven',
    });
  });

  it('gives the reasons, in a visitor\'s words, when a domain with a proven owner has no active badge', async () => {
    // Prepare
    stubApi({
      'GET /api/badges/blog.example.com': {
        status: 200,
        body: status({ domain: 'blog.example.com', eligible: false, grade: null, score: null, lastScan: '2026-09-01T03:00:00.000Z', reasons: ['Scan again (the last scan is over 30 days old)'] }),
      },
    });

    // Act
    showVerify('blog.example.com');

    // Assess
    await screen.findByRole('heading', { name: 'Security status of blog.example.com' });
    expect(verdict()).toMatch(/^Security status: not verifiedNo current security grade/);
    expect(verdict()).toContain('The owner of blog.example.com has proven they control it, but that alone does not make the badge active.');
    expect(screen.getByRole('list', { name: 'Why the badge is not active' }).textContent).toBe('No scan by the owner in the last 30 days');
    expect(details()).toEqual({
      Badge: 'Not active',
      'Security grade': 'No current security grade',
      'Last scan by the owner': '1 September 2026',
      'Domain ownership': 'Proven by the owner',
    });
  });

  it('treats a domain the API does not know (404) as not verified', async () => {
    // Prepare
    stubApi({ 'GET /api/badges/gone.example.net': { status: 404, body: { error: 'not_found', message: 'Not found' } } });

    // Act
    showVerify('gone.example.net');

    // Assess
    await screen.findByRole('heading', { name: 'Security status of gone.example.net' });
    expect(details()).toEqual({ Badge: 'Not active', 'Security grade': 'No current security grade', 'Last scan by the owner': 'No completed scan', 'Domain ownership': 'Not proven' });
    expect(screen.getByRole('list', { name: 'Why the badge is not active' }).textContent).toBe('The owner has not proven they control this domain');
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

  describe('says what the badge image says, for each state (the same facts through the same rule)', () => {
    const NOW = new Date('2026-12-07T00:00:00.000Z');
    const recent = '2026-11-20T03:00:00.000Z';
    const active = { activeSubscription: true };

    /** GET /api/badges/{domain}'s view of the facts (lambdas/use-cases/badges.ts publicView). */
    const viewOf = (domain: string, input: BadgeEligibilityInput): BadgeStatusView => {
      if (!input.domainVerified) return { domain, verified: false, eligible: false, grade: null, score: null, lastScan: null, reasons: [badgeReasons.notVerified] };
      const { eligible, reasons } = badgeEligibility(input);
      const scan = input.latestScan;
      return { domain, verified: true, eligible, grade: eligible && scan ? scan.grade : null, score: eligible && scan ? scan.score : null, lastScan: scan?.completedAt ?? null, reasons };
    };
    /** Every text line of the badge the server renders for the same facts, unescaped. */
    const svgTexts = (domain: string, input: BadgeEligibilityInput): string[] =>
      [...renderBadgeSvg({ productName: 'Rampart', domain, status: badgeStatus(input), ...BADGE_DEFAULTS }).matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((match) =>
        match[1]!.replaceAll('&amp;', '&').replaceAll('&#39;', "'"),
      );

    const states: { name: string; input: BadgeEligibilityInput; badge: string[]; why: string[]; absent: string[] }[] = [
      {
        name: 'eligible: grade and last scan',
        input: { domainVerified: true, latestScan: { score: 84, grade: 'B', completedAt: recent }, entitlement: active, now: NOW },
        badge: ['Protected by Rampart', 'Grade B · Score 84/100', 'Last scan 20 Nov 2026'],
        why: [],
        absent: ['not verified', 'No current security grade'],
      },
      {
        name: 'not eligible: low score (the owner sees F 55; the badge and the page show no grade)',
        input: { domainVerified: true, latestScan: { score: 55, grade: 'F', completedAt: recent }, entitlement: active, now: NOW },
        badge: ['Security status: not verified', 'No current security grade'],
        why: ['The latest scan by the owner scored below 60'],
        absent: ['Protected by', '55', 'Grade F', 'is verified'],
      },
      {
        name: 'not eligible: no recent scan by the owner',
        input: { domainVerified: true, latestScan: { score: 84, grade: 'B', completedAt: '2026-10-01T00:00:00.000Z' }, entitlement: active, now: NOW },
        badge: ['Security status: not verified', 'No current security grade'],
        why: ['No scan by the owner in the last 30 days'],
        absent: ['Protected by', 'Grade B', 'is verified'],
      },
      {
        name: 'not eligible: no scan by the owner at all',
        input: { domainVerified: true, entitlement: active, now: NOW },
        badge: ['Security status: not verified', 'No current security grade'],
        why: ['No scan by the owner'],
        absent: ['Protected by', 'is verified'],
      },
      {
        name: 'not eligible: no active plan',
        input: { domainVerified: true, latestScan: { score: 91, grade: 'A', completedAt: recent }, entitlement: { activeSubscription: false }, now: NOW },
        badge: ['Security status: not verified', 'No current security grade'],
        why: ['No active plan or paid audit'],
        absent: ['Protected by', 'Grade A', '91', 'is verified'],
      },
      {
        name: 'not eligible: the owner has not proven the domain',
        input: { domainVerified: false, now: NOW },
        badge: ['Security status: not verified', 'No current security grade'],
        why: ['The owner has not proven they control this domain'],
        absent: ['Protected by', 'is verified', 'Proven by the owner'],
      },
    ];

    it.each(states)('$name', async ({ input, badge, why, absent }) => {
      // Prepare
      const domain = 'shop.example';
      const texts = svgTexts(domain, input);
      stubApi({ [`GET /api/badges/${domain}`]: { status: 200, body: viewOf(domain, input) } });

      // Act
      showVerify(domain);

      // Assess: the badge carries these words, and the page's verdict says them in the badge's order
      await screen.findByRole('heading', { level: 1, name: `Security status of ${domain}` });
      for (const line of badge) expect(texts).toContain(line);
      const said = verdict() ?? '';
      expect(said.startsWith(badge.join(''))).toBe(true);
      for (const line of texts.filter((text) => text !== 'Rampart' && text !== domain && text.length > 1)) expect(said).toContain(line);
      const reasons = screen.queryByRole('list', { name: 'Why the badge is not active' });
      expect(reasons ? within(reasons).getAllByRole('listitem').map((item) => item.textContent) : []).toEqual(why);
      const page = document.body.textContent ?? '';
      for (const text of absent) expect(page).not.toContain(text);
    });
  });
});
