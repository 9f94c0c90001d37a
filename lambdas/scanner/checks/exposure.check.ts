/**
 * The "exposure" check: files and pages a site should never serve (a deployed .git folder, an
 * .env, backups of wp-config.php, database dumps, mod_status, phpinfo, directory listings) and
 * whether it publishes a security.txt. Probe: ./exposure/exposure.probe.ts (read-only GETs, about
 * 35, four at a time). Analysis: a path counts only when its body matches the signature of what
 * the path names and does not look like the site's answer to a random path (no soft-404 hits).
 */
import { type CheckDefinition, type CheckOutput, notCheckedInPassive } from '../check.js';
import { type PathRule, ruleForListedFile, SECURITY_TXT_PATH, SENSITIVE_PATHS } from './exposure/catalog.js';
import { probeExposure, type ExposureProbe } from './exposure/exposure.probe.js';
import type { Sample } from './exposure/fetcher.js';
import { EXPOSURE_RULES, type ExposureHit, hitFindings, type ListingHit, listingFindings, securityTxtFindings } from './exposure/findings.js';
import { directoryListings, sensitiveEntries } from './exposure/listing.js';
import { analyzeSecurityTxt, securityTxtAnalysisFindings, type SecurityTxtAnalysis } from './exposure/security-txt.js';
import { contentType, looksLikeHtml, securityTxt } from './exposure/signatures.js';
import { matchesBaseline } from './exposure/soft-404.js';
import { answered, unansweredParts } from './exposure/unanswered.js';
import type { NotCheckedPart } from '../../domain/coverage.js';

export type { ExposureHit, ListingHit } from './exposure/findings.js';
export type { ExposureProbe } from './exposure/exposure.probe.js';

const BUDGET_MS = 12_000;

function isSuccess(status: number): boolean {
  return status >= 200 && status <= 299;
}

/** Size of the file: Content-Length when sent (the body may have been cut at the cap), else what was read. */
function size(sample: Sample): number {
  const length = Number(sample.headers['content-length']?.[0]);
  return Number.isInteger(length) && length >= 0 ? length : sample.bytes;
}

/** The rule a sample is judged by: its catalogue entry, or (for a file seen in a listing) the rule for its name. */
function ruleFor(path: string): Omit<PathRule, 'path'> | undefined {
  const listed = SENSITIVE_PATHS.find((rule) => rule.path === path);
  if (listed) return listed;
  const name = decodeURIComponent(path.slice(path.lastIndexOf('/') + 1));
  return path.endsWith('/') ? undefined : ruleForListedFile(name);
}

/**
 * The confirmed exposures among the probe's responses: a 2xx whose body matches the path's
 * signature and differs from the site's answer to a random path.
 */
export function exposureHits(probe: Pick<ExposureProbe, 'samples' | 'baseline'>): ExposureHit[] {
  const hits: ExposureHit[] = [];
  for (const sample of probe.samples) {
    const rule = ruleFor(sample.path);
    if (!rule || !isSuccess(sample.status) || matchesBaseline(sample, probe.baseline.file)) continue;
    const match = rule.signature(sample);
    if (!match) continue;
    hits.push({
      path: sample.path,
      status: sample.status,
      kind: rule.kind,
      signature: match.signature,
      bytes: size(sample),
      ...(match.detail ? { detail: match.detail } : {}),
      severity: match.severity ?? EXPOSURE_RULES[rule.kind].severity,
    });
  }
  return hits;
}

/** The site's security.txt, when it has one worth the name (text with a Contact field). */
export function securityTxtPresent(probe: Pick<ExposureProbe, 'samples' | 'baseline'>): { present: boolean; detail?: string } {
  const sample = probe.samples.find((s) => s.path === SECURITY_TXT_PATH);
  if (!sample || !isSuccess(sample.status) || matchesBaseline(sample, probe.baseline.file)) return { present: false };
  const match = securityTxt(sample);
  return match ? { present: true, ...(match.detail ? { detail: match.detail } : {}) } : { present: false };
}

/** The security.txt read against RFC 9116, when the site serves a text file with its fields (null otherwise). */
export function securityTxtAnalysis(probe: Pick<ExposureProbe, 'samples' | 'baseline' | 'origin'>, now: Date): SecurityTxtAnalysis | null {
  const sample = probe.samples.find((s) => s.path === SECURITY_TXT_PATH);
  if (!sample || !isSuccess(sample.status) || matchesBaseline(sample, probe.baseline.file)) return null;
  if (looksLikeHtml(sample) || contentType(sample.headers) === 'text/html') return null;
  return analyzeSecurityTxt(sample, new URL(SECURITY_TXT_PATH, probe.origin).href, now);
}

/** Analyze: hits, listings and security.txt into findings, and the check's data (`now` judges the Expires date). */
export function analyzeExposure(probe: ExposureProbe, now: Date = new Date()): CheckOutput {
  // A 429, a 5xx, a challenge or no answer at all is not "not exposed": those paths are not checked.
  const unanswered = unansweredParts('Exposed files', [...probe.samples, ...probe.failures], probe.samples.length + probe.failures.length);
  probe = { ...probe, samples: answered(probe.samples) };
  const hits = exposureHits(probe);
  const folders = [probe.landing, ...probe.samples.filter((sample) => sample.path.endsWith('/'))];
  const listings: ListingHit[] = directoryListings(folders, (response) => response !== probe.landing && matchesBaseline(response, probe.baseline.directory)).map(
    ({ path, listing }) => ({ path, entries: listing.entries.length, sensitive: sensitiveEntries(listing) }),
  );
  // When the security.txt request itself got no answer, its absence is not measured: no finding.
  const securityTxtAsked = probe.samples.some((sample) => sample.path === SECURITY_TXT_PATH);
  const security = securityTxtPresent(probe);
  const rfc9116 = securityTxtAsked ? securityTxtAnalysis(probe, now) : null;
  // A file with RFC 9116 fields is judged field by field (a missing Contact included); no such file: the missing finding.
  const securityTxtIssues = !securityTxtAsked ? [] : rfc9116 ? securityTxtAnalysisFindings(rfc9116, now) : securityTxtFindings(security.present);
  const findings = [...hitFindings(hits), ...listingFindings(listings), ...securityTxtIssues];
  const baseline = (sample: Sample | null) => (sample ? { status: sample.status, length: sample.bytes } : null);
  return {
    findings,
    data: {
      origin: probe.origin,
      baseline: baseline(probe.baseline.file),
      baselineDirectory: baseline(probe.baseline.directory),
      checked: probe.sent,
      incomplete: probe.incomplete,
      hits: hits.map(({ path, status, signature, bytes, kind, detail }) => ({ path, status, signature, bytes, kind, ...(detail ? { detail } : {}) })),
      listings,
      securityTxt: securityTxtAsked ? { ...security, ...(rfc9116 ? { rfc9116 } : {}) } : { present: null },
      failures: probe.failures.map(({ path, error }) => ({ path, error })),
      unanswered,
    },
  };
}

/**
 * The "exposure" check. Needs ctx.net.http (the scan's guarded client); data:
 * { origin, baseline: {status, length}, baselineDirectory, checked, incomplete, hits: [{path, status,
 * signature, bytes, kind, detail}], listings: [{path, entries, sensitive}], securityTxt: { present, detail,
 * rfc9116 (SecurityTxtAnalysis, when the file has RFC 9116 fields) }, failures }.
 */
export const exposureCheck: CheckDefinition = {
  name: 'exposure',
  budgetMs: BUDGET_MS,
  needsAddress: true,
  readsPages: true,
  // Passive: the landing page and /.well-known/security.txt only, which anyone's browser may ask for.
  passive: 'limited',
  run: async ({ target, domain, mode, net, signal }) => {
    const output = analyzeExposure(await probeExposure({ client: net.http, target, domain, signal, budgetMs: BUDGET_MS, passive: mode === 'passive' }));
    const unanswered = (output.data?.unanswered ?? []) as NotCheckedPart[];
    return {
      ...output,
      data: { ...output.data, ...notCheckedInPassive(mode, ['Exposed files and folders (.git, .env, backups, database dumps, phpinfo, server status, directory listings)'], unanswered) },
    };
  },
};
