import type { CheckResult } from './audit.js';
import { checkTitle, type NotCheckedCause } from './coverage.js';
import { type ScannerAccessGuide, type ScannerProduct, scannerAccessGuide } from './platform-guides.js';
import { scannerPageUrl, scannerUserAgent } from './product.js';
import { num, record, str } from './unknown-values.js';

/**
 * DECISIONS "Blocked is a result": what a report says first when the site's pages answered the
 * scanner with a bot challenge, an edge block, a login, a rate limit or an outage instead of the
 * site — in plain words, with the steps to let the scanner in on that platform. Read from the
 * checks the engine kept out (their `data.blocked`, the scanner's SiteBlock), so the results page,
 * the shared page, the PDF and the API say the same thing.
 */
export interface SiteAccessView {
  blocked: true;
  /** The scanner's BlockKind: challenge, block, rate_limited, unavailable or auth. */
  kind: string;
  /** Stable vendor id (cloudflare, akamai …), null when only the generic rule matched. */
  vendor: string | null;
  vendorName: string | null;
  /** The status the landing page answered (403, 429 …). */
  status: number | null;
  url: string | null;
  /** The scanner's one sentence: what it got instead of the site. */
  reason: string;
  retryAfterSeconds: number | null;
  /** The report's first sentence: "We could not see your site: …". */
  headline: string;
  /** The checks the site kept out, each "not checked" with its cause. */
  checks: { check: string; title: string; cause: NotCheckedCause }[];
  /** How to let the scanner in (platform-guides); null when the view was built without the deployment's product. */
  guide: ScannerAccessGuide | null;
}

/** The scanner as the guide names it, from the deployment's settings. */
export function scannerProduct(productName: string, siteUrl: string): ScannerProduct {
  return { name: productName, userAgent: scannerUserAgent(productName, siteUrl), scannerPageUrl: scannerPageUrl(siteUrl) };
}

/** The wall in front of the site, or null when every check saw the site (or none was kept out). */
export function siteAccessOf(checks: readonly CheckResult[], scanner?: ScannerProduct): SiteAccessView | null {
  // A check that ran (`ok`) saw the site, whatever it noted; only those kept out carry the wall.
  const kept = checks.filter((check) => check.status !== 'ok' && record(check.data?.blocked) !== undefined);
  if (kept.length === 0) return null;
  // The headers check's wall first: it is the landing page the others stand behind.
  const first = kept.find((check) => check.name === 'http') ?? kept[0]!;
  const block = record(first.data!.blocked)!;
  const kind = str(block.kind) ?? 'block';
  const vendor = str(block.vendor) ?? null;
  const vendorName = str(block.vendorName) ?? null;
  const status = num(block.status) ?? null;
  return {
    blocked: true,
    kind,
    vendor,
    vendorName,
    status,
    url: str(block.url) ?? null,
    reason: str(block.reason) ?? first.reason ?? 'The site did not show the scanner its pages.',
    retryAfterSeconds: num(block.retryAfterSeconds) ?? null,
    headline: headlineOf(kind, vendorName, status),
    checks: kept.map((check) => ({ check: check.name, title: checkTitle(check.name), cause: causeOf(check) })),
    guide: scanner ? scannerAccessGuide(vendor, kind, scanner) : null,
  };
}

function causeOf(check: CheckResult): NotCheckedCause {
  if (check.status === 'skipped') return check.cause ?? 'blocked';
  return check.status === 'timeout' ? 'timeout' : 'error';
}

function headlineOf(kind: string, vendorName: string | null, status: number | null): string {
  const answered = status === null ? '' : ` (${status})`;
  switch (kind) {
    case 'challenge':
      return `We could not see your site: ${vendorName ? `${vendorName}’s bot protection` : 'a bot-protection service'} answered our scanner with a challenge${answered} instead of the site.`;
    case 'rate_limited':
      return `We could not see your site: ${vendorName ?? 'it'} limited how fast our scanner may ask${answered}, so its pages were not checked.`;
    case 'unavailable':
      return `We could not see your site: it answered${status === null ? '' : ` ${status}`} with an error page (maintenance or an outage) instead of the site.`;
    case 'auth':
      return `We could not see your site: it asks for a login${answered}, and the scanner checks only what the public sees.`;
    default:
      return `We could not see your site: ${vendorName ?? 'a service in front of it'} refused our scanner’s requests${answered}.`;
  }
}
