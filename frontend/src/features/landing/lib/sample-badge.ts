/**
 * The sample 'Protected by' badge on the landing page: one SVG string, shown as an image and saved
 * by Download, and the embed snippet a client would paste (DECISIONS "Badge and verify": the image
 * is /badge/{domain}.svg, the link /verify/{domain}). The real badge is rendered server-side.
 */
export const SAMPLE_BADGE_DOMAIN = 'example.com';
export const BADGE_WIDTH = 220;
export const BADGE_HEIGHT = 56;

const escapeXml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');

export function sampleBadgeSvg(productName: string, grade = 'A'): string {
  const name = escapeXml(productName);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${BADGE_WIDTH}" height="${BADGE_HEIGHT}" viewBox="0 0 ${BADGE_WIDTH} ${BADGE_HEIGHT}" role="img" aria-label="Protected by ${name}, grade ${escapeXml(grade)}">`,
    `<title>Protected by ${name}, grade ${escapeXml(grade)}</title>`,
    '<rect x="0.5" y="0.5" width="219" height="55" rx="10" fill="#ffffff" stroke="#cbd5e1"/>',
    '<path d="M28 12l13 5v9c0 8.5-5.6 15.4-13 18-7.4-2.6-13-9.5-13-18v-9z" fill="#1d4ed8"/>',
    '<path d="M22.5 28l4 4 7.5-8" fill="none" stroke="#ffffff" stroke-width="2.5" stroke-linecap="round" stroke-linejoin="round"/>',
    '<text x="52" y="24" font-family="system-ui, -apple-system, Segoe UI, Roboto, sans-serif" font-size="10" fill="#475569" letter-spacing="1">PROTECTED BY</text>',
    `<text x="52" y="42" font-family="system-ui, -apple-system, Segoe UI, Roboto, sans-serif" font-size="16" font-weight="700" fill="#0f172a">${name}</text>`,
    '<rect x="168" y="10" width="40" height="36" rx="8" fill="#16a34a"/>',
    `<text x="188" y="35" text-anchor="middle" font-family="system-ui, -apple-system, Segoe UI, Roboto, sans-serif" font-size="20" font-weight="700" fill="#ffffff">${escapeXml(grade)}</text>`,
    '</svg>',
  ].join('');
}

/** The image as a data: URL (the CSP's img-src allows data:), so what is shown is exactly what Download saves. */
export const svgDataUrl = (svg: string): string => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;

/** SPEC §3 "embedCode": a link to the verification page around the badge image, keyed by domain, theme and size. */
export function badgeEmbedCode(origin: string, productName: string, domain = SAMPLE_BADGE_DOMAIN): string {
  const host = encodeURIComponent(domain);
  const alt = escapeXml(`Protected by ${productName}`);
  return (
    `<a href="${origin}/verify/${host}" target="_blank" rel="noopener">` +
    `<img src="${origin}/badge/${host}.svg?theme=light&amp;size=medium" alt="${alt}" width="${BADGE_WIDTH}" height="${BADGE_HEIGHT}"></a>`
  );
}

export const badgeFileName = (productName: string): string =>
  `${productName.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')}-badge-sample.svg`;
