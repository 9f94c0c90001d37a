import { createHash } from 'node:crypto';
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
 *   client's PDF reports and report emails. The logo is checked byte by byte here: a PNG signature,
 *   an IHDR chunk first with sane dimensions, an IEND chunk last, at most LOGO_MAX_BYTES. No SVG
 *   (it can carry scripts and links, and the PDF library cannot draw it) and no remote URL is fetched.
 */

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The logo's PNG bytes, or a ValidationError naming the `logo` field. */
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

/** A branding input checked (the logo too) and stamped: `version` is a digest of what changes the PDFs. */
export function parseBranding(input: unknown, now: Date): ProviderBranding {
  const { name, colour, logo } = parseContract(brandingInputSchema, input);
  if (logo) logoBytes(logo);
  const version = createHash('sha256')
    .update(JSON.stringify([name, colour, logo ?? '']))
    .digest('base64url')
    .slice(0, 16);
  return { name, colour, logo: logo ?? null, updatedAt: now.toISOString(), version };
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
