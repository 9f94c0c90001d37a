import type { Audit, AuditStatus, CheckResult, CheckStatus, CveDetail, Finding, Grade, GradeCap, IssueSeverity, RiskLevel, ScanMode, Severity } from './audit.js';
import { type CoverageView, coverageOf, type NotCheckedGroup, notCheckedByReason, ranMode } from './coverage.js';
import { cveDetailsOf, readCveDetails, softwareCveRecords } from './cve-details.js';
import type { IssueCounts } from './emails.js';
import { buildFindingGroups, type FindingGroupsView } from './finding-groups.js';
import { fixAdvice, type FixAdviceView } from './fix-advice.js';
import { num, record, records, str, strings } from './unknown-values.js';
import { type FreeRescanView, freeRescanView } from './free-rescan.js';
import { mxMatchesPattern } from './mta-sts-pattern.js';
import { auditGrants } from './plans.js';
import { buildRemediationPlan, type RemediationPlanView } from './remediation-plan.js';
import { type FindingPlatformGuides, guidesOfFinding, type ProvidersView, type ReportPlatformFixes, reportPlatformFixes } from './report-platform-fixes.js';
import type { ScannerProduct } from './platform-guides.js';
import { type SiteAccessView, siteAccessOf } from './site-access-view.js';

/**
 * The report a reader sees: the spec's audit record (SPEC §3 "Audit result", snake_case at the top
 * level, its nested objects camelCase as the spec names them) plus Rampart's full report. Built by
 * one pure function from a stored audit, so the results page, the shared page, the PDF and the
 * email all show the same numbers.
 *
 * Check data is read defensively: an audit in progress has only some checks, and an audit stored
 * by an older scanner may lack a field. A missing measurement is `null`, never an estimate.
 */

export type { IssueSeverity };
export const issueSeverities: readonly IssueSeverity[] = ['critical', 'high', 'medium', 'low'];

/** SPEC §9 "Lists and history": the results page shows the first 5 vulnerabilities, 8 open ports, 4 + 4 recommendations. */
export const RESULT_LIST_LIMITS = { vulnerabilities: 5, openPorts: 8, immediateRecommendations: 4 } as const;

export interface VulnerabilityView {
  id: string;
  title: string;
  severity: IssueSeverity;
  category: string;
  description: string;
  recommendation: string;
  /** Issue 29 item 8: the recommendation in plain words first, its technical line apart (absent in views made before it). */
  fix?: FixAdviceView;
  evidence?: string;
  cvssScore?: number;
  cves?: string[];
  /** DECISIONS "Per-CVE detail": a software finding's vulnerabilities, known exploited first (also from reports stored before the finding carried them). */
  cveDetails?: CveDetail[];
  /**
   * Issue 21: the fix for the platforms the scan detected — the steps in a paid audit, a one-line
   * note naming the platforms in a free report. Absent for findings without platform guides.
   */
  platformGuides?: FindingPlatformGuides;
}

export interface ObservationView {
  id: string;
  title: string;
  category: string;
  description: string;
  recommendation: string;
  fix?: FixAdviceView;
  evidence?: string;
}

export interface RecommendationView {
  priority: 'immediate' | 'long-term';
  title: string;
  action: string;
  severity?: IssueSeverity;
  /** The finding it comes from (immediate ones only). */
  findingId?: string;
  /** Immediate ones: the action in plain words first, its technical line apart (issue 29 item 8). */
  fix?: FixAdviceView;
}

export interface PortScanResultView {
  port_number: number;
  service_name: string;
  port_status: 'open';
  risk_level: Severity;
  product?: string;
  version?: string;
}

/** Where a check stands, in the audit's own words (SPEC §3 dns_results.status). */
export type SectionStatus = 'pending' | 'in_progress' | 'completed' | 'failed' | 'skipped';

export interface DnsResultsView {
  status: SectionStatus;
  /** Subdomains found that resolve. */
  subdomainsFound: number | null;
  /** The spec's total: Rampart counts only names that resolve, so it equals subdomainsFound. */
  totalSubdomains: number | null;
  /** Measured: subdomains that resolve and answer on 443 or 80 (DECISIONS "Active subdomains"). */
  activeSubdomains: number | null;
  completedAt: string | null;
}

export interface VulnerabilitySummaryView {
  vulnerabilities: VulnerabilityView[];
  totalIssues: number;
  criticalIssues: number;
  subdomainsScanned: number | null;
  /** One line per area with issues, worst first: "SSL/TLS: 3 issues (2 high, 1 medium)". */
  riskFactors: string[];
  overallRisk: RiskLevel | null;
  /** The 4 most important immediate actions, then the 4 fixed long-term ones. */
  recommendations: RecommendationView[];
}

/** A CVE of a technology: what the report knows of it (any field but the id may be missing in an older report). */
export type CveView = Pick<CveDetail, 'id'> & Partial<Omit<CveDetail, 'id'>>;

export interface TechnologyView {
  name: string;
  version: string | null;
  category: string | null;
  knownVulnerabilities: number;
  fixedVersion?: string;
  cves: CveView[];
}

export interface TlsPortView {
  port: number;
  grade: string | null;
  protocols: string[];
  certificate: {
    subject: string | null;
    issuer: string | null;
    validTo: string | null;
    daysLeft: number | null;
    expired: boolean;
    selfSigned: boolean;
    trusted: boolean;
    hostnameMatch: boolean;
    keyType: string | null;
    keySize: number | null;
  } | null;
}

export interface TlsView {
  status: SectionStatus;
  grade: string | null;
  ports: TlsPortView[];
  hsts: { enabled: boolean; maxAge: number | null } | null;
  /**
   * The browsers' HSTS preload list covers the host (`entry` is the listed name: the host or a parent
   * listed with its subdomains), so browsers use HTTPS for it before any request; null when it does
   * not; absent in reports from before the list was in the knowledge base.
   */
  hstsPreload?: { entry: string; includeSubDomains: boolean } | null;
  httpsRedirect: boolean | null;
  /**
   * The domain's CAA records against the CA that issued the served certificate: `issuerAllowed` null
   * with a `note` when no verdict could be given (no restriction, an untrusted certificate, an issuer
   * not in the table). Absent, like the two below, in reports from before the TLS check read it.
   */
  caa?: { records: string[]; issuer: string | null; allowedIssuers: string[]; issuerAllowed: boolean | null; note: string | null };
  /** OCSP stapling on the HTTPS port: `stapled` null when no handshake recorded it; `responderListed`: the certificate names an OCSP responder. */
  ocspStapling?: { stapled: boolean | null; responderListed: boolean };
  /** Signed certificate timestamps embedded in the certificate (Certificate Transparency): null without a certificate to read. */
  certificateTransparency?: { scts: number | null; malformed: boolean };
}

/** MTA-STS (RFC 8461): the record, the policy file as senders fetch it, and whether its `mx` patterns cover the real mail servers. */
export interface MtaStsView {
  /** The policy file was fetched as senders fetch it (HTTP 200 over a trusted certificate, no redirect). */
  policyFetched: boolean;
  certificateTrusted: boolean | null;
  /** Why the policy could not be fetched. */
  fetchProblem: string | null;
  mode: string | null;
  maxAgeSeconds: number | null;
  mxPatterns: string[];
  /** Mail servers (MX) matching a pattern, of all the domain's mail servers. */
  mxCovered: number;
  mxTotal: number;
  uncoveredMx: string[];
  /** Record and policy errors, as senders would read them. */
  errors: string[];
}

/** DANE on one mail server: its TLSA records checked against the certificate chain it presented. */
export interface DaneView {
  /** match | mismatch | unusable (records senders cannot use) | not-checked (no TLS session). */
  result: string;
  /** DNSSEC proves the TLSA records (false: unsigned, senders ignore them); null when not known (or bogus, or not checked). */
  signed: boolean | null;
  /**
   * The TLSA RRset's DNSSEC validation: secure | insecure | bogus (senders defer mail to the
   * server) | indeterminate (not checked); null in reports from before validation.
   */
  dnssec: string | null;
  records: number;
}

export interface EmailSecurityView {
  status: SectionStatus;
  domain: string | null;
  spf: { record: string; allQualifier: string | null } | null;
  dmarc: { record: string; policy: string | null } | null;
  dkim: { selectorsFound: string[] };
  mx: { host: string; preference: number | null; starttls: boolean | null; tlsVersion: string | null; dane?: DaneView }[];
  /**
   * The three below are absent in reports from before the email check read them, and null when the
   * domain publishes no such record.
   */
  mtaSts?: MtaStsView | null;
  /** TLS-RPT: where senders report failed encrypted deliveries (`rua`). */
  tlsRpt?: { rua: string[]; valid: boolean; errors: string[] } | null;
  /** BIMI: the logo (l=) and mark certificate (a=) locations. */
  bimi?: { logo: string | null; authority: string | null; valid: boolean; errors: string[] } | null;
}

/** DNSSEC of the domain's zone, as the dns check found it. */
export interface DnssecView {
  domain: string | null;
  /** secure | signed | signed-without-ds | unsigned | broken: the dns check's verdict. */
  status: string;
  /** The signatures checked from the trust anchor down: secure | bogus | insecure | indeterminate; null in reports from before validation. */
  validation: string | null;
  /** The step that decided the validation, in words. */
  reason: string | null;
  algorithms: { number: number; name: string; deprecated: boolean }[];
  /** The earliest expiry of the domain's own signatures that were checked. */
  signaturesExpire: string | null;
  /** A signature of the domain's chain had expired or was not yet valid when checked. */
  signatureDatesWrong: boolean;
}

/** Browser-side hardening of the website: Permissions-Policy, security.txt (RFC 9116) and mixed content. */
export interface WebHardeningView {
  /** Absent in reports from before the check; null when the landing page was not analyzed. */
  permissionsPolicy?: { present: boolean; valid: boolean | null; blocked: string[]; allowedToAll: string[] } | null;
  /** Absent in reports from before the check; null when it was not asked for (a passive scan). */
  securityTxt?: {
    found: boolean;
    signed: boolean | null;
    contacts: string[];
    expires: string | null;
    /** Past its Expires date when scanned; null without a valid Expires. */
    expired: boolean | null;
    /** Its Canonical names the address it was fetched from; null when it lists none (or the report predates the check). */
    canonicalMatches: boolean | null;
  } | null;
  /** Absent in reports from before the check; null when the landing page was not analyzed. */
  mixedContent?: { checked: boolean; active: number; passive: number; examples: string[]; upgradeInsecureRequests: boolean } | null;
}

export interface NetworkView {
  status: SectionStatus;
  address: string | null;
  portsScanned: number | null;
  closed: number | null;
  filtered: number | null;
  /** DECISIONS "Firewall": whether unused ports are filtered (a firewall) or refused. */
  firewall: string | null;
}

export interface BreachesView {
  /** ok | not-configured | error | pending */
  status: string;
  checked: number | null;
  breached: number | null;
}

/** The owner's contact block (SPEC §3 `leads`): only for the signed-in owner, never in the public view. */
export interface LeadsView {
  first_name: string;
  last_name: string;
  business_name: string;
  web_url: string;
  email: string;
}

export interface OwnerContact {
  firstName: string;
  lastName: string;
  businessName: string;
  webUrl: string;
  email: string;
}

export interface AuditResultView {
  id: string;
  target_url: string;
  audit_status: AuditStatus;
  error_message: string | null;
  created_at: string;
  completed_at: string | null;
  risk_level: RiskLevel | null;
  dns_results: DnsResultsView;
  port_scan_results: PortScanResultView[];
  vulnerability_summary: VulnerabilitySummaryView;
  /**
   * Issue 29 item 7: the issues as an owner acts on them (fix now: known exploited or critical; fix
   * this month: high and medium; good practice: low), observations apart; the counts add up to the
   * score's inputs. Absent in views made before it.
   */
  finding_groups?: FindingGroupsView;
  leads?: LeadsView;

  host: string;
  business_name: string | null;
  risk_score: number | null;
  grade: Grade | null;
  /**
   * DECISIONS "Grade caps": the caps that held `risk_score` below the formula's, lowest first (empty
   * when none did, and on reports scored before caps). Absent in views made before caps.
   */
  grade_caps?: GradeCap[];
  /**
   * DECISIONS "Blocked is a result": the bot challenge, edge block, login, rate limit or outage that
   * kept the scanner from the site's pages, with the steps to let it in; null when the scanner saw
   * the site. Absent in views made before it.
   */
  site_access?: SiteAccessView | null;
  /** The results page's four counters. */
  counters: { totalIssues: number; criticalIssues: number; openPorts: number | null; subdomains: number | null };
  finding_counts: Record<Severity, number>;
  observations: ObservationView[];
  grades: { tls: string | null; httpObservatory: { grade: string; score: number } | null };
  breaches: BreachesView;
  technologies: TechnologyView[];
  tls: TlsView;
  email_security: EmailSecurityView;
  /** Absent in reports whose dns check stored no DNSSEC result. */
  dnssec?: DnssecView;
  /** Absent in reports from before these checks. */
  web_hardening?: WebHardeningView;
  network: NetworkView;
  /** True for the spec's sample report (ids beginning demo_ or audit_): not a scan of anyone's site. */
  sample?: true;
  /** SPEC §3 premium fields: a paid audit of this report was bought (issue 8). */
  is_premium?: boolean;
  plan_type?: 'basic' | 'pro' | null;
  badge_eligible_until?: string | null;
  /** standard (free scan) or deep (the paid audit's scan). */
  scan_depth?: 'standard' | 'deep';
  /**
   * DECISIONS "Scan modes": the mode the scan ran in, and everything it did not check with the
   * reason (passive, an error, a timeout, the per-target limit). `partial` reports cap the score.
   */
  scan_mode: ScanMode;
  coverage: CoverageView;
  /** Issue 29 item 8: `coverage.notChecked` by reason, each reason once with the checks and parts under it. Absent in views made before it. */
  not_checked_groups?: NotCheckedGroup[];
  /**
   * DECISIONS "Scan modes" [attacker]: the lead's address is at the site's domain and a code was
   * mailed to it; confirmed (POST /api/audits/{id}/confirm-address), the report is rescanned active.
   * Never says whose address it is.
   */
  address_proof_pending?: true;
  /**
   * Issue 29 item 6: the full scan that replaced this partial report (an unlock, a confirmed address),
   * and when it was asked for. Each scan is its own report; the share link's view leaves it out (an audit id).
   */
  superseded_by?: { audit_id: string; created_at: string };
  /** The partial report this full scan replaced, and when that one finished. Left out of the share link's view too. */
  supersedes?: { audit_id: string; completed_at: string | null };
  /**
   * The Pro Audit's step-by-step remediation plan (DECISIONS "What paid audits add"): completed Pro
   * Audits only. Public like the rest of the report: anyone with the report's id may read it.
   */
  remediation_plan?: RemediationPlanView;
  /** The Pro Audit's free re-scan: its deadline and whether it was used (Pro Audits only). */
  free_rescan?: FreeRescanView;
  /**
   * Issue 21: the services the site and its mail run on ("Your mail: Microsoft 365 · DNS:
   * Cloudflare"), each with what it was read from; every report, free or paid. Null when nothing
   * was detected; absent in views made before detection.
   */
  providers?: ProvidersView | null;
}

export interface AuditViewContext {
  /** The business the report is for: public (DECISIONS "Public audit view"). */
  businessName?: string;
  /** The owner's contact details: pass only when the reader is the signed-in owner. */
  owner?: OwnerContact;
  sample?: boolean;
  /** The deployment's scanner (name, user agent, /scanner page): the "let the scanner in" steps name it. */
  scanner?: ScannerProduct;
}

/** The 4 long-term items every report ends with (SPEC §2 results page: "plus 4 fixed long-term items"). */
export const LONG_TERM_RECOMMENDATIONS: readonly RecommendationView[] = [
  {
    priority: 'long-term',
    title: 'Scan regularly',
    action: 'Re-run this assessment every month and after every change to the site, its hosting or its DNS, so new weaknesses are found before attackers find them.',
  },
  {
    priority: 'long-term',
    title: 'Keep software up to date',
    action: 'Apply updates to the CMS, its plugins and themes, the web server and the TLS library as they are released, and remove software you no longer use.',
  },
  {
    priority: 'long-term',
    title: 'Turn on multi-factor authentication',
    action: 'Require MFA on email, hosting, domain registrar and website admin accounts: it stops most attacks that start with a stolen or reused password.',
  },
  {
    priority: 'long-term',
    title: 'Keep backups and an incident plan',
    action: 'Keep tested, offline backups of the site and its data, and a short written plan of who does what if the site is compromised.',
  },
];

const SEVERITY_RANK: Record<Severity, number> = { critical: 0, high: 1, medium: 2, low: 3, info: 4 };

export const isIssue = (finding: Pick<Finding, 'severity'>): boolean => finding.severity !== 'info';

/** Issues (not observations) by severity. */
export function issueCounts(findings: readonly Pick<Finding, 'severity'>[]): IssueCounts {
  const counts: IssueCounts = { critical: 0, high: 0, medium: 0, low: 0 };
  for (const finding of findings) if (finding.severity !== 'info') counts[finding.severity] += 1;
  return counts;
}

/** Worst first; within a severity the higher CVSS first, then by title so the order is stable. */
export function compareFindings(a: Finding, b: Finding): number {
  return SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] || (b.cvssScore ?? -1) - (a.cvssScore ?? -1) || a.title.localeCompare(b.title);
}

/** Every finding of the audit, de-duplicated by id (a check saved twice keeps one copy). */
export function auditFindings(audit: Pick<Audit, 'checks'>): Finding[] {
  const seen = new Map<string, Finding>();
  for (const check of audit.checks) for (const finding of check.findings) if (!seen.has(finding.id)) seen.set(finding.id, finding);
  return [...seen.values()].sort(compareFindings);
}

export function countBySeverity(findings: readonly Pick<Finding, 'severity'>[]): Record<Severity, number> {
  const counts: Record<Severity, number> = { critical: 0, high: 0, medium: 0, low: 0, info: 0 };
  for (const finding of findings) counts[finding.severity] += 1;
  return counts;
}

/** The immediate actions: the most important issues' own recommendations, one per distinct action. */
export function immediateRecommendations(issues: readonly Finding[], limit: number = RESULT_LIST_LIMITS.immediateRecommendations): RecommendationView[] {
  const seen = new Set<string>();
  const picked: RecommendationView[] = [];
  for (const finding of [...issues].filter(isIssue).sort(compareFindings)) {
    const action = finding.recommendation.trim();
    if (!action || seen.has(action)) continue;
    seen.add(action);
    picked.push({ priority: 'immediate', title: finding.title, action, severity: finding.severity as IssueSeverity, findingId: finding.id, fix: fixAdvice({ id: finding.id, recommendation: action }) });
    if (picked.length === limit) break;
  }
  return picked;
}

export function riskFactors(issues: readonly Finding[]): string[] {
  const byCategory = new Map<string, Record<Severity, number>>();
  for (const finding of issues.filter(isIssue)) {
    const counts = byCategory.get(finding.category) ?? countBySeverity([]);
    counts[finding.severity] += 1;
    byCategory.set(finding.category, counts);
  }
  const weight = (c: Record<Severity, number>) => [c.critical, c.high, c.medium, c.low];
  return [...byCategory.entries()]
    .sort(([aName, a], [bName, b]) => {
      const [wa, wb] = [weight(a), weight(b)];
      for (let i = 0; i < wa.length; i++) if (wa[i] !== wb[i]) return wb[i]! - wa[i]!;
      return aName.localeCompare(bName);
    })
    .map(([category, counts]) => {
      const total = issueSeverities.reduce((sum, s) => sum + counts[s], 0);
      const parts = issueSeverities.filter((s) => counts[s] > 0).map((s) => `${counts[s]} ${s}`);
      return `${category}: ${total} ${total === 1 ? 'issue' : 'issues'} (${parts.join(', ')})`;
    });
}

/** The audit as the existing results page reads it, without the internal lead reference. */
/** The audit as anyone holding its id may read it: no lead or owner identifiers. */
export function auditForDisplay(audit: Audit): Omit<Audit, 'leadId' | 'ownerId' | 'paymentSessionId' | 'addressProof'> {
  // The payment session id opens the order (GET /api/orders/{id}): not for everyone with the report link.
  // Whether the lead asked for an account is the lead's own business: the view says only that a proof is pending.
  const { leadId: _leadId, ownerId: _ownerId, paymentSessionId: _session, addressProof: _proof, ...rest } = audit;
  return rest;
}

export function buildAuditView(audit: Audit, context: AuditViewContext = {}): AuditResultView {
  const findings = auditFindings(audit);
  const issues = findings.filter(isIssue);
  const counts = countBySeverity(findings);
  const ended = audit.status === 'completed' || audit.status === 'failed';
  const check = (name: string) => audit.checks.find((c) => c.name === name);
  const softwareCves = softwareCveRecords(audit.checks);

  const subdomains = check('subdomains');
  const subdomainsData = record(subdomains?.data);
  const subdomainsFound = subdomains?.status === 'ok' ? (num(subdomainsData?.subdomainsFound) ?? null) : null;
  const activeSubdomains = subdomains?.status === 'ok' ? (num(subdomainsData?.activeSubdomains) ?? null) : null;

  const ports = check('ports');
  const portsData = record(ports?.data);
  const openPorts = ports?.status === 'ok' ? records(portsData?.open) : [];
  const portScanResults: PortScanResultView[] = openPorts
    .filter((p) => num(p.port) !== undefined)
    .map((p) => ({
      port_number: num(p.port)!,
      service_name: str(p.service) ?? 'unknown',
      port_status: 'open' as const,
      risk_level: severityOf(p.risk),
      ...(str(p.product) ? { product: str(p.product) } : {}),
      ...(str(p.version) ? { version: str(p.version) } : {}),
    }))
    .sort((a, b) => a.port_number - b.port_number);

  const recommendations = [...immediateRecommendations(issues), ...LONG_TERM_RECOMMENDATIONS];
  const fixes = reportPlatformFixes(audit);
  const score = audit.status === 'completed' ? (audit.score ?? null) : null;
  const vulnerabilities = issues.map((finding) => toVulnerability(finding, softwareCves, fixes));
  const coverage = coverageOf(audit);

  const view: AuditResultView = {
    id: audit.id,
    target_url: audit.targetUrl,
    audit_status: audit.status,
    error_message: audit.errorMessage ?? null,
    created_at: audit.createdAt,
    completed_at: audit.completedAt ?? null,
    risk_level: audit.status === 'completed' ? (audit.riskLevel ?? null) : null,
    dns_results: {
      status: sectionStatus(subdomains, audit.status),
      subdomainsFound,
      totalSubdomains: subdomainsFound,
      activeSubdomains,
      completedAt: subdomains && isFinal(subdomains.status) && ended ? (audit.completedAt ?? null) : null,
    },
    port_scan_results: portScanResults,
    vulnerability_summary: {
      vulnerabilities,
      totalIssues: issues.length,
      criticalIssues: counts.critical,
      subdomainsScanned: subdomainsFound,
      riskFactors: riskFactors(issues),
      overallRisk: audit.status === 'completed' ? (audit.riskLevel ?? null) : null,
      recommendations,
    },
    finding_groups: buildFindingGroups(vulnerabilities, findings.length - issues.length),
    host: audit.host,
    business_name: context.businessName ?? null,
    risk_score: score,
    grade: audit.status === 'completed' ? (audit.grade ?? null) : null,
    grade_caps: audit.status === 'completed' ? (audit.gradeCaps ?? []) : [],
    site_access: siteAccessOf(audit.checks, context.scanner),
    counters: {
      totalIssues: issues.length,
      criticalIssues: counts.critical,
      openPorts: ports?.status === 'ok' ? portScanResults.length : null,
      subdomains: subdomainsFound,
    },
    finding_counts: counts,
    observations: findings.filter((f) => !isIssue(f)).map(toObservation),
    grades: { tls: str(record(check('tls')?.data)?.grade) ?? null, httpObservatory: observatoryGrade(check('http')) },
    breaches: breachesView(check('breaches'), audit.status),
    technologies: technologiesView(check('software'), softwareCves),
    tls: tlsView(check('tls'), audit.status),
    email_security: emailView(check('email'), audit.status),
    ...optional('dnssec', dnssecView(check('dns'))),
    ...optional('web_hardening', webHardeningView(check('http'), check('exposure'))),
    network: {
      status: sectionStatus(ports, audit.status),
      address: str(portsData?.address) ?? null,
      portsScanned: num(portsData?.scanned) ?? null,
      closed: num(portsData?.closed) ?? null,
      filtered: num(portsData?.filtered) ?? null,
      firewall: str(portsData?.firewall) ?? null,
    },
    is_premium: audit.isPremium === true,
    plan_type: audit.planType ?? null,
    badge_eligible_until: audit.badgeEligibleUntil ?? null,
    scan_depth: audit.depth ?? 'standard',
    scan_mode: ranMode(audit),
    coverage,
    not_checked_groups: notCheckedByReason(coverage.notChecked),
    ...(audit.addressProof?.pending ? { address_proof_pending: true as const } : {}),
    ...(audit.supersededBy ? { superseded_by: { audit_id: audit.supersededBy.auditId, created_at: audit.supersededBy.createdAt } } : {}),
    ...(audit.supersedes ? { supersedes: { audit_id: audit.supersedes.auditId, completed_at: audit.supersedes.completedAt ?? null } } : {}),
    providers: fixes.providers,
  };
  // What the paid audit bought (the plan catalogue's grants): the Pro Audit's re-scan and remediation plan.
  const grants = auditGrants(audit);
  if (grants.rescanWithinDays !== null) view.free_rescan = freeRescanView(audit);
  if (grants.remediationPlan && audit.status === 'completed') view.remediation_plan = withPlatformGuides(buildRemediationPlan(audit), fixes);
  if (context.owner) {
    view.leads = {
      first_name: context.owner.firstName,
      last_name: context.owner.lastName,
      business_name: context.owner.businessName,
      web_url: context.owner.webUrl,
      email: context.owner.email,
    };
  }
  if (context.sample) view.sample = true;
  return view;
}

/** The Pro Audit's plan items with their platform guides (the plan is paid: always the steps). */
function withPlatformGuides(plan: RemediationPlanView, fixes: ReportPlatformFixes): RemediationPlanView {
  return {
    ...plan,
    items: plan.items.map((item) => {
      const guides = guidesOfFinding({ ...fixes, paid: true }, item.findingId);
      return guides?.access === 'included' ? { ...item, platformGuides: guides } : item;
    }),
  };
}

function toVulnerability(finding: Finding, softwareCves: ReadonlyMap<string, unknown>, fixes: ReportPlatformFixes): VulnerabilityView {
  const cveDetails = cveDetailsOf(finding, softwareCves);
  const platformGuides = guidesOfFinding(fixes, finding.id);
  return {
    id: finding.id,
    title: finding.title,
    severity: finding.severity as IssueSeverity,
    category: finding.category,
    description: finding.description,
    recommendation: finding.recommendation,
    fix: fixAdvice(finding),
    ...(finding.evidence ? { evidence: finding.evidence } : {}),
    ...(finding.cvssScore !== undefined ? { cvssScore: finding.cvssScore } : {}),
    ...(finding.cves?.length ? { cves: finding.cves } : {}),
    ...(cveDetails ? { cveDetails } : {}),
    ...(platformGuides ? { platformGuides } : {}),
  };
}

function toObservation(finding: Finding): ObservationView {
  return {
    id: finding.id,
    title: finding.title,
    category: finding.category,
    description: finding.description,
    recommendation: finding.recommendation,
    fix: fixAdvice(finding),
    ...(finding.evidence ? { evidence: finding.evidence } : {}),
  };
}

const isFinal = (status: CheckStatus) => status === 'ok' || status === 'error' || status === 'timeout' || status === 'skipped';

function sectionStatus(check: CheckResult | undefined, auditStatus: AuditStatus): SectionStatus {
  if (!check) return auditStatus === 'completed' || auditStatus === 'failed' ? 'skipped' : 'pending';
  switch (check.status) {
    case 'ok':
      return 'completed';
    case 'error':
    case 'timeout':
      return 'failed';
    case 'skipped':
      return 'skipped';
    case 'running':
      return 'in_progress';
    default:
      return 'pending';
  }
}

function observatoryGrade(check: CheckResult | undefined): { grade: string; score: number } | null {
  const observatory = record(record(check?.data)?.observatory);
  const grade = str(observatory?.grade);
  const score = num(observatory?.score);
  return observatory?.graded !== false && grade && score !== undefined ? { grade, score } : null;
}

function breachesView(check: CheckResult | undefined, auditStatus: AuditStatus): BreachesView {
  if (!check || !isFinal(check.status)) return { status: auditStatus === 'completed' ? 'not-run' : 'pending', checked: null, breached: null };
  if (check.status !== 'ok') return { status: 'error', checked: null, breached: null };
  const data = record(check.data);
  const status = str(data?.status) ?? 'ok';
  return status === 'ok'
    ? { status, checked: num(data?.checked) ?? null, breached: num(data?.breached) ?? null }
    : { status, checked: null, breached: null };
}

/** CVEs listed per product: enough for the report; the finding carries the full list. */
const MAX_CVES_PER_TECHNOLOGY = 20;

function technologiesView(check: CheckResult | undefined, softwareCves: ReadonlyMap<string, unknown>): TechnologyView[] {
  const data = record(check?.data);
  const vulnerabilities = records(data?.vulnerabilities);
  return records(data?.technologies)
    .filter((t) => str(t.name))
    .map((t) => {
      const match = vulnerabilities.find((v) => str(v.findingId) !== undefined && v.findingId === t.findingId);
      const cves: CveView[] = readCveDetails(str(match?.findingId) ? softwareCves.get(str(match?.findingId)!) : undefined).slice(0, MAX_CVES_PER_TECHNOLOGY);
      return {
        name: str(t.name)!,
        version: str(t.version) ?? null,
        category: str(t.category) ?? null,
        knownVulnerabilities: num(t.knownVulnerabilities) ?? 0,
        ...(str(match?.fixedVersion) ? { fixedVersion: str(match?.fixedVersion) } : {}),
        cves,
      };
    });
}

function tlsView(check: CheckResult | undefined, auditStatus: AuditStatus): TlsView {
  const data = record(check?.data);
  const hsts = record(data?.hsts);
  const redirect = record(data?.redirect);
  return {
    status: sectionStatus(check, auditStatus),
    grade: str(data?.grade) ?? null,
    ports: records(data?.ports)
      .filter((p) => num(p.port) !== undefined)
      .map((p) => {
        const cert = record(p.certificate);
        return {
          port: num(p.port)!,
          grade: str(p.grade) ?? null,
          protocols: strings(p.offered),
          certificate: cert
            ? {
                subject: str(cert.subject) ?? null,
                issuer: str(cert.issuer) ?? null,
                validTo: str(cert.notAfter) ?? null,
                daysLeft: num(cert.daysLeft) ?? null,
                expired: cert.expired === true,
                selfSigned: cert.selfSigned === true,
                trusted: cert.trusted === true,
                hostnameMatch: cert.hostnameMatch === true,
                keyType: str(cert.keyType) ?? null,
                keySize: num(cert.keySize) ?? null,
              }
            : null,
        };
      }),
    hsts: hsts && !('error' in hsts) ? { enabled: hsts.valid === true, maxAge: num(hsts.maxAge) ?? null } : null,
    ...(data && 'hstsPreload' in data ? { hstsPreload: hstsPreloadView(data.hstsPreload) } : {}),
    httpsRedirect: redirect && typeof redirect.endsOnHttps === 'boolean' ? redirect.endsOnHttps : null,
    ...optional('caa', caaView(data?.caa)),
    ...optional('ocspStapling', ocspView(data?.ocspStapling)),
    ...optional('certificateTransparency', transparencyView(data?.certificateTransparency)),
  };
}

/** `{ [key]: value }` when the value is defined, else nothing: a field an older report lacks stays absent. */
function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

function caaView(value: unknown): TlsView['caa'] {
  const caa = record(value);
  if (!caa) return undefined;
  return {
    records: strings(caa.records),
    issuer: str(caa.issuerOrganisation) ?? null,
    allowedIssuers: strings(caa.allowed),
    issuerAllowed: typeof caa.issuerAllowed === 'boolean' ? caa.issuerAllowed : null,
    note: str(caa.reason) ?? null,
  };
}

function ocspView(value: unknown): TlsView['ocspStapling'] {
  const ocsp = record(value);
  if (!ocsp) return undefined;
  return { stapled: typeof ocsp.stapled === 'boolean' ? ocsp.stapled : null, responderListed: str(ocsp.responder) !== undefined };
}

function transparencyView(value: unknown): TlsView['certificateTransparency'] {
  const ct = record(value);
  if (!ct) return undefined;
  return { scts: Array.isArray(ct.scts) ? ct.scts.length : null, malformed: ct.sctListMalformed === true };
}

function hstsPreloadView(value: unknown): TlsView['hstsPreload'] {
  const entry = record(value);
  return entry && str(entry.name) ? { entry: str(entry.name)!, includeSubDomains: entry.includeSubDomains === true } : null;
}

function emailView(check: CheckResult | undefined, auditStatus: AuditStatus): EmailSecurityView {
  const data = record(check?.data);
  const spf = record(data?.spf);
  const dmarc = record(data?.dmarc);
  const mxHosts = records(data?.mx).map((m) => str(m.host)).filter((h) => h !== undefined);
  return {
    status: sectionStatus(check, auditStatus),
    domain: str(data?.domain) ?? null,
    spf: str(spf?.record) ? { record: str(spf?.record)!, allQualifier: str(spf?.allQualifier) ?? null } : null,
    dmarc: str(dmarc?.record) ? { record: str(dmarc?.record)!, policy: str(dmarc?.effectivePolicy) ?? str(dmarc?.policy) ?? null } : null,
    dkim: { selectorsFound: strings(record(data?.dkim)?.selectorsFound) },
    mx: records(data?.mx)
      .filter((m) => str(m.host))
      .map((m) => ({
        host: str(m.host)!,
        preference: num(m.preference) ?? null,
        starttls: typeof m.starttls === 'boolean' ? m.starttls : null,
        tlsVersion: str(m.tlsVersion) ?? null,
        ...optional('dane', daneView(m)),
      })),
    ...(data && 'mtaStsPolicy' in data ? { mtaSts: mtaStsView(data.mtaStsPolicy, mxHosts) } : {}),
    ...(data && 'tlsRpt' in data ? { tlsRpt: tlsRptView(data.tlsRpt) } : {}),
    ...(data && 'bimi' in data ? { bimi: bimiView(data.bimi) } : {}),
  };
}

function daneView(mx: Record<string, unknown>): DaneView | undefined {
  const tlsa = Array.isArray(mx.tlsa) ? mx.tlsa : undefined;
  const result = str(mx.daneResult);
  if (!tlsa || tlsa.length === 0 || !result) return undefined;
  const dnssec = str(mx.tlsaDnssec) ?? null;
  // Reports from before validation knew only whether an RRSIG came with the records.
  const signed = dnssec !== null ? (dnssec === 'secure' ? true : dnssec === 'insecure' ? false : null) : typeof mx.tlsaSigned === 'boolean' ? mx.tlsaSigned : null;
  return { result, signed, dnssec, records: tlsa.length };
}

function mtaStsView(value: unknown, mxHosts: readonly string[]): MtaStsView | null {
  const policy = record(value);
  if (!policy || strings(policy.records).length === 0) return null;
  const status = num(policy.status);
  const trusted = typeof policy.certificateTrusted === 'boolean' ? policy.certificateTrusted : null;
  const fetchError = str(policy.fetchError);
  const fetchProblem = fetchError ?? (status === undefined ? 'not fetched' : status !== 200 ? `HTTP ${status}` : trusted === false ? 'the certificate of the policy host is not trusted' : null);
  const mxPatterns = strings(policy.mx);
  const uncoveredMx = mxHosts.filter((host) => !mxPatterns.some((pattern) => mxMatchesPattern(host, pattern)));
  return {
    policyFetched: fetchProblem === null,
    certificateTrusted: trusted,
    fetchProblem,
    mode: str(policy.mode) ?? null,
    maxAgeSeconds: num(policy.maxAge) ?? null,
    mxPatterns,
    mxCovered: mxHosts.length - uncoveredMx.length,
    mxTotal: mxHosts.length,
    uncoveredMx,
    errors: strings(policy.errors),
  };
}

function tlsRptView(value: unknown): EmailSecurityView['tlsRpt'] {
  const tlsRpt = record(value);
  if (!tlsRpt || !str(tlsRpt.record)) return null;
  const errors = strings(tlsRpt.errors);
  return { rua: strings(tlsRpt.rua), valid: errors.length === 0, errors };
}

function bimiView(value: unknown): EmailSecurityView['bimi'] {
  const bimi = record(value);
  if (!bimi || !str(bimi.record)) return null;
  const errors = strings(bimi.errors);
  return { logo: str(bimi.logo) ?? null, authority: str(bimi.authority) ?? null, valid: errors.length === 0, errors };
}

/** IANA's DNSSEC algorithm names; RSA/SHA-1 (5, 7) is deprecated (RFC 8624), RSA/MD5, DSA and GOST are not validated. */
const DNSSEC_ALGORITHMS: Readonly<Record<number, { name: string; deprecated: boolean }>> = {
  1: { name: 'RSA/MD5', deprecated: true },
  3: { name: 'DSA', deprecated: true },
  5: { name: 'RSA/SHA-1', deprecated: true },
  6: { name: 'DSA-NSEC3-SHA1', deprecated: true },
  7: { name: 'RSA/SHA-1 (NSEC3)', deprecated: true },
  8: { name: 'RSA/SHA-256', deprecated: false },
  10: { name: 'RSA/SHA-512', deprecated: false },
  12: { name: 'GOST', deprecated: true },
  13: { name: 'ECDSA P-256/SHA-256', deprecated: false },
  14: { name: 'ECDSA P-384/SHA-384', deprecated: false },
  15: { name: 'Ed25519', deprecated: false },
  16: { name: 'Ed448', deprecated: false },
};

const bareName = (name: string) => name.toLowerCase().replace(/\.$/, '');

function dnssecView(check: CheckResult | undefined): DnssecView | undefined {
  const data = record(check?.data);
  const dnssec = record(data?.dnssec);
  const status = str(dnssec?.status);
  if (!dnssec || !status) return undefined;
  const validation = record(dnssec.validation);
  const domain = str(data?.domain) ?? null;
  const steps = records(validation?.steps);
  // The domain's own signatures: its keys, its records, its proof of non-existence (not the parents').
  const own = steps.filter((step) => step.step === 'rrset' || step.step === 'denial' || (step.step === 'dnskey' && domain !== null && bareName(str(step.name) ?? '') === bareName(domain)));
  const expiries = own
    .flatMap((step) => records(step.signatures))
    .filter((signature) => signature.result === 'valid')
    .map((signature) => str(signature.expiration))
    .filter((date) => date !== undefined && !Number.isNaN(Date.parse(date)))
    .sort();
  const algorithms = (Array.isArray(validation?.algorithms) ? validation.algorithms : []).filter((a): a is number => num(a) !== undefined);
  return {
    domain,
    status,
    validation: str(validation?.result) ?? null,
    reason: str(validation?.reason) ?? null,
    algorithms: [...new Set(algorithms)].map((number) => ({ number, name: DNSSEC_ALGORITHMS[number]?.name ?? `algorithm ${number}`, deprecated: DNSSEC_ALGORITHMS[number]?.deprecated ?? false })),
    signaturesExpire: expiries[0] ?? null,
    signatureDatesWrong: steps.some((step) => step.result === 'expired' || step.result === 'not-yet-valid'),
  };
}

function webHardeningView(http: CheckResult | undefined, exposure: CheckResult | undefined): WebHardeningView | undefined {
  const httpData = record(http?.data);
  const exposureData = record(exposure?.data);
  const view: WebHardeningView = {
    ...(httpData && 'permissionsPolicy' in httpData ? { permissionsPolicy: permissionsPolicyView(httpData.permissionsPolicy) } : {}),
    ...(exposureData && 'securityTxt' in exposureData ? { securityTxt: securityTxtView(exposureData.securityTxt) } : {}),
    ...(httpData && 'mixedContent' in httpData ? { mixedContent: mixedContentView(httpData.mixedContent) } : {}),
  };
  return Object.keys(view).length > 0 ? view : undefined;
}

function permissionsPolicyView(value: unknown): WebHardeningView['permissionsPolicy'] {
  const policy = record(value);
  if (!policy) return null;
  const features = record(policy.features) ?? {};
  return {
    present: str(policy.value) !== undefined,
    valid: typeof policy.valid === 'boolean' ? policy.valid : null,
    blocked: Object.entries(features)
      .filter(([, allow]) => Array.isArray(allow) && allow.length === 0)
      .map(([feature]) => feature),
    allowedToAll: strings(policy.broad),
  };
}

function securityTxtView(value: unknown): WebHardeningView['securityTxt'] {
  const txt = record(value);
  if (!txt || typeof txt.present !== 'boolean') return null;
  const rfc = record(txt.rfc9116);
  const expires = record(rfc?.expires);
  const expiresInDays = num(rfc?.expiresInDays);
  const canonical = record(rfc?.canonical);
  return {
    found: txt.present || rfc !== undefined,
    signed: typeof rfc?.signed === 'boolean' ? rfc.signed : null,
    contacts: strings(rfc?.contacts),
    expires: str(expires?.date) ?? null,
    expired: expiresInDays === undefined || !str(expires?.date) ? null : expiresInDays < 0,
    canonicalMatches: typeof canonical?.matches === 'boolean' ? canonical.matches : null,
  };
}

/** Mixed content examples listed: enough to find the page's markup at fault. */
const MIXED_CONTENT_EXAMPLES = 3;

function mixedContentView(value: unknown): WebHardeningView['mixedContent'] {
  const mixed = record(value);
  if (!mixed) return null;
  const active = records(mixed.active);
  const passive = records(mixed.passive);
  return {
    checked: mixed.checked === true,
    active: active.length,
    passive: passive.length,
    examples: [...active, ...passive]
      .map((r) => str(r.url))
      .filter((url) => url !== undefined)
      .slice(0, MIXED_CONTENT_EXAMPLES),
    upgradeInsecureRequests: mixed.upgradeInsecureRequests === true,
  };
}

function severityOf(value: unknown): Severity {
  return typeof value === 'string' && value in SEVERITY_RANK ? (value as Severity) : 'info';
}
