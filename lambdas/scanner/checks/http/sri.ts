/**
 * Observatory test "subresource-integrity": the page's `<script src>` tags. Scripts from another
 * site should carry an integrity hash, and none should come over plain HTTP (or a protocol-relative
 * URL, which is plain HTTP on an HTTP page).
 */
import { getDomain } from 'tldts';
import type { Finding } from '../../../domain/audit.js';
import { findingsFor } from '../../check.js';
import { startTags } from './html.js';
import { analyzed, CATEGORY, HTML_TYPES, mediaType, type Retrieved, sessionUrl, type TestOutcome } from './retrieved.js';

export type SriResult =
  | 'sri-implemented-and-all-scripts-loaded-securely'
  | 'sri-implemented-and-external-scripts-loaded-securely'
  | 'sri-not-implemented-response-not-html'
  | 'sri-not-implemented-but-no-scripts-loaded'
  | 'sri-not-implemented-but-all-scripts-loaded-from-secure-origin'
  | 'sri-not-implemented-but-external-scripts-loaded-securely'
  | 'sri-implemented-but-external-scripts-not-loaded-securely'
  | 'sri-not-implemented-and-external-scripts-not-loaded-securely';

export interface ExternalScript {
  src: string;
  integrity: string | null;
  /** Loaded over https (protocol-relative and http URLs are not). */
  secure: boolean;
}

export interface SriOutcome extends TestOutcome<'subresource-integrity', SriResult> {
  /** Scripts from another site (or protocol-relative), as the Observatory lists them. */
  externalScripts: ExternalScript[];
}

/** Best first, in the Observatory's order (which is not the order of the points). */
const GOODNESS: SriResult[] = [
  'sri-implemented-and-all-scripts-loaded-securely',
  'sri-implemented-and-external-scripts-loaded-securely',
  'sri-implemented-but-external-scripts-not-loaded-securely',
  'sri-not-implemented-but-external-scripts-loaded-securely',
  'sri-not-implemented-and-external-scripts-not-loaded-securely',
  'sri-not-implemented-response-not-html',
];
const PASSING = new Set<SriResult>([
  'sri-implemented-and-all-scripts-loaded-securely',
  'sri-implemented-and-external-scripts-loaded-securely',
  'sri-not-implemented-response-not-html',
  'sri-not-implemented-but-all-scripts-loaded-from-secure-origin',
  'sri-not-implemented-but-no-scripts-loaded',
]);

/** Runs the SRI test on the analyzed page's script tags. */
export function sriTest(retrieved: Retrieved): SriOutcome {
  const outcome = (result: SriResult, externalScripts: ExternalScript[] = []): SriOutcome => ({
    name: 'subresource-integrity', result, pass: PASSING.has(result), externalScripts,
  });
  const response = analyzed(retrieved);
  if (!response) return outcome('sri-not-implemented-but-no-scripts-loaded');
  const type = mediaType(response.headers);
  // As the Observatory: a page without a Content-Type is not HTML (no sniffing).
  if (!type || !HTML_TYPES.has(type)) return outcome('sri-not-implemented-response-not-html');

  const siteDomain = getDomain(retrieved.host);
  const secureSession = sessionUrl(retrieved)?.protocol === 'https:';
  const scripts = startTags(response.body).filter((tag) => tag.name === 'script');
  const externalScripts: ExternalScript[] = [];
  let result: SriResult | undefined;
  const worse = (next: SriResult) => (result = result === undefined || GOODNESS.indexOf(next) > GOODNESS.indexOf(result) ? next : result);
  let foreign = false;

  for (const script of scripts) {
    const src = scriptSrc(script.attributes.get('src'));
    if (!src) continue;
    const integrity = script.attributes.get('integrity') || null;
    const protocolRelative = /^\/\/[^/]/.test(src);
    const absolute = /^https?:\/\//.test(src);
    const relative = !protocolRelative && !absolute;
    const sameSite = protocolRelative || relative || getDomain(src) === siteDomain;
    // A protocol-relative script counts as foreign: on an HTTP page it is fetched over HTTP.
    const sameOrigin = relative || (sameSite && !protocolRelative);
    const secure = (absolute && new URL(src).protocol === 'https:') || (relative && secureSession);

    if (!sameOrigin) {
      foreign = true;
      externalScripts.push({ src, integrity, secure });
      if (integrity && !secure) worse('sri-implemented-but-external-scripts-not-loaded-securely');
      else if (!integrity && secure) worse('sri-not-implemented-but-external-scripts-loaded-securely');
      else if (!integrity && !secure) worse('sri-not-implemented-and-external-scripts-not-loaded-securely');
    } else if (integrity && secure && result === undefined) {
      result = 'sri-implemented-and-all-scripts-loaded-securely';
    }
  }
  if (scripts.length === 0) return outcome('sri-not-implemented-but-no-scripts-loaded');
  result ??= foreign ? 'sri-implemented-and-external-scripts-loaded-securely' : 'sri-not-implemented-but-all-scripts-loaded-from-secure-origin';
  return outcome(result, externalScripts);
}

/** The src as a DOM without a base URL reports it: absolute URLs normalised, anything else as written. */
function scriptSrc(attribute: string | undefined): string {
  if (!attribute) return '';
  try {
    return new URL(attribute).href;
  } catch {
    return attribute;
  }
}

const finding = findingsFor('http');
const list = (scripts: readonly ExternalScript[]) =>
  scripts.slice(0, 10).map((s) => s.src).join(', ') + (scripts.length > 10 ? ` and ${scripts.length - 10} more` : '');

/** Scripts over HTTP (medium) and third-party scripts without integrity (low). */
export function sriFindings(outcome: SriOutcome): Finding[] {
  if (outcome.result === 'sri-not-implemented-and-external-scripts-not-loaded-securely' || outcome.result === 'sri-implemented-but-external-scripts-not-loaded-securely') {
    return [
      finding({
        id: 'http.sri.insecure-scripts',
        title: 'Scripts from other sites are loaded over plain HTTP',
        severity: 'medium',
        category: CATEGORY,
        evidence: `Loaded over http: or a protocol-relative URL: ${list(outcome.externalScripts.filter((s) => !s.secure))}`,
        description:
          'The page loads JavaScript from another site without HTTPS. Anyone on the network path (public Wi-Fi, an ISP, a compromised router) can replace that script and control the page: read what visitors type, change payment details, redirect them.',
        recommendation:
          'Load every script with an https:// URL, and add an integrity hash (Subresource Integrity) to scripts from other sites. Rated medium: it needs a network position, but then gives full control of the page.',
      }),
    ];
  }
  if (outcome.result === 'sri-not-implemented-but-external-scripts-loaded-securely') {
    const missing = outcome.externalScripts.filter((s) => !s.integrity);
    return [
      finding({
        id: 'http.sri.missing',
        title: 'Scripts from other sites have no integrity check',
        severity: 'low',
        category: CATEGORY,
        evidence: `Without an integrity attribute: ${list(missing)}`,
        description:
          'The page runs scripts hosted by other sites (CDNs, widgets) without Subresource Integrity. If one of those sites is hacked or the file is changed, the new code runs on your pages with full access.',
        recommendation:
          'Add integrity="sha384-…" and crossorigin="anonymous" to script tags for fixed versions of third-party files (most CDNs show the tag to copy). Scripts that change on purpose (analytics, chat widgets) cannot use it: keep those to providers you trust. Rated low: it needs the other site to be compromised first.',
      }),
    ];
  }
  return [];
}
