import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders, stubApi } from '../../../testing/api-stub';
import { AuthTestProvider } from '../../auth/auth-provider';
import type { MyBadgeView } from '../../../lib/contracts';
import { COPIED, COPIED_FOR_MS } from './badge-customiser';
import { BadgeSection } from './badge-section';

const ORIGIN = window.location.origin;

const badge = (extra: Partial<MyBadgeView> & Pick<MyBadgeView, 'domain'>): MyBadgeView => ({
  verified: true,
  eligible: true,
  score: 87,
  grade: 'B',
  lastScan: '2026-11-20T03:00:00.000Z',
  reasons: [],
  badgeUrl: `${ORIGIN}/badge/${extra.domain}.svg`,
  verifyUrl: `${ORIGIN}/verify/${extra.domain}`,
  ...extra,
});

const BADGES: MyBadgeView[] = [
  badge({ domain: 'shop.example.com' }),
  badge({
    domain: 'blog.example.com',
    eligible: false,
    score: 64,
    grade: 'D',
    lastScan: '2026-09-01T03:00:00.000Z',
    reasons: ['Scan again (the last scan is over 30 days old)', 'Subscribe to a monitoring plan or buy a security audit'],
  }),
  badge({ domain: 'new.example.com', verified: false, eligible: false, score: null, grade: null, lastScan: null, reasons: ['Verify that you own the domain', 'Run a scan'] }),
  badge({ domain: 'weak.example.com', eligible: false, score: 41, grade: 'F', reasons: ['Reach a score of 60 or more'] }),
];

const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="390" height="84" role="img" aria-label="Protected by Rampart"><title>Protected by Rampart</title></svg>';

async function showPage(badges: MyBadgeView[] = BADGES) {
  const api = stubApi({ 'GET /api/me/badges': { status: 200, body: { badges } } });
  renderWithProviders(
    <AuthTestProvider value={{ status: 'signed-in' }}>
      <BadgeSection />
    </AuthTestProvider>,
    { route: '/dashboard/badge' },
  );
  await screen.findByRole('heading', { name: 'Customise your badge' });
  return api;
}

const row = (domain: string) => screen.getByRole('listitem', { name: domain });
const preview = () => screen.getByRole('img', { name: /^Badge preview for / }) as HTMLImageElement;
const embedCode = () => (screen.getByLabelText('Embed code') as HTMLTextAreaElement).value;
const choose = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

function stubClipboard(writeText: (text: string) => Promise<void>) {
  const spy = vi.fn(writeText);
  Object.defineProperty(navigator, 'clipboard', { value: { writeText: spy }, configurable: true });
  return spy;
}

describe('Security Badge page', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  it("lists each domain's eligibility as the API judges it: score dot, score, last scan (en-AU), 'Eligible' or the reasons", async () => {
    // Prepare
    const api = await showPage();

    // Act
    const rows = BADGES.map((b) => row(b.domain));

    // Assess
    expect(api.callsTo('GET', '/api/me/badges')).toHaveLength(1);
    expect(rows.map((r) => r.querySelector('[data-score-dot]')?.getAttribute('data-score-dot'))).toEqual(['green', 'yellow', 'none', 'red']);
    expect(within(rows[0]!).getByText(/^Score 87/).textContent).toBe('Score 87 (grade B) · Last scan 20 Nov 2026');
    expect(within(rows[0]!).getByText('Eligible')).toBeTruthy();
    expect(within(rows[1]!).queryByText('Eligible')).toBeNull();
    expect(within(rows[1]!).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Scan again (the last scan is over 30 days old)',
      'Subscribe to a monitoring plan or buy a security audit',
    ]);
    expect(within(rows[2]!).getByText(/^Score/).textContent).toBe('Score — · Last scan never');
    expect(within(rows[2]!).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['Verify that you own the domain', 'Run a scan']);
    expect(within(rows[3]!).getByText('Reach a score of 60 or more')).toBeTruthy();
  });

  it('says what each domain\'s badge image says, in its words: the grade only when eligible (weak.example.com\'s F 41 is not on its badge)', async () => {
    // Prepare
    await showPage();

    // Act
    const says = BADGES.map((b) => within(row(b.domain)).getByTestId('badge-says').textContent);

    // Assess: the detailed badge's lines (lambdas/domain/badge.ts renderBadgeSvg)
    expect(says).toEqual([
      'Your badge shows: Protected by Rampart · Grade B · Score 87/100 · Last scan 20 Nov 2026',
      'Your badge shows: Security status: not verified · No current security grade',
      'Your badge shows: Security status: not verified · No current security grade',
      'Your badge shows: Security status: not verified · No current security grade',
    ]);
  });

  it('previews the real badge from the API, its src following the domain, theme, size and style', async () => {
    // Prepare
    await showPage();
    const first = preview().getAttribute('src');

    // Act
    choose('Theme', 'dark');
    const dark = preview().getAttribute('src');
    choose('Size', 'large');
    choose('Style', 'compact');
    const compactLarge = { src: preview().getAttribute('src'), width: preview().width, height: preview().height };
    choose('Domain', 'blog.example.com');

    // Assess
    expect(first).toBe('/badge/shop.example.com.svg?theme=light&size=medium&style=detailed');
    expect(dark).toBe('/badge/shop.example.com.svg?theme=dark&size=medium&style=detailed');
    expect(compactLarge).toEqual({ src: '/badge/shop.example.com.svg?theme=dark&size=large&style=compact', width: 330, height: 84 });
    expect(preview().getAttribute('src')).toBe('/badge/blog.example.com.svg?theme=dark&size=large&style=compact');
    expect(preview().alt).toBe('Badge preview for blog.example.com');
    expect(screen.getByText(/blog.example.com is not eligible yet/)).toBeTruthy();
  });

  it('writes a read-only embed code linking the badge image to the verify page, with the chosen options', async () => {
    // Prepare
    await showPage();

    // Act
    const before = embedCode();
    choose('Style', 'minimal');
    const after = embedCode();

    // Assess
    expect((screen.getByLabelText('Embed code') as HTMLTextAreaElement).readOnly).toBe(true);
    expect(before).toBe(
      `<a href="${ORIGIN}/verify/shop.example.com" target="_blank" rel="noopener">` +
        `<img src="${ORIGIN}/badge/shop.example.com.svg?theme=light&amp;size=medium&amp;style=detailed" alt="Protected by Rampart — view security status" width="260" height="80">` +
        '</a>',
    );
    expect(after).toContain(`src="${ORIGIN}/badge/shop.example.com.svg?theme=light&amp;size=medium&amp;style=minimal"`);
    expect(after).toContain('width="280" height="28"');
  });

  it("copies the embed code and says 'Copied to clipboard!' for 2 seconds", async () => {
    // Prepare
    await showPage();
    const writeText = stubClipboard(async () => undefined);
    vi.useFakeTimers();

    // Act
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Copy Code' })));
    const shown = screen.getByRole('status').textContent;
    await act(async () => vi.advanceTimersByTime(COPIED_FOR_MS - 1));
    const stillShown = screen.getByRole('status').textContent;
    await act(async () => vi.advanceTimersByTime(1));

    // Assess
    expect(writeText).toHaveBeenCalledWith(embedCode());
    expect(shown).toBe(COPIED);
    expect(stillShown).toBe(COPIED);
    expect(screen.getByRole('status').textContent).toBe('');
  });

  it('says so when the browser refuses the clipboard, instead of claiming it copied', async () => {
    // Prepare
    await showPage();
    stubClipboard(async () => {
      throw new DOMException('Write permission denied.', 'NotAllowedError');
    });

    // Act
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Copy Code' })));

    // Assess
    expect(screen.getByRole('status').textContent).toBe('Could not copy. Select the code and copy it yourself.');
  });

  it('downloads the SVG the API serves for the chosen options as {domain}-badge.svg', async () => {
    // Prepare
    await showPage();
    choose('Theme', 'dark');
    choose('Size', 'large');
    const fetched: string[] = [];
    const answer = globalThis.fetch;
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), ORIGIN);
      if (url.pathname.startsWith('/badge/')) {
        fetched.push(`${url.pathname}${url.search}`);
        return new Response(SVG, { status: 200, headers: { 'content-type': 'image/svg+xml; charset=utf-8' } });
      }
      return answer(input, init);
    });
    const saved: Blob[] = [];
    const revokeObjectURL = vi.fn();
    class StubUrl extends URL {
      static override createObjectURL = (blob: Blob) => {
        saved.push(blob);
        return 'blob:http://localhost/badge';
      };
      static override revokeObjectURL = revokeObjectURL;
    }
    vi.stubGlobal('URL', StubUrl);
    const clicked: { href: string; download: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.getAttribute('href') ?? '', download: this.download });
    });

    // Act
    fireEvent.click(screen.getByRole('button', { name: 'Download SVG' }));
    await vi.waitFor(() => expect(clicked).toHaveLength(1));

    // Assess
    expect(fetched).toEqual(['/badge/shop.example.com.svg?theme=dark&size=large&style=detailed']);
    expect(clicked).toEqual([{ href: 'blob:http://localhost/badge', download: 'shop.example.com-badge.svg' }]);
    expect(saved[0]!.type).toMatch(/^image\/svg\+xml/);
    expect(await saved[0]!.text()).toBe(SVG);
    await vi.waitFor(() => expect(revokeObjectURL).toHaveBeenCalledWith('blob:http://localhost/badge'), { timeout: 2_000 });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("says so when the badge can't be downloaded", async () => {
    // Prepare
    await showPage();
    const answer = globalThis.fetch;
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) =>
      String(input).includes('/badge/') ? new Response(JSON.stringify({ error: 'internal_error', message: 'Something went wrong on our side.' }), { status: 500 }) : answer(input, init),
    );

    // Act
    fireEvent.click(screen.getByRole('button', { name: 'Download SVG' }));

    // Assess
    expect((await screen.findByRole('alert')).textContent).toBe('The badge could not be downloaded: Something went wrong on our side.');
  });

  it("'Get API' shows the documented badge URL pattern and this badge's URL", async () => {
    // Prepare
    await showPage();
    const button = screen.getByRole('button', { name: 'Get API' });

    // Act
    fireEvent.click(button);

    // Assess
    expect(button.getAttribute('aria-expanded')).toBe('true');
    const panel = document.getElementById(button.getAttribute('aria-controls')!)!;
    expect(within(panel).getByText(`${ORIGIN}/badge/{domain}.svg?theme=light|dark&size=small|medium|large&style=minimal|compact|detailed`)).toBeTruthy();
    expect(within(panel).getByText(`${ORIGIN}/badge/shop.example.com.svg?theme=light&size=medium&style=detailed`)).toBeTruthy();
    expect(within(panel).getByText(`${ORIGIN}/verify/shop.example.com`)).toBeTruthy();
  });

  it('without domains, points to Settings instead of a customiser, and keeps the requirements note', async () => {
    // Prepare
    stubApi({ 'GET /api/me/badges': { status: 200, body: { badges: [] } } });

    // Act
    renderWithProviders(
      <AuthTestProvider value={{ status: 'signed-in' }}>
        <BadgeSection />
      </AuthTestProvider>,
    );

    // Assess
    expect((await screen.findByRole('link', { name: 'Add and verify a domain' })).getAttribute('href')).toBe('/dashboard/settings?tab=domains');
    expect(screen.queryByRole('heading', { name: 'Customise your badge' })).toBeNull();
    const requirements = screen.getByRole('heading', { name: 'Requirements' }).parentElement!;
    expect(requirements.textContent).toContain('its security score is 60 or more');
    expect(requirements.textContent).toContain('at most 30 days old');
    expect(requirements.textContent).toContain('active subscription, or a paid security audit');
  });
});
