import { describe, expect, it } from 'vitest';
import {
  BADGE_DEFAULTS,
  badgeDimensions,
  badgeEligibility,
  type BadgeEligibilityInput,
  badgeEmbedCode,
  badgeMessages,
  badgeQuerySchema,
  badgeReasons,
  badgeSizes,
  badgeStatus,
  badgeStyles,
  badgeThemes,
  badgeUrl,
  formatBadgeDate,
  renderBadgeSvg,
  type RenderBadgeInput,
  verifyUrl,
} from '../../lambdas/domain/badge.js';
import { allElements, type MarkupElement, parseHtml, parseXml } from './support/markup-parser.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
const now = new Date('2026-11-25T10:00:00.000Z');
const DAY = 86_400_000;

const eligibleInput = (overrides: Partial<BadgeEligibilityInput> = {}): BadgeEligibilityInput => ({
  domainVerified: true,
  latestScan: { score: 85, grade: 'B', completedAt: '2026-11-22T03:00:00.000Z' },
  entitlement: { activeSubscription: true },
  now,
  ...overrides,
});

const combinations = badgeThemes.flatMap((theme) => badgeSizes.flatMap((size) => badgeStyles.map((style) => ({ theme, size, style }))));

const texts = (root: MarkupElement) => Array.from(root.getElementsByTagName('text')).map((t) => t.textContent ?? '');

/** What a badge on a customer's page must never do: run, link or load anything. */
function externalReferences(root: MarkupElement): string[] {
  const found: string[] = [];
  for (const element of allElements(root)) {
    if (['script', 'image', 'foreignObject', 'style', 'a', 'use', 'iframe', 'link'].includes(element.localName)) found.push(`<${element.localName}>`);
    for (const attribute of Array.from(element.attributes)) {
      if (/(^|:)href$|^src$|^on/i.test(attribute.name)) found.push(`${element.localName}@${attribute.name}`);
      if (/url\(|@import|https?:/i.test(attribute.value) && attribute.name !== 'xmlns') found.push(`${element.localName}@${attribute.name}=${attribute.value}`);
    }
  }
  return found;
}

describe('badge query', () => {
  it('defaults to the spec badge: light, medium, detailed', () => {
    expect(badgeQuerySchema.parse({})).toEqual({ theme: 'light', size: 'medium', style: 'detailed' });
    expect(BADGE_DEFAULTS).toEqual({ theme: 'light', size: 'medium', style: 'detailed' });
  });

  it('accepts every theme, size and style and ignores other parameters', () => {
    for (const options of combinations) expect(badgeQuerySchema.parse({ ...options, v: '3' })).toEqual(options);
  });

  it.each([
    ['theme', 'blue', badgeMessages.theme],
    ['size', 'huge', badgeMessages.size],
    ['style', 'fancy', badgeMessages.style],
    ['theme', '', badgeMessages.theme],
    ['style', ['compact', 'minimal'], badgeMessages.style],
  ])('refuses %s=%j with "%s"', (field, value, message) => {
    const result = badgeQuerySchema.safeParse({ [field]: value });

    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([[field, message]]);
  });
});

describe('badge eligibility', () => {
  it('is eligible with a verified domain, score ≥ 60, a scan within 30 days and an active subscription', () => {
    expect(badgeEligibility(eligibleInput())).toEqual({ eligible: true, reasons: [] });
  });

  it.each([
    ['an unverified domain', { domainVerified: false }, [badgeReasons.notVerified]],
    ['no completed scan', { latestScan: undefined }, [badgeReasons.noScan]],
    ['a scan with an unreadable date', { latestScan: { score: 90, grade: 'A', completedAt: 'yesterday' } }, [badgeReasons.noScan]],
    ['a score of 59', { latestScan: { score: 59, grade: 'F', completedAt: '2026-11-22T03:00:00.000Z' } }, [badgeReasons.lowScore]],
    ['a scan 30 days and 1 ms old', { latestScan: { score: 90, grade: 'A', completedAt: new Date(now.getTime() - 30 * DAY - 1).toISOString() } }, [badgeReasons.staleScan]],
    ['no subscription and no paid audit', { entitlement: { activeSubscription: false } }, [badgeReasons.noEntitlement]],
    ['no entitlement at all', { entitlement: undefined }, [badgeReasons.noEntitlement]],
    ['a paid audit whose window ended', { entitlement: { activeSubscription: false, paidAuditEligibleUntil: '2026-11-24T00:00:00.000Z' } }, [badgeReasons.noEntitlement]],
    ['a paid audit whose window ends right now', { entitlement: { activeSubscription: false, paidAuditEligibleUntil: now.toISOString() } }, [badgeReasons.noEntitlement]],
  ] as const)('is not eligible with %s', (_case, overrides, reasons) => {
    expect(badgeEligibility(eligibleInput(overrides as Partial<BadgeEligibilityInput>))).toEqual({ eligible: false, reasons });
  });

  it('accepts a score of exactly 60 and a scan exactly 30 days old', () => {
    const input = eligibleInput({ latestScan: { score: 60, grade: 'D', completedAt: new Date(now.getTime() - 30 * DAY).toISOString() } });

    expect(badgeEligibility(input).eligible).toBe(true);
  });

  it('accepts a paid audit within its window instead of a subscription', () => {
    const input = eligibleInput({ entitlement: { activeSubscription: false, paidAuditEligibleUntil: '2026-12-20T00:00:00.000Z' } });

    expect(badgeEligibility(input)).toEqual({ eligible: true, reasons: [] });
  });

  it('lists every missing requirement, in the order the owner can fix them', () => {
    const input: BadgeEligibilityInput = {
      domainVerified: false,
      latestScan: { score: 40, grade: 'F', completedAt: '2026-09-01T00:00:00.000Z' },
      entitlement: { activeSubscription: false },
      now,
    };

    expect(badgeEligibility(input).reasons).toEqual([badgeReasons.notVerified, badgeReasons.lowScore, badgeReasons.staleScan, badgeReasons.noEntitlement]);
  });

  it('gives the latest scan to render only when eligible', () => {
    expect(badgeStatus(eligibleInput())).toEqual({ eligible: true, grade: 'B', score: 85, lastScan: '2026-11-22T03:00:00.000Z' });
    expect(badgeStatus(eligibleInput({ domainVerified: false }))).toEqual({ eligible: false });
  });
});

describe('badge SVG', () => {
  const eligible: RenderBadgeInput['status'] = { eligible: true, grade: 'B', score: 85, lastScan: '2026-11-22T03:00:00.000Z' };
  const render = (overrides: Partial<RenderBadgeInput> = {}) =>
    renderBadgeSvg({ productName: 'Rampart', domain: 'shop.example.com', status: eligible, ...BADGE_DEFAULTS, ...overrides });

  it.each(combinations)('renders a protected $theme $size $style badge: product, grade and last-scan date', ({ theme, size, style }) => {
    const svg = parseXml(render({ theme, size, style }));

    const { width, height } = badgeDimensions(style, size);
    expect([svg.localName, svg.namespaceURI]).toEqual(['svg', SVG_NS]);
    expect([svg.getAttribute('width'), svg.getAttribute('height')]).toEqual([String(width), String(height)]);
    const [, , boxWidth, boxHeight] = (svg.getAttribute('viewBox') ?? '').split(' ').map(Number);
    expect(boxWidth! / boxHeight!).toBeCloseTo(width / height, 1);
    expect(svg.children[0]!.localName).toBe('title');
    expect(svg.children[0]!.textContent).toBe('Protected by Rampart: shop.example.com has security grade B (score 85/100), last scanned 22 Nov 2026');
    const content = texts(svg).join(' | ');
    expect(content).toContain('Protected by Rampart');
    expect(content).toMatch(/\bB\b/);
    expect(content).toContain('22 Nov 2026');
    expect(svg.getAttribute('font-family')).toMatch(/^system-ui,.*sans-serif$/);
    expect(externalReferences(svg)).toEqual([]);
  });

  it.each(combinations)('renders a neutral $theme $size $style badge without a grade or seal when not eligible', ({ theme, size, style }) => {
    const svg = parseXml(render({ theme, size, style, status: { eligible: false } }));

    const { width, height } = badgeDimensions(style, size);
    expect([svg.getAttribute('width'), svg.getAttribute('height')]).toEqual([String(width), String(height)]);
    expect(svg.children[0]!.textContent).toBe('Rampart security badge: shop.example.com is not verified');
    const content = texts(svg);
    expect(content.join(' ')).toContain('not verified');
    expect(content.join(' ')).toContain('Rampart');
    expect(content.some((t) => /\b[A-F]\b|Grade|Score|Protected|\d+\/100/.test(t))).toBe(false);
    expect(svg.getElementsByTagName('circle')).toHaveLength(0);
    expect(svg.getElementsByTagName('path')).toHaveLength(0);
    expect(externalReferences(svg)).toEqual([]);
  });

  it('scales one layout per style: small ×0.75, medium ×1, large ×1.5', () => {
    expect(badgeStyles.map((style) => badgeSizes.map((size) => badgeDimensions(style, size)))).toEqual([
      [{ width: 210, height: 21 }, { width: 280, height: 28 }, { width: 420, height: 42 }],
      [{ width: 165, height: 42 }, { width: 220, height: 56 }, { width: 330, height: 84 }],
      [{ width: 195, height: 60 }, { width: 260, height: 80 }, { width: 390, height: 120 }],
    ]);
  });

  it('escapes the product name and domain so the SVG stays well-formed and shows them as written', () => {
    const productName = `<&"'> Shield`;
    for (const status of [eligible, { eligible: false } as const]) {
      for (const style of badgeStyles) {
        const source = render({ productName, domain: 'a&b.example', style, status });
        const svg = parseXml(source);

        expect(source).not.toContain(`<&"'>`);
        expect(svg.children[0]!.textContent).toContain(productName);
        expect(texts(svg).some((t) => t.includes(productName))).toBe(true);
        expect(svg.getAttribute('aria-label')).toBe(svg.children[0]!.textContent);
        if (style === 'detailed') expect(texts(svg)).toContain('a&b.example');
      }
    }
  });

  it('drops characters XML cannot hold', () => {
    const svg = parseXml(render({ productName: 'Ram\u0000pa\u0007rt\ud800' }));

    expect(svg.children[0]!.textContent).toMatch(/^Protected by Rampart:/);
  });

  it('gives each theme its own background, and the grade its score colour (≥ 80 green, 60–79 amber)', () => {
    const background = (source: string) => parseXml(source).getElementsByTagName('rect')[0]!.getAttribute('fill');
    const sealColour = (score: number) => parseXml(render({ style: 'compact', status: { ...eligible, score } })).getElementsByTagName('circle')[0]!.getAttribute('fill');

    expect([background(render({ theme: 'light' })), background(render({ theme: 'dark' }))]).toEqual(['#ffffff', '#111827']);
    expect([background(render({ status: { eligible: false } })), background(render({ theme: 'dark', status: { eligible: false } }))]).toEqual(['#f3f4f6', '#1f2937']);
    expect([sealColour(80), sealColour(79)]).toEqual(['#15803d', '#b45309']);
  });

  it('squeezes a long line into its space and cuts a very long one with an ellipsis', () => {
    const domain = `${'very-long-subdomain-name.'.repeat(6)}example.com`;
    const svg = parseXml(render({ domain }));

    const line = Array.from(svg.getElementsByTagName('text')).find((t) => t.textContent?.startsWith('very-long'))!;
    expect(line.textContent).toMatch(/…$/);
    expect(line.textContent!.length).toBeLessThan(domain.length);
    expect(Number(line.getAttribute('textLength'))).toBeLessThanOrEqual(260);
    expect(line.getAttribute('lengthAdjust')).toBe('spacingAndGlyphs');
    expect(svg.children[0]!.textContent).toContain(domain);
  });

  it('writes the last-scan date in en-AU, in UTC unless a time zone is given', () => {
    expect(formatBadgeDate('2026-11-21T20:00:00.000Z')).toBe('21 Nov 2026');
    expect(formatBadgeDate('2026-11-21T20:00:00.000Z', 'Australia/Sydney')).toBe('22 Nov 2026');
    expect(() => formatBadgeDate('not a date')).toThrow('Not a date');
  });
});

describe('badge embed code', () => {
  const link = { siteUrl: 'https://rampart.example/', domain: 'shop.example.com', theme: 'dark', size: 'large', style: 'compact' } as const;

  it('points the image at the documented badge URL and the link at the verify page', () => {
    expect(badgeUrl(link)).toBe('https://rampart.example/badge/shop.example.com.svg?theme=dark&size=large&style=compact');
    expect(verifyUrl(link)).toBe('https://rampart.example/verify/shop.example.com');
  });

  it('gives back the chosen options when the badge URL is read by the badge route', () => {
    const url = new URL(badgeUrl(link));

    expect(url.pathname).toBe('/badge/shop.example.com.svg');
    expect(badgeQuerySchema.parse(Object.fromEntries(url.searchParams))).toEqual({ theme: 'dark', size: 'large', style: 'compact' });
  });

  it('is a link to the verify page around the badge image, with alt text and its size', () => {
    const body = parseHtml(badgeEmbedCode({ ...link, productName: 'Rampart' }));

    const anchor = body.querySelector('a')!;
    const image = anchor.querySelector('img')!;
    expect(body.children).toHaveLength(1);
    expect(anchor.getAttribute('href')).toBe('https://rampart.example/verify/shop.example.com');
    expect(anchor.getAttribute('rel')).toBe('noopener');
    expect(image.getAttribute('src')).toBe('https://rampart.example/badge/shop.example.com.svg?theme=dark&size=large&style=compact');
    expect(image.getAttribute('alt')).toBe('Protected by Rampart — view security status');
    expect([image.getAttribute('width'), image.getAttribute('height')]).toEqual(['330', '84']);
  });

  it('escapes attributes so a product name cannot break out of them', () => {
    const code = badgeEmbedCode({ ...link, productName: `"><script>alert(1)</script>'` });
    const body = parseHtml(code);

    expect(body.querySelectorAll('script')).toHaveLength(0);
    expect(body.querySelector('img')!.getAttribute('alt')).toBe(`Protected by "><script>alert(1)</script>' — view security status`);
    expect(code).toContain('&amp;size=large');
  });
});
