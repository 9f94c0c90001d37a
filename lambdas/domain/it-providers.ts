import { createHash } from 'node:crypto';
import { inflateSync } from 'node:zlib';
import { PNG } from 'pngjs';
import { parseContract } from './contract.js';
import { ValidationError } from './errors.js';
import {
  brandingInputSchema,
  type ClientDomainOverview,
  type ClientOverview,
  itProviderMessages,
  LOGO_DATA_URL_PREFIX,
  LOGO_MAX_BYTES,
  LOGO_MAX_PIXELS,
  type ProviderBranding,
} from './it-provider.contract.js';
import type { ProviderLink } from './organisations.js';
export { roleInClient } from './organisations.js';
import type { SiteScan } from './ports.js';
import { type IssueHistory, isOverdue } from './time-to-fix.js';

/**
 * IT providers (issue 22 item 3), the rules in one place:
 * - A client organisation's owner invites a provider with the `provider` role; the provider
 *   organisation's owner accepts, which links the two (lambdas/use-cases/organisations.ts). The
 *   provider's owner and admins then act in the client as admins, its viewers as viewers, through
 *   the same `X-Rampart-Org` header as members; never as the client's owner (billing, members and
 *   deletion stay the client's). Billing stays per client: each client organisation keeps its own plan.
 * - The provider's branding (name, one colour, an optional PNG logo) replaces the product's in the
 *   client's PDF reports and report emails. The logo is a PNG only (no SVG: it can carry scripts and
 *   links, and the PDF library cannot draw it; no JPEG; no remote URL is fetched), and it is decoded,
 *   not trusted (issue 28 finding 4: a PNG whose IDAT was not zlib made pdf-lib spin forever): every
 *   pixel is decoded by pngjs within limits on size, dimensions and decoded bytes, and only the pixels
 *   are kept, re-encoded as a plain RGB or RGBA PNG (no tEXt, no other ancillary chunk survives).
 *   The PDF path decodes a stored logo again before embedding it, and draws the report without it
 *   when it does not decode (a logo stored before this rule).
 */

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The logo's PNG bytes from its data URL (structure only: `cleanLogo` decodes it), or a ValidationError naming the `logo` field. */
export function logoBytes(dataUrl: string): Buffer {
  const refuse = () => new ValidationError(itProviderMessages.logo, { logo: itProviderMessages.logo });
  if (!dataUrl.startsWith(LOGO_DATA_URL_PREFIX)) throw refuse();
  const base64 = dataUrl.slice(LOGO_DATA_URL_PREFIX.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(base64) || base64.length % 4 !== 0) throw refuse();
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length > LOGO_MAX_BYTES || bytes.length < PNG_SIGNATURE.length + 25 + 12) throw refuse();
  if (!bytes.subarray(0, 8).equals(PNG_SIGNATURE)) throw refuse();
  // The first chunk: length 13, type IHDR, width and height (big-endian).
  if (bytes.readUInt32BE(8) !== 13 || bytes.toString('latin1', 12, 16) !== 'IHDR') throw refuse();
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  if (width < 1 || height < 1 || width > LOGO_MAX_PIXELS || height > LOGO_MAX_PIXELS) throw refuse();
  if (bytes.toString('latin1', bytes.length - 8, bytes.length - 4) !== 'IEND') throw refuse();
  return bytes;
}

/** The most a logo may inflate to: 1024 × 1024 pixels of 16-bit RGBA, with each row's filter byte and Adam7's extra rows. */
export const LOGO_MAX_DECODED_BYTES = (LOGO_MAX_PIXELS * 8 + 1) * LOGO_MAX_PIXELS * 2;
/** The most a re-encoded logo may take (a palette image grows when stored as RGB(A)); far below DynamoDB's 400 KB item. */
export const LOGO_MAX_STORED_BYTES = 2 * LOGO_MAX_BYTES;

const logoRefusal = (why: string) => new ValidationError(`${itProviderMessages.logo}: ${why}`, { logo: itProviderMessages.logo });

/**
 * The logo decoded and re-encoded: every chunk's CRC checked, the colour type, bit depth and
 * dimensions known and within limits, the image data inflated within LOGO_MAX_DECODED_BYTES and
 * decoded to pixels; the answer is a fresh PNG of those pixels (RGB when fully opaque, else RGBA),
 * IHDR, IDAT and IEND only. Anything else is a ValidationError naming the `logo` field.
 */
export function cleanLogo(bytes: Uint8Array): Buffer {
  const input = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (input.length > LOGO_MAX_STORED_BYTES) throw logoRefusal('the file is too large');
  if (input.length < 8 + 25 || !input.subarray(0, 8).equals(PNG_SIGNATURE)) throw logoRefusal('it is not a PNG file');
  if (input.readUInt32BE(8) !== 13 || input.toString('latin1', 12, 16) !== 'IHDR') throw logoRefusal('it is not a PNG file');
  const width = input.readUInt32BE(16);
  const height = input.readUInt32BE(20);
  if (width < 1 || height < 1 || width > LOGO_MAX_PIXELS || height > LOGO_MAX_PIXELS) throw logoRefusal('the image is too large');
  // Inflated once here with a ceiling, so that no image data (an interlaced one included, which
  // pngjs inflates without one) can grow past the limit before pngjs decodes it.
  const idat = idatData(input);
  if (idat.length === 0) throw logoRefusal('it has no image data');
  try {
    inflateSync(idat, { maxOutputLength: LOGO_MAX_DECODED_BYTES });
  } catch {
    throw logoRefusal('its image data does not decode');
  }
  let image: PNG;
  try {
    image = PNG.sync.read(input, { checkCRC: true });
  } catch {
    throw logoRefusal('the image does not decode');
  }
  const opaque = image.data.every((value, index) => index % 4 !== 3 || value === 255);
  const clean = PNG.sync.write(
    Object.assign(new PNG({ width: image.width, height: image.height }), { data: image.data, gamma: 0 }),
    { colorType: opaque ? 2 : 6, inputColorType: 6, bitDepth: 8 },
  );
  if (clean.length > LOGO_MAX_STORED_BYTES) throw logoRefusal('the image is too large once decoded');
  return clean;
}

/** The IDAT chunks' data joined, walking the chunks within the file (a length past the end stops the walk). */
function idatData(bytes: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let at = 8; at + 12 <= bytes.length; ) {
    const length = bytes.readUInt32BE(at);
    if (at + 12 + length > bytes.length) break;
    if (bytes.toString('latin1', at + 4, at + 8) === 'IDAT') parts.push(bytes.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  return Buffer.concat(parts);
}

/** A branding input checked (the logo too) and stamped: `version` is a digest of what changes the PDFs. */
export function parseBranding(input: unknown, now: Date): ProviderBranding {
  const { name, colour, logo } = parseContract(brandingInputSchema, input);
  // What is stored is the re-encoded image, never the bytes that were sent.
  const stored = logo ? `${LOGO_DATA_URL_PREFIX}${cleanLogo(logoBytes(logo)).toString('base64')}` : null;
  const version = createHash('sha256')
    .update(JSON.stringify([name, colour, stored ?? '']))
    .digest('base64url')
    .slice(0, 16);
  return { name, colour, logo: stored, updatedAt: now.toISOString(), version };
}

/** The colour as 0–1 channels (pdf-lib's rgb). */
export function colourChannels(hex: string): { r: number; g: number; b: number } {
  const value = Number.parseInt(hex.slice(1), 16);
  return { r: ((value >> 16) & 0xff) / 255, g: ((value >> 8) & 0xff) / 255, b: (value & 0xff) / 255 };
}

const GRADE_ORDER = ['A', 'B', 'C', 'D', 'F'];

/**
 * One client's line of the provider's overview: each of its domains with the latest completed
 * scan's grade and the issues open past their time-to-fix target at `now`.
 */
export function clientOverview(
  link: ProviderLink,
  domains: readonly string[],
  latest: ReadonlyMap<string, SiteScan | undefined>,
  histories: readonly IssueHistory[],
  now: Date,
): ClientOverview {
  const byDomain = new Map(histories.map((history) => [history.domain, history]));
  const rows: ClientDomainOverview[] = [...domains].sort().map((domain) => {
    const scan = latest.get(domain);
    return {
      domain,
      grade: scan?.grade ?? null,
      score: scan?.score ?? null,
      lastScanAt: scan?.completedAt ?? null,
      overdue: (byDomain.get(domain)?.occurrences ?? []).filter((occurrence) => isOverdue(occurrence, now)).length,
    };
  });
  const grades = rows.map((row) => row.grade).filter((grade): grade is string => grade !== null);
  const worstGrade = grades.length === 0 ? null : grades.reduce((worst, grade) => (GRADE_ORDER.indexOf(grade) > GRADE_ORDER.indexOf(worst) ? grade : worst));
  return { orgId: link.clientId, name: link.clientName, linkedAt: link.linkedAt, domains: rows, overdue: rows.reduce((sum, row) => sum + row.overdue, 0), worstGrade };
}
