import * as z from 'zod';
import { DomainError } from './errors.js';

/**
 * The 'Protected by {product}' badge (issue 8; DECISIONS "Badge and verify", "Badge eligibility").
 *
 * Choices, in one place:
 * - Eligible = a verified domain, a latest completed scan scoring ≥ 60 (BADGE_MIN_SCORE) that
 *   completed at most 30 days ago (BADGE_MAX_SCAN_AGE_DAYS, inclusive), and an entitlement: an active
 *   subscription, or a paid audit whose `badgeEligibleUntil` is still ahead (30 days for Basic, 90 for
 *   Pro; the window ends at that instant). Anything else, including an unknown domain, gets the
 *   neutral grey 'not verified' badge: no grade, no seal, no fallback score (the spec's 85 is dropped).
 * - Defaults follow SPEC §9 "Badge defaults": light, medium, detailed.
 * - Each style has one layout in its own viewBox; the size only scales it (small ×0.75, medium ×1,
 *   large ×1.5), so the embed code's width/height always match the image.
 * - The SVG is shown on customers' sites: no scripts, no links, no images, no external fonts (system
 *   font stack only), every text XML-escaped. Dates are en-AU ('22 Nov 2026'), in UTC unless told.
 * - Text that would overflow its line is squeezed with textLength up to 1.5× its natural width,
 *   beyond that cut with '…' (a long domain in the detailed style).
 *
 * Pure and frontend-safe (zod and domain types only): the dashboard's preview and embed code use it.
 */

export const badgeThemes = ['light', 'dark'] as const;
export const badgeSizes = ['small', 'medium', 'large'] as const;
export const badgeStyles = ['minimal', 'compact', 'detailed'] as const;
export type BadgeTheme = (typeof badgeThemes)[number];
export type BadgeSize = (typeof badgeSizes)[number];
export type BadgeStyle = (typeof badgeStyles)[number];

export const BADGE_DEFAULTS = { theme: 'light', size: 'medium', style: 'detailed' } as const satisfies BadgeOptions;
export const BADGE_MIN_SCORE = 60;
export const BADGE_MAX_SCAN_AGE_DAYS = 30;

export interface BadgeOptions {
  theme: BadgeTheme;
  size: BadgeSize;
  style: BadgeStyle;
}

export const badgeMessages = {
  theme: 'Theme must be light or dark',
  size: 'Size must be small, medium or large',
  style: 'Style must be minimal, compact or detailed',
} as const;

/** `GET /badge/{domain}.svg` query; other parameters (a cache-buster) are ignored. */
export const badgeQuerySchema = z.object({
  theme: z.enum(badgeThemes, { error: badgeMessages.theme }).default(BADGE_DEFAULTS.theme),
  size: z.enum(badgeSizes, { error: badgeMessages.size }).default(BADGE_DEFAULTS.size),
  style: z.enum(badgeStyles, { error: badgeMessages.style }).default(BADGE_DEFAULTS.style),
});
export type BadgeQuery = z.output<typeof badgeQuerySchema>;

// ---- Eligibility ----

export interface BadgeEligibilityInput {
  domainVerified: boolean;
  /** The domain's latest completed scan; absent when it has none. */
  latestScan?: { score: number; grade: string; completedAt: string };
  /** What the owner pays for: `activeSubscription` is a subscription in status `active`. */
  entitlement?: { activeSubscription: boolean; paidAuditEligibleUntil?: string };
  now: Date;
}

export interface BadgeEligibility {
  eligible: boolean;
  /** What stands between the domain and its badge, in the order the owner can fix it; empty when eligible. */
  reasons: string[];
}

export const badgeReasons = {
  notVerified: 'Verify that you own the domain',
  noScan: 'Run a scan',
  lowScore: `Reach a score of ${BADGE_MIN_SCORE} or more`,
  staleScan: `Scan again (the last scan is over ${BADGE_MAX_SCAN_AGE_DAYS} days old)`,
  noEntitlement: 'Subscribe to a monitoring plan or buy a security audit',
} as const;

const DAY_MS = 86_400_000;

export function badgeEligibility(input: BadgeEligibilityInput): BadgeEligibility {
  const reasons: string[] = [];
  const now = input.now.getTime();
  if (!input.domainVerified) reasons.push(badgeReasons.notVerified);
  const scan = input.latestScan;
  const completedAt = scan ? Date.parse(scan.completedAt) : Number.NaN;
  if (!scan || !Number.isFinite(scan.score) || Number.isNaN(completedAt)) {
    reasons.push(badgeReasons.noScan);
  } else {
    if (scan.score < BADGE_MIN_SCORE) reasons.push(badgeReasons.lowScore);
    if (now - completedAt > BADGE_MAX_SCAN_AGE_DAYS * DAY_MS) reasons.push(badgeReasons.staleScan);
  }
  const until = input.entitlement?.paidAuditEligibleUntil ? Date.parse(input.entitlement.paidAuditEligibleUntil) : Number.NaN;
  const paidAuditCurrent = !Number.isNaN(until) && now < until;
  if (!input.entitlement?.activeSubscription && !paidAuditCurrent) reasons.push(badgeReasons.noEntitlement);
  return { eligible: reasons.length === 0, reasons };
}

/**
 * DECISIONS "Who speaks for a site": a scan speaks for a site only at its landing URL, the root of the
 * site (what the owner's Quick Scan and monitoring rescans ask for: lambdas/domain/rescan-target.ts
 * keeps only the origin), never a deep path: a lead for /any-404-path measures a 404 page.
 */
export function isLandingUrl(targetUrl: string | undefined): boolean {
  if (!targetUrl) return false;
  try {
    const url = new URL(targetUrl);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.pathname === '/' && url.search === '';
  } catch {
    return false;
  }
}

/** What the badge shows: a grade only for an eligible domain. */
export type BadgeStatus = { eligible: true; grade: string; score: number; lastScan: string } | { eligible: false };

/** The status to render for the eligibility input: the latest scan's grade when eligible, else neutral. */
export function badgeStatus(input: BadgeEligibilityInput): BadgeStatus {
  const scan = input.latestScan;
  return badgeEligibility(input).eligible && scan ? { eligible: true, grade: scan.grade, score: scan.score, lastScan: scan.completedAt } : { eligible: false };
}

// ---- Words ----

/** The neutral badge's words (compact and detailed styles); the /verify page and the dashboard say the same. */
export const BADGE_NOT_VERIFIED = 'Security status: not verified';
export const BADGE_NO_GRADE = 'No current security grade';

/**
 * What stands in the way, worded for a visitor of /verify (the API's reasons are worded for the owner).
 * "Verified" is kept for the badge: the domain's ownership is "proven", so a proven domain whose badge
 * is not active is never called verified.
 */
export const badgeReasonsForVisitors: Readonly<Record<string, string>> = {
  [badgeReasons.notVerified]: 'The owner has not proven they control this domain',
  [badgeReasons.noScan]: 'No scan by the owner',
  [badgeReasons.lowScore]: `The latest scan by the owner scored below ${BADGE_MIN_SCORE}`,
  [badgeReasons.staleScan]: `No scan by the owner in the last ${BADGE_MAX_SCAN_AGE_DAYS} days`,
  [badgeReasons.noEntitlement]: 'No active plan or paid audit',
};

/** The status the badge image renders for an API view (GET /api/badges/{domain}, /api/me/badges): a grade only when eligible. */
export function badgeStatusOfView(view: { eligible: boolean; grade: string | null; score: number | null; lastScan: string | null }): BadgeStatus {
  return view.eligible && view.grade !== null && view.score !== null && view.lastScan !== null
    ? { eligible: true, grade: view.grade, score: view.score, lastScan: view.lastScan }
    : { eligible: false };
}

/** The badge's headline: 'Protected by {product}' when eligible, else the neutral status line. */
export function badgeHeadline(productName: string, status: BadgeStatus): string {
  return status.eligible ? `Protected by ${productName}` : BADGE_NOT_VERIFIED;
}

/** The detailed badge's lines under the domain, word for word: the grade and last scan, or the neutral lines. */
export function badgeStatusLines(status: BadgeStatus, timeZone?: string): string[] {
  return status.eligible
    ? [`Grade ${status.grade} · Score ${status.score}/100`, `Last scan ${formatBadgeDate(status.lastScan, timeZone)}`]
    : [BADGE_NOT_VERIFIED, BADGE_NO_GRADE];
}

// ---- Rendering ----

/** viewBox of each style's layout, at the medium size. */
export const BADGE_VIEWBOX: Record<BadgeStyle, { width: number; height: number }> = {
  minimal: { width: 280, height: 28 },
  compact: { width: 220, height: 56 },
  detailed: { width: 260, height: 80 },
};
export const BADGE_SCALE: Record<BadgeSize, number> = { small: 0.75, medium: 1, large: 1.5 };

/** The badge's width and height in CSS pixels for a style and size (the embed code's attributes). */
export function badgeDimensions(style: BadgeStyle, size: BadgeSize): { width: number; height: number } {
  const box = BADGE_VIEWBOX[style];
  return { width: Math.round(box.width * BADGE_SCALE[size]), height: Math.round(box.height * BADGE_SCALE[size]) };
}

export const BADGE_FONT_STACK = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";

interface Palette {
  background: string;
  border: string;
  text: string;
  muted: string;
  /** The grade seal and the minimal style's right side: ≥ 80 green, 60–79 amber (DECISIONS score colours). */
  good: string;
  fair: string;
  onSeal: string;
}

const PALETTES: Record<BadgeTheme, { eligible: Palette; neutral: Pick<Palette, 'background' | 'border' | 'text' | 'muted'> }> = {
  light: {
    eligible: { background: '#ffffff', border: '#d1d5db', text: '#111827', muted: '#4b5563', good: '#15803d', fair: '#b45309', onSeal: '#ffffff' },
    neutral: { background: '#f3f4f6', border: '#d1d5db', text: '#4b5563', muted: '#6b7280' },
  },
  dark: {
    eligible: { background: '#111827', border: '#374151', text: '#f9fafb', muted: '#d1d5db', good: '#22c55e', fair: '#f59e0b', onSeal: '#052e16' },
    neutral: { background: '#1f2937', border: '#4b5563', text: '#d1d5db', muted: '#9ca3af' },
  },
};

export interface RenderBadgeInput extends BadgeOptions {
  productName: string;
  domain: string;
  status: BadgeStatus;
  /** IANA time zone the last-scan date is written in (default UTC, so every server renders the same date). */
  timeZone?: string;
}

/** Characters XML 1.0 does not allow at all (control characters other than tab, LF, CR; lone surrogates; U+FFFE/F). */
// eslint-disable-next-line no-control-regex
const XML_INVALID = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Text for XML or HTML content and double- or single-quoted attributes. */
export function escapeMarkup(text: string): string {
  return text.replace(XML_INVALID, '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** '22 Nov 2026' (en-AU). */
export function formatBadgeDate(iso: string, timeZone = 'UTC'): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) throw new DomainError('badge_invalid_date', `Not a date: ${iso}`);
  return new Intl.DateTimeFormat('en-AU', { day: 'numeric', month: 'short', year: 'numeric', timeZone }).format(date);
}

/** Average advance of the system sans-serif fonts, in em: generous, so estimates err on the wide side. */
const CHAR_EM = { regular: 0.56, bold: 0.6 } as const;
const MAX_SQUEEZE = 1.5;

interface TextSpec {
  x: number;
  y: number;
  text: string;
  size: number;
  fill: string;
  bold?: boolean;
  /** Width available from x (start anchor) or centred on x (middle anchor). */
  maxWidth: number;
  anchor?: 'start' | 'middle';
}

function text(spec: TextSpec): string {
  const em = spec.bold ? CHAR_EM.bold : CHAR_EM.regular;
  const chars = [...spec.text];
  let content = spec.text;
  let estimate = chars.length * em * spec.size;
  if (estimate > spec.maxWidth * MAX_SQUEEZE) {
    const keep = Math.max(1, Math.floor((spec.maxWidth * MAX_SQUEEZE) / (em * spec.size)) - 1);
    content = `${chars.slice(0, keep).join('')}…`;
    estimate = (keep + 1) * em * spec.size;
  }
  const squeeze = estimate > spec.maxWidth ? ` textLength="${spec.maxWidth}" lengthAdjust="spacingAndGlyphs"` : '';
  const anchor = spec.anchor === 'middle' ? ' text-anchor="middle"' : '';
  const weight = spec.bold ? ' font-weight="700"' : '';
  return `<text x="${spec.x}" y="${spec.y}" font-size="${spec.size}"${weight} fill="${spec.fill}"${anchor}${squeeze}>${escapeMarkup(content)}</text>`;
}

/** A shield with a tick, drawn in a 16×20 box at (x, y). */
function shieldIcon(x: number, y: number, fill: string, tick: string): string {
  return (
    `<g transform="translate(${x} ${y})"><path d="M8 0 L16 3 V9 C16 14 12.6 18 8 20 C3.4 18 0 14 0 9 V3 Z" fill="${fill}"/>` +
    `<path d="M4.5 10 L7 12.5 L11.5 7.5" fill="none" stroke="${tick}" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"/></g>`
  );
}

/** The grade in a coloured disc. */
function seal(cx: number, cy: number, r: number, grade: string, fill: string, letter: string): string {
  return (
    `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${fill}"/>` +
    text({ x: cx, y: cy + r * 0.36, text: grade, size: Math.round(r), fill: letter, bold: true, maxWidth: r * 1.6, anchor: 'middle' })
  );
}

function frame(width: number, height: number, background: string, border: string): string {
  return `<rect x="0.5" y="0.5" width="${width - 1}" height="${height - 1}" rx="6" fill="${background}" stroke="${border}"/>`;
}

function eligibleBody(input: RenderBadgeInput, status: Extract<BadgeStatus, { eligible: true }>, width: number, height: number): string {
  const p = PALETTES[input.theme].eligible;
  const gradeColour = status.score >= 80 ? p.good : p.fair;
  const protectedBy = `Protected by ${input.productName}`;
  const date = formatBadgeDate(status.lastScan, input.timeZone);
  switch (input.style) {
    case 'minimal': {
      const split = 176;
      return [
        frame(width, height, p.background, p.border),
        `<path d="M${split} 0.5 H${width - 6.5} A6 6 0 0 1 ${width - 0.5} 6.5 V${height - 6.5} A6 6 0 0 1 ${width - 6.5} ${height - 0.5} H${split} Z" fill="${gradeColour}"/>`,
        shieldIcon(7, 4, gradeColour, p.background),
        text({ x: 29, y: 18.5, text: protectedBy, size: 11, fill: p.text, bold: true, maxWidth: split - 29 - 6 }),
        text({ x: (split + width) / 2, y: 18.5, text: `${status.grade} · ${date}`, size: 11, fill: p.onSeal, bold: true, maxWidth: width - split - 10, anchor: 'middle' }),
      ].join('');
    }
    case 'compact':
      return [
        frame(width, height, p.background, p.border),
        seal(28, 28, 18, status.grade, gradeColour, p.onSeal),
        text({ x: 54, y: 24, text: protectedBy, size: 12, fill: p.text, bold: true, maxWidth: width - 54 - 8 }),
        text({ x: 54, y: 41, text: `Grade ${status.grade} · ${date}`, size: 10, fill: p.muted, maxWidth: width - 54 - 8 }),
      ].join('');
    case 'detailed':
      return [
        frame(width, height, p.background, p.border),
        seal(36, 40, 24, status.grade, gradeColour, p.onSeal),
        text({ x: 70, y: 22, text: protectedBy, size: 13, fill: p.text, bold: true, maxWidth: width - 70 - 8 }),
        text({ x: 70, y: 39, text: input.domain, size: 11, fill: p.text, maxWidth: width - 70 - 8 }),
        ...badgeStatusLines(status, input.timeZone).map((line, i) => text({ x: 70, y: 55 + i * 15, text: line, size: 10, fill: p.muted, maxWidth: width - 70 - 8 })),
      ].join('');
  }
}

function neutralBody(input: RenderBadgeInput, width: number, height: number): string {
  const p = PALETTES[input.theme].neutral;
  switch (input.style) {
    case 'minimal':
      return [
        frame(width, height, p.background, p.border),
        text({ x: 10, y: 18.5, text: input.productName, size: 11, fill: p.text, bold: true, maxWidth: 150 }),
        text({ x: width - 10 - 80, y: 18.5, text: 'not verified', size: 11, fill: p.muted, maxWidth: 80 }),
      ].join('');
    case 'compact':
      return [
        frame(width, height, p.background, p.border),
        text({ x: 12, y: 24, text: input.productName, size: 12, fill: p.text, bold: true, maxWidth: width - 24 }),
        text({ x: 12, y: 41, text: BADGE_NOT_VERIFIED, size: 10, fill: p.muted, maxWidth: width - 24 }),
      ].join('');
    case 'detailed':
      return [
        frame(width, height, p.background, p.border),
        text({ x: 12, y: 22, text: input.productName, size: 13, fill: p.text, bold: true, maxWidth: width - 24 }),
        text({ x: 12, y: 39, text: input.domain, size: 11, fill: p.text, maxWidth: width - 24 }),
        ...badgeStatusLines({ eligible: false }).map((line, i) => text({ x: 12, y: 55 + i * 15, text: line, size: 10, fill: p.muted, maxWidth: width - 24 })),
      ].join('');
  }
}

/** The accessible name: what a screen reader says for the badge. */
export function badgeTitle(input: Pick<RenderBadgeInput, 'productName' | 'domain' | 'status' | 'timeZone'>): string {
  const { status } = input;
  return status.eligible
    ? `Protected by ${input.productName}: ${input.domain} has security grade ${status.grade} (score ${status.score}/100), last scanned ${formatBadgeDate(status.lastScan, input.timeZone)}`
    : `${input.productName} security badge: ${input.domain} is not verified`;
}

/** The badge as a standalone SVG document (served as image/svg+xml). */
export function renderBadgeSvg(input: RenderBadgeInput): string {
  const box = BADGE_VIEWBOX[input.style];
  const { width, height } = badgeDimensions(input.style, input.size);
  const title = escapeMarkup(badgeTitle(input));
  const body = input.status.eligible ? eligibleBody(input, input.status, box.width, box.height) : neutralBody(input, box.width, box.height);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${box.width} ${box.height}" role="img" aria-label="${title}" font-family="${BADGE_FONT_STACK}">` +
    `<title>${title}</title>${body}</svg>`
  );
}

// ---- Embedding ----

export interface BadgeLinkInput extends BadgeOptions {
  /** The site's public address, e.g. https://rampart.example (a trailing slash is fine). */
  siteUrl: string;
  domain: string;
}

const base = (siteUrl: string) => siteUrl.replace(/\/+$/, '');

/** The documented badge URL: `{site}/badge/{domain}.svg?theme=…&size=…&style=…`. */
export function badgeUrl(input: BadgeLinkInput): string {
  const query = new URLSearchParams({ theme: input.theme, size: input.size, style: input.style });
  return `${base(input.siteUrl)}/badge/${encodeURIComponent(input.domain)}.svg?${query.toString()}`;
}

/** The public page stating the domain's grade, last scan and verification. */
export function verifyUrl(input: Pick<BadgeLinkInput, 'siteUrl' | 'domain'>): string {
  return `${base(input.siteUrl)}/verify/${encodeURIComponent(input.domain)}`;
}

export function badgeAltText(productName: string): string {
  return `Protected by ${productName} — view security status`;
}

/** The HTML customers paste into their site: the badge image, linking to the verify page. */
export function badgeEmbedCode(input: BadgeLinkInput & { productName: string }): string {
  const { width, height } = badgeDimensions(input.style, input.size);
  return (
    `<a href="${escapeMarkup(verifyUrl(input))}" target="_blank" rel="noopener">` +
    `<img src="${escapeMarkup(badgeUrl(input))}" alt="${escapeMarkup(badgeAltText(input.productName))}" width="${width}" height="${height}">` +
    '</a>'
  );
}
