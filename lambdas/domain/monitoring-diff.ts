import type { Audit, CheckResult, Finding, Grade, Severity } from './audit.js';
import { num, record, records, str } from './unknown-values.js';
import { compareFindings, type IssueSeverity, isIssue } from './audit-view.js';
import { softwareCveRecords } from './cve-details.js';
import { DomainError } from './errors.js';
import { checksRunInFull, ranLimited, siteOf } from './scan-site.js';
import { siteKey } from './target.js';

/**
 * What changed between two completed scans of one domain (issue 8 "Monitoring"), and the
 * known-exploited CVEs a knowledge-base update reveals without a rescan. Pure: the scans and the
 * knowledge-base lookup are given.
 *
 * Choices, in one place:
 * - Findings are compared by their stable id. Only issues count (critical–low); `info` findings are
 *   observations and never alert (DECISIONS "Issues vs observations"). A finding is compared only
 *   when the check it belongs to ran in full in both scans (scan-site.ts `checksRunInFull`): a check
 *   that failed or timed out once would otherwise make every one of its findings look resolved, then
 *   new again. DECISIONS "Rescan target": a scan whose landing page did not load compares nothing,
 *   and the checks that read the site's pages (http, software, wordpress, exposure, tls) compare
 *   only when both scans reached the same site (scheme asked, scheme and host reached): the scan of
 *   `https://x/` resolves nothing that the scan of an http-only `http://x/` found.
 * - Muted findings (a customer's accepted risk, DECISIONS "Plan features") give no new/resolved
 *   change. KEV changes still alert: a newly exploited CVE changes the risk that was accepted.
 * - Certificates: thresholds 30, 14 and 7 days. A certificate (known by its expiry instant, so a
 *   renewal starts afresh) alerts when its days left fall into a tighter threshold than at the
 *   previous scan's reading of the same certificate (or there was no reading); a drop across several
 *   thresholds at once alerts only the tightest. One change per certificate, listing its ports.
 * - Ports: a port open now and not at the previous scan, compared only when both port scans ran in
 *   full (both scans loaded the landing page) and the previous one tried at least as many ports (after a deep audit's 1,000 ports, a
 *   standard rescan's 100 find nothing "new"; the other way round a port may just not have been tried).
 * - Grade: any change of letter, with its direction (A is best), between two scans of the same site
 *   that both loaded its landing page.
 * - dedupeKey, the key an alert is sent once for:
 *   - scan-to-scan events (finding_new, finding_resolved, grade_changed, port_opened) carry the
 *     previous scan's id (`{domain}|finding_new|{id}|after:{previousAuditId}`): a retried or doubled
 *     comparison against the same baseline repeats its key, while a finding that is fixed and later
 *     comes back alerts again;
 *   - facts that do not depend on which scan saw them carry none: `{domain}|certificate_expiring|{notAfter}|{threshold}`
 *     and `{domain}|kev_match|{product}|{cve}`, so a KEV found by a knowledge-base update and again by
 *     the next rescan alerts once.
 * - Cadence is the scheduler's (Monitor Lite weekly, Monitor Plus daily); this module compares
 *   whatever two consecutive completed scans it is given.
 */

export const CERTIFICATE_THRESHOLDS = [30, 14, 7] as const;
export type CertificateThreshold = (typeof CERTIFICATE_THRESHOLDS)[number];

export const monitoringChangeTypes = ['finding_new', 'finding_resolved', 'grade_changed', 'certificate_expiring', 'port_opened', 'kev_match', 'issue_overdue'] as const;
export type MonitoringChangeType = (typeof monitoringChangeTypes)[number];

interface ChangeBase {
  /** The site key (lower case, no www.). */
  domain: string;
  /** The same change always has the same key: an alert is sent once per key. */
  dedupeKey: string;
}

export interface FindingNewChange extends ChangeBase {
  type: 'finding_new';
  findingId: string;
  title: string;
  severity: IssueSeverity;
  category: string;
}

export interface FindingResolvedChange extends ChangeBase {
  type: 'finding_resolved';
  findingId: string;
  title: string;
  /** Its severity when it was last seen. */
  severity: IssueSeverity;
  category: string;
}

export interface GradeChangedChange extends ChangeBase {
  type: 'grade_changed';
  from: Grade;
  to: Grade;
  direction: 'up' | 'down';
  fromScore: number | null;
  toScore: number | null;
}

export interface CertificateExpiringChange extends ChangeBase {
  type: 'certificate_expiring';
  threshold: CertificateThreshold;
  /** Whole days left at the current scan; 0 or less once expired. */
  daysLeft: number;
  notAfter: string;
  subject: string | null;
  /** The TLS ports that present this certificate. */
  ports: number[];
  expired: boolean;
}

export interface PortOpenedChange extends ChangeBase {
  type: 'port_opened';
  port: number;
  service: string;
  product?: string;
  version?: string;
  /** The scanner's rating of the exposed service. */
  risk: Severity;
}

export interface KevMatchChange extends ChangeBase {
  type: 'kev_match';
  cveId: string;
  /** The knowledge base's product id ("apache_http_server") and its display name. */
  product: string;
  productName: string;
  version: string;
  kevDateAdded?: string;
  /** CISA: known to be used in ransomware campaigns. */
  ransomware?: boolean;
  cvssScore?: number;
  summary?: string;
  /** The distribution a banner names: its packages may carry a backported fix. */
  distribution?: string;
  detectedBy: 'rescan' | 'knowledge-base';
}

/**
 * An open issue passed its time-to-fix target (lambdas/domain/time-to-fix.ts makes these from the
 * domain's issue history, not from a diff). Its dedupe key names the occurrence
 * (`{domain}|issue_overdue|{findingId}|{firstSeenAt}`): each occurrence alerts once.
 */
export interface IssueOverdueChange extends ChangeBase {
  type: 'issue_overdue';
  findingId: string;
  title: string;
  severity: IssueSeverity;
  category: string;
  firstSeenAt: string;
  dueAt: string;
  /** The severity's target, in days. */
  targetDays: number;
  /** Whole days past the due date at the scan that found it overdue. */
  daysOverdue: number;
}

export type MonitoringChange = FindingNewChange | FindingResolvedChange | GradeChangedChange | CertificateExpiringChange | PortOpenedChange | KevMatchChange | IssueOverdueChange;

/** What a stored audit must hold to be compared (`targetUrl`: the scheme asked for, see scan-site.ts `siteOf`). */
export type MonitoredScan = Pick<Audit, 'id' | 'host' | 'status' | 'checks'> & Partial<Pick<Audit, 'grade' | 'score' | 'completedAt' | 'targetUrl'>>;

export interface ScanDiffInput {
  previous: MonitoredScan;
  current: MonitoredScan;
  /** Finding ids the customer muted or accepted. */
  mutedFindingIds?: Iterable<string>;
}

/** Every change from `previous` to `current`, in alert order: new issues worst first, resolved, grade, certificates, ports, KEV. */
export function diffScans(input: ScanDiffInput): MonitoringChange[] {
  const { previous, current } = input;
  const domain = siteKey(current.host);
  if (previous.status !== 'completed' || current.status !== 'completed') {
    throw new DomainError('monitoring_scan_not_completed', 'Only completed scans can be compared.');
  }
  if (siteKey(previous.host) !== domain || previous.id === current.id) {
    throw new DomainError('monitoring_scans_not_comparable', `Scans ${previous.id} and ${current.id} are not two scans of one domain.`);
  }
  if (previous.completedAt && current.completedAt && Date.parse(previous.completedAt) > Date.parse(current.completedAt)) {
    throw new DomainError('monitoring_scans_out_of_order', `Scan ${previous.id} completed after ${current.id}.`);
  }
  const muted = new Set(input.mutedFindingIds ?? []);
  const after = `after:${previous.id}`;
  return [
    ...findingChanges(previous, current, muted, domain, after),
    ...gradeChange(previous, current, domain, after),
    ...certificateChanges(previous, current, domain),
    ...portChanges(previous, current, domain, after),
    ...rescanKevChanges(previous, current, domain),
  ];
}

// ---- Findings ----

/**
 * The checks that ran in full (scan-site.ts): finished `ok`, not limited (DECISIONS "Scan modes": a
 * rescan past the per-target active limit runs passive, and the parts it left out, listed in
 * `notChecked`, are not fixed because they were not looked at), on a scan that loaded the site's
 * landing page, and — compared with an earlier scan — page checks only on the same site.
 * Time-to-fix (time-to-fix.ts) and Essential Eight mark an issue fixed, or count evidence for, by the same rule.
 */
export { checksRunInFull };

/** A scan that ran passive (a skipped check, or a check limited to its passive part): its grade is partial, not comparable. */
const ranPassive = (scan: MonitoredScan) => scan.checks.some((check) => check.status === 'skipped' || ranLimited(check));

/** The scan's issues by id (first copy wins, as in the report), with the check each sits in. */
export function issuesById(scan: Pick<MonitoredScan, 'checks'>): Map<string, { finding: Finding; check: string }> {
  const issues = new Map<string, { finding: Finding; check: string }>();
  for (const check of scan.checks) for (const finding of check.findings) if (isIssue(finding) && !issues.has(finding.id)) issues.set(finding.id, { finding, check: check.name });
  return issues;
}

function findingChanges(previous: MonitoredScan, current: MonitoredScan, muted: ReadonlySet<string>, domain: string, after: string): (FindingNewChange | FindingResolvedChange)[] {
  const [before, now] = [issuesById(previous), issuesById(current)];
  const [okBefore, okNow] = [checksRunInFull(previous), checksRunInFull(current, { sameSiteAs: siteOf(previous) ?? null })];
  const comparable = (check: string) => okBefore.has(check) && okNow.has(check);
  const gone = (from: typeof before, to: typeof now) =>
    [...from.values()].filter(({ finding, check }) => comparable(check) && !to.has(finding.id) && !muted.has(finding.id)).map(({ finding }) => finding).sort(compareFindings);
  const fields = (finding: Finding) => ({ findingId: finding.id, title: finding.title, severity: finding.severity as IssueSeverity, category: finding.category });
  return [
    ...gone(now, before).map((finding): FindingNewChange => ({ type: 'finding_new', domain, dedupeKey: `${domain}|finding_new|${finding.id}|${after}`, ...fields(finding) })),
    ...gone(before, now).map((finding): FindingResolvedChange => ({ type: 'finding_resolved', domain, dedupeKey: `${domain}|finding_resolved|${finding.id}|${after}`, ...fields(finding) })),
  ];
}

// ---- Grade ----

const GRADE_ORDER: readonly Grade[] = ['A', 'B', 'C', 'D', 'F'];

function gradeChange(previous: MonitoredScan, current: MonitoredScan, domain: string, after: string): GradeChangedChange[] {
  const [from, to] = [previous.grade, current.grade];
  if (!from || !to || from === to) return [];
  // A passive rescan's grade measures less (and is capped): a change against a full scan is not news.
  if (ranPassive(previous) !== ranPassive(current)) return [];
  // Nor is one against a scan that did not see the site, or saw another one (DECISIONS "Rescan target").
  const site = siteOf(previous);
  if (site === undefined || siteOf(current) !== site) return [];
  return [
    {
      type: 'grade_changed',
      domain,
      dedupeKey: `${domain}|grade_changed|${from}>${to}|${after}`,
      from,
      to,
      direction: GRADE_ORDER.indexOf(to) < GRADE_ORDER.indexOf(from) ? 'up' : 'down',
      fromScore: previous.score ?? null,
      toScore: current.score ?? null,
    },
  ];
}

// ---- Certificates ----

/** The tightest threshold the days left fall into; undefined above 30 days. */
export function certificateThreshold(daysLeft: number): CertificateThreshold | undefined {
  return [...CERTIFICATE_THRESHOLDS].sort((a, b) => a - b).find((threshold) => daysLeft <= threshold);
}

interface CertificateReading {
  notAfter: string;
  subject: string | null;
  daysLeft: number;
  ports: number[];
}

const DAY_MS = 86_400_000;

/** The certificates the TLS check read, one per expiry instant, with the fewest days left any port showed. */
function certificates(scan: MonitoredScan): Map<string, CertificateReading> {
  const readings = new Map<string, CertificateReading>();
  const tls = okCheck(scan, 'tls');
  for (const port of records(tls?.data?.ports)) {
    const certificate = record(port.certificate);
    const notAfter = str(certificate?.notAfter);
    const portNumber = num(port.port);
    if (!certificate || !notAfter || portNumber === undefined || Number.isNaN(Date.parse(notAfter))) continue;
    const measured = num(certificate.daysLeft);
    const daysLeft = measured ?? (scan.completedAt ? Math.floor((Date.parse(notAfter) - Date.parse(scan.completedAt)) / DAY_MS) : undefined);
    if (daysLeft === undefined || Number.isNaN(daysLeft)) continue;
    const known = readings.get(notAfter);
    if (known) {
      known.daysLeft = Math.min(known.daysLeft, daysLeft);
      if (!known.ports.includes(portNumber)) known.ports.push(portNumber);
    } else {
      readings.set(notAfter, { notAfter, subject: str(certificate.subject) ?? null, daysLeft, ports: [portNumber] });
    }
  }
  return readings;
}

function certificateChanges(previous: MonitoredScan, current: MonitoredScan, domain: string): CertificateExpiringChange[] {
  const before = certificates(previous);
  const changes: CertificateExpiringChange[] = [];
  for (const reading of certificates(current).values()) {
    const threshold = certificateThreshold(reading.daysLeft);
    if (threshold === undefined) continue;
    const earlier = before.get(reading.notAfter);
    const earlierThreshold = earlier ? certificateThreshold(earlier.daysLeft) : undefined;
    if (earlierThreshold !== undefined && earlierThreshold <= threshold) continue;
    changes.push({
      type: 'certificate_expiring',
      domain,
      dedupeKey: `${domain}|certificate_expiring|${reading.notAfter}|${threshold}`,
      threshold,
      daysLeft: reading.daysLeft,
      notAfter: reading.notAfter,
      subject: reading.subject,
      ports: [...reading.ports].sort((a, b) => a - b),
      expired: reading.daysLeft <= 0,
    });
  }
  return changes.sort((a, b) => a.daysLeft - b.daysLeft || a.notAfter.localeCompare(b.notAfter));
}

// ---- Ports ----

const SEVERITIES: readonly Severity[] = ['critical', 'high', 'medium', 'low', 'info'];

function portScan(scan: MonitoredScan): { scanned: number | undefined; open: Map<number, Record<string, unknown>> } | undefined {
  const ports = okCheck(scan, 'ports');
  if (!ports) return undefined;
  const open = new Map<number, Record<string, unknown>>();
  for (const entry of records(ports.data?.open)) {
    const port = num(entry.port);
    if (port !== undefined) open.set(port, entry);
  }
  return { scanned: num(ports.data?.scanned), open };
}

function portChanges(previous: MonitoredScan, current: MonitoredScan, domain: string, after: string): PortOpenedChange[] {
  const [before, now] = [portScan(previous), portScan(current)];
  if (!before || !now) return [];
  // A port scan of a host whose site did not answer (a firewall dropping the scanner, an outage) is no baseline, nor news.
  if (!checksRunInFull(previous).has('ports') || !checksRunInFull(current).has('ports')) return [];
  if (before.scanned !== undefined && now.scanned !== undefined && before.scanned < now.scanned) return [];
  return [...now.open.entries()]
    .filter(([port]) => !before.open.has(port))
    .sort(([a], [b]) => a - b)
    .map(([port, entry]) => {
      const risk = str(entry.risk);
      return {
        type: 'port_opened',
        domain,
        dedupeKey: `${domain}|port_opened|${port}|${after}`,
        port,
        service: str(entry.service) ?? 'unknown',
        ...(str(entry.product) ? { product: str(entry.product) } : {}),
        ...(str(entry.version) ? { version: str(entry.version) } : {}),
        risk: SEVERITIES.includes(risk as Severity) ? (risk as Severity) : 'info',
      };
    });
}

// ---- Known exploited vulnerabilities ----

/** One vulnerability as the knowledge base reports a match (the scanner's MatchedVulnerability fits). */
export interface KevCandidate {
  id: string;
  /** In CISA's Known Exploited Vulnerabilities catalogue. */
  exploited: boolean;
  kevDateAdded?: string;
  ransomware?: boolean;
  cvssScore?: number;
  summary?: string;
}

/**
 * The knowledge base's lookup: the vulnerabilities of a product (its id) at a version. The scanner's
 * `matchVulnerabilities` is one; injected so the domain stays free of the scanner and its data.
 */
export type KevCatalogue = (product: string, version: string) => { productName?: string; vulnerabilities: readonly KevCandidate[] };

/** A product and version a stored scan saw on a domain, precise enough to match against the knowledge base. */
export interface MonitoredTechnology {
  domain: string;
  product: string;
  productName: string;
  version: string;
  distribution?: string;
}

/**
 * The technologies of a stored scan that can be matched: a knowledge-base product, a full version
 * (not a release line such as "Drupal 9"), read with more than low confidence — as the scanner matches.
 */
export function monitoredTechnologies(scan: MonitoredScan): MonitoredTechnology[] {
  const domain = siteKey(scan.host);
  const seen = new Set<string>();
  const technologies: MonitoredTechnology[] = [];
  for (const technology of records(okCheck(scan, 'software')?.data?.technologies)) {
    const [product, version] = [str(technology.product), str(technology.version)];
    if (!product || !version || technology.versionScope !== undefined || technology.confidence === 'low') continue;
    if (seen.has(`${product}@${version}`)) continue;
    seen.add(`${product}@${version}`);
    const distribution = str(technology.distribution);
    technologies.push({ domain, product, productName: str(technology.name) ?? product, version, ...(distribution ? { distribution } : {}) });
  }
  return technologies;
}

interface ExploitedMatch {
  product: string;
  productName: string;
  version: string;
  distribution?: string;
  vulnerability: KevCandidate;
}

/** The known-exploited vulnerabilities the scan's software check matched, per product and version. */
function exploitedMatches(scan: MonitoredScan): ExploitedMatch[] {
  const matches: ExploitedMatch[] = [];
  const software = okCheck(scan, 'software');
  // Each CVE's detail is on its finding (older audits: in the group itself).
  const cveRecords = softwareCveRecords(software ? [software] : []);
  for (const group of records(software?.data?.vulnerabilities)) {
    const [product, version, findingId] = [str(group.product), str(group.version), str(group.findingId)];
    if (!product || !version) continue;
    const distribution = str(group.distribution);
    for (const vulnerability of records(findingId ? cveRecords.get(findingId) : group.vulnerabilities)) {
      const candidate = kevCandidate(vulnerability);
      if (!candidate?.exploited) continue;
      matches.push({ product, productName: str(group.productName) ?? product, version, ...(distribution ? { distribution } : {}), vulnerability: candidate });
    }
  }
  return matches;
}

/** The CVE ids a stored scan already knew to be exploited: the baseline for `kevMatchesWithoutRescan`. */
export function knownExploitedIds(scan: MonitoredScan): Set<string> {
  return new Set(exploitedMatches(scan).map((match) => match.vulnerability.id));
}

function kevChange(domain: string, match: ExploitedMatch, detectedBy: KevMatchChange['detectedBy']): KevMatchChange {
  const v = match.vulnerability;
  return {
    type: 'kev_match',
    domain,
    dedupeKey: `${domain}|kev_match|${match.product}|${v.id}`,
    cveId: v.id,
    product: match.product,
    productName: match.productName,
    version: match.version,
    ...(v.kevDateAdded ? { kevDateAdded: v.kevDateAdded } : {}),
    ...(v.ransomware !== undefined ? { ransomware: v.ransomware } : {}),
    ...(v.cvssScore !== undefined ? { cvssScore: v.cvssScore } : {}),
    ...(v.summary ? { summary: v.summary } : {}),
    ...(match.distribution ? { distribution: match.distribution } : {}),
    detectedBy,
  };
}

/** Newest to the catalogue first, then by id: the order alerts list them in. */
const byKevDate = (a: KevMatchChange, b: KevMatchChange) => (b.kevDateAdded ?? '').localeCompare(a.kevDateAdded ?? '') || a.cveId.localeCompare(b.cveId) || a.product.localeCompare(b.product);

function uniqueByKey<T extends { dedupeKey: string }>(changes: T[]): T[] {
  const seen = new Set<string>();
  return changes.filter((change) => !seen.has(change.dedupeKey) && Boolean(seen.add(change.dedupeKey)));
}

function rescanKevChanges(previous: MonitoredScan, current: MonitoredScan, domain: string): KevMatchChange[] {
  if (!okCheck(previous, 'software') || !okCheck(current, 'software')) return [];
  const before = new Set(exploitedMatches(previous).map((match) => `${match.product}|${match.vulnerability.id}`));
  const changes = exploitedMatches(current)
    .filter((match) => !before.has(`${match.product}|${match.vulnerability.id}`))
    .map((match) => kevChange(domain, match, 'rescan'));
  return uniqueByKey(changes).sort(byKevDate);
}

/**
 * Known-exploited CVEs that affect stored technology versions and were not known to be exploited
 * when they were scanned: run when the knowledge base updates, without rescanning. `kevCatalogue` is
 * the updated knowledge base's lookup; `previouslyKnownKevIds` the CVE ids already known as exploited
 * (`knownExploitedIds` of the stored scan). The dedupe key is the rescan's, so the next rescan does
 * not alert the same CVE again.
 */
export function kevMatchesWithoutRescan(
  technologies: readonly MonitoredTechnology[],
  previouslyKnownKevIds: Iterable<string>,
  kevCatalogue: KevCatalogue,
): KevMatchChange[] {
  const known = new Set(previouslyKnownKevIds);
  const changes: KevMatchChange[] = [];
  for (const technology of technologies) {
    const match = kevCatalogue(technology.product, technology.version);
    for (const vulnerability of match.vulnerabilities) {
      if (!vulnerability.exploited || known.has(vulnerability.id)) continue;
      changes.push(
        kevChange(
          siteKey(technology.domain),
          {
            product: technology.product,
            productName: technology.productName,
            version: technology.version,
            ...(technology.distribution ? { distribution: technology.distribution } : {}),
            vulnerability,
          },
          'knowledge-base',
        ),
      );
    }
  }
  return uniqueByKey(changes).sort((a, b) => a.domain.localeCompare(b.domain) || byKevDate(a, b));
}

// ---- Reading stored check data defensively (an older scanner may lack a field) ----

function okCheck(scan: MonitoredScan, name: string): CheckResult | undefined {
  return scan.checks.find((check) => check.name === name && check.status === 'ok');
}

function kevCandidate(value: Record<string, unknown>): KevCandidate | undefined {
  const id = str(value.id);
  if (!id) return undefined;
  const [kevDateAdded, cvssScore, summary] = [str(value.kevDateAdded), num(value.cvssScore), str(value.summary)];
  return {
    id,
    exploited: value.exploited === true,
    ...(kevDateAdded ? { kevDateAdded } : {}),
    ...(typeof value.ransomware === 'boolean' ? { ransomware: value.ransomware } : {}),
    ...(cvssScore !== undefined ? { cvssScore } : {}),
    ...(summary ? { summary } : {}),
  };
}
