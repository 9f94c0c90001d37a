import type { CheckResult, Finding, GradeCap, ScanMode } from './audit.js';
import { notCheckedOf, PARTIAL_SCORE_CAP } from './coverage.js';
import { cveDetailsOf, softwareCveRecords } from './cve-details.js';
import { grade, riskScore } from './scoring.js';
import { num, record, records, str, strings } from './unknown-values.js';

/**
 * DECISIONS "Grade caps": the spec's formula (riskScore) is the base; then caps, as SSL Labs caps
 * its grades, so that a report cannot flatter a site. One pure function over what the scan stored,
 * so the scan, the demo, the samples and every reader of the stored score agree.
 *
 * Which caps a report names: those that lowered the score, i.e. whose limit is below the formula's
 * score. A cap whose limit the formula already met changes nothing and is not named (the findings
 * behind it are listed anyway): "Grade capped at D" on a report the formula graded F would be noise.
 * When several lower it, the lowest limit wins and every one of them is named, lowest first.
 */
// The type lives beside Audit, which stores it; it is this module's vocabulary.
export type { GradeCap };
export type GradeCapId = GradeCap['id'];

export const GRADE_CAP_LIMITS: Readonly<Record<GradeCapId, number>> = { 'no-https': 69, kev: 59, critical: 79, partial: PARTIAL_SCORE_CAP };

export interface ScoredScan {
  /** The score to store and show: the formula's, lowered by the caps. */
  score: number;
  /** The caps that lowered it, lowest limit first (empty when none did). */
  caps: GradeCap[];
}

/** What the caps read of a finding (the landing page's sample has no more). */
export type ScoredFinding = Pick<Finding, 'id' | 'severity' | 'title' | 'cveDetails'>;

export function scoreScan(input: { checks: readonly CheckResult[]; findings: readonly ScoredFinding[]; partial: boolean }): ScoredScan {
  const base = riskScore(input.findings);
  const applicable: GradeCap[] = [];
  const https = noWorkingHttps(input.checks);
  if (https) applicable.push({ id: 'no-https', limit: GRADE_CAP_LIMITS['no-https'], reason: `The site has no working HTTPS: ${https}.` });
  const softwareCves = softwareCveRecords(input.checks);
  const exploited = new Map<string, ScoredFinding>();
  for (const finding of input.findings) {
    for (const cve of cveDetailsOf(finding, softwareCves) ?? []) if (cve.exploited && !exploited.has(cve.id)) exploited.set(cve.id, finding);
  }
  if (exploited.size > 0) applicable.push({ id: 'kev', limit: GRADE_CAP_LIMITS.kev, reason: kevReason(exploited) });
  // A critical finding that is itself a known-exploited one is the KEV cap's; "any other" critical finding is this one's.
  const exploitedFindings = new Set(exploited.values());
  const critical = input.findings.filter((finding) => finding.severity === 'critical' && !exploitedFindings.has(finding));
  if (critical.length > 0) applicable.push({ id: 'critical', limit: GRADE_CAP_LIMITS.critical, reason: criticalReason(critical) });
  if (input.partial) applicable.push({ id: 'partial', limit: GRADE_CAP_LIMITS.partial, reason: 'Not everything was checked, and a partial report never gets an A: it cannot look better because less was checked.' });

  const caps = applicable.filter((cap) => cap.limit < base).sort((a, b) => a.limit - b.limit);
  return { score: caps.length > 0 ? caps[0]!.limit : base, caps };
}

/** A whole stored scan's score (the samples, the demo account): partial when its mode or its checks left anything out. */
export function scoreChecks(checks: readonly CheckResult[], mode: ScanMode = 'active'): ScoredScan {
  const partial = mode === 'passive' || notCheckedOf(checks, mode).length > 0;
  return scoreScan({ checks, findings: checks.flatMap((check) => check.findings), partial });
}

/** How a report says a cap: "Grade capped at D (69)". */
export function gradeCapHeading(cap: Pick<GradeCap, 'limit'>): string {
  return `Grade capped at ${grade(cap.limit)} (${cap.limit})`;
}

function kevReason(exploited: ReadonlyMap<string, ScoredFinding>): string {
  const ids = [...exploited.keys()];
  const named = ids.slice(0, 3).join(', ') + (ids.length > 3 ? ` and ${ids.length - 3} more` : '');
  const titles = [...new Set(exploited.values())].map((finding) => finding.title);
  return `${ids.length === 1 ? 'A vulnerability' : `${ids.length} vulnerabilities`} known to be exploited in attacks (CISA's KEV catalog) ${ids.length === 1 ? 'is' : 'are'} on the site: ${named} (${titles.slice(0, 2).join('; ')}${titles.length > 2 ? '; …' : ''}).`;
}

function criticalReason(critical: readonly ScoredFinding[]): string {
  if (critical.length === 1) return `A critical issue is open: ${critical[0]!.title}.`;
  return `${critical.length} critical issues are open, among them: ${critical[0]!.title}.`;
}

/** Session errors that mean HTTPS is not there (refused, or something other than TLS answered); a timeout or a reset proves nothing. */
const NO_HTTPS_ERROR = /^(ECONNREFUSED|EPROTO|ERR_SSL_|ERR_TLS_)/;

/**
 * Why the site has no working HTTPS, or null when it has one or the scan did not see (a check that
 * was skipped, blocked, ended in an error or ran out of time is no evidence: we do not grade what
 * we did not see). The TLS check's report on the site's HTTPS port is the first witness: no TLS
 * there, a certificate browsers refuse, or nothing newer than TLS 1.1. The http check adds what the
 * page itself showed: a certificate a browser would warn about on the way to the page (a redirect to
 * another name included), or, only when the TLS check did not see the port, an HTTPS request refused.
 */
export function noWorkingHttps(checks: readonly CheckResult[]): string | null {
  const tls = checks.find((check) => check.name === 'tls' && check.status === 'ok');
  const ports = records(record(tls?.data)?.ports);
  const port = ports.find((p) => p.source === 'target') ?? ports[0];
  // A port whose handshakes were cut short by the deadline was seen only if some handshake worked.
  const seenByTls = port !== undefined && (port.complete === true || port.tls === true);
  if (seenByTls) {
    const refused = portRefusal(port);
    if (refused) return refused;
  }
  const http = checks.find((check) => check.name === 'http' && check.status === 'ok');
  const session = record(record(record(http?.data)?.responses)?.https);
  if (session?.certificateTrusted === false) return `browsers warn before showing its pages: the certificate of ${str(session.url) ?? 'the HTTPS page'} is not trusted`;
  const error = record(session?.error);
  const code = str(error?.code);
  if (!seenByTls && code && NO_HTTPS_ERROR.test(code)) return `HTTPS did not answer (${code})`;
  return null;
}

function portRefusal(port: Record<string, unknown>): string | null {
  const number = num(port.port) ?? 443;
  if (port.tls === false) return `port ${number} does not answer with TLS`;
  const cert = record(port.certificate);
  if (cert) {
    if (cert.expired === true) return 'browsers refuse its certificate: it has expired';
    if (cert.notYetValid === true) return 'browsers refuse its certificate: it is not valid yet';
    if (cert.selfSigned === true) return 'browsers refuse its certificate: it is self-signed';
    if (cert.hostnameMatch === false) return `browsers refuse its certificate: it is not for ${str(cert.checkedName) ?? 'the site’s name'}`;
    if (cert.trusted === false) return 'browsers refuse its certificate: it does not lead to an authority they trust';
    const weak = str(cert.weakSignature);
    if (weak) return `browsers refuse its certificate: it relies on an obsolete ${weak.toUpperCase()} signature`;
  }
  const offered = strings(port.offered);
  if (port.complete === true && offered.length > 0 && !offered.includes('TLSv1.2') && !offered.includes('TLSv1.3')) return 'it offers only TLS 1.0 or 1.1, which browsers refuse';
  return null;
}
