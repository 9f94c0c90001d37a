import * as z from 'zod';

/** DECISIONS "Audit statuses": queued → in_progress → completed | failed. */
export const auditStatuses = ['queued', 'in_progress', 'completed', 'failed'] as const;
export type AuditStatus = (typeof auditStatuses)[number];

export const severities = ['critical', 'high', 'medium', 'low', 'info'] as const;
export type Severity = (typeof severities)[number];
/** DECISIONS "Issues vs observations": these count; `info` findings are observations. */
export type IssueSeverity = Exclude<Severity, 'info'>;

export type CheckStatus = 'pending' | 'running' | 'ok' | 'error' | 'timeout' | 'skipped';

export interface Finding {
  /** Stable id, e.g. dns.resolve.no-address: history, diffs and alerts compare scans by it. */
  id: string;
  check: string;
  title: string;
  severity: Severity;
  category: string;
  evidence?: string;
  description: string;
  recommendation: string;
  cvssScore?: number;
  /** CVE ids: the software finding's (known exploited first) and a TLS finding's named attack. Monitoring, diffs and KEV checks compare by them. */
  cves?: string[];
  /**
   * DECISIONS "Per-CVE detail": a software finding's vulnerabilities as the knowledge base knows them,
   * known exploited first (same order as `cves`). Absent on findings of other checks and on software
   * findings stored before it existed: readers fall back to the software check's data (audit-view.ts).
   */
  cveDetails?: CveDetail[];
}

/** A CVE's severity: the CVSS v3 band where there is a score, else the vendor's rating; `unknown` when neither exists. */
export type CveSeverity = 'critical' | 'high' | 'medium' | 'low' | 'unknown';

/** One vulnerability of a software finding (DECISIONS "Per-CVE detail"). */
export interface CveDetail {
  /** The CVE id; a GHSA or retire.js id for the few JavaScript library advisories that have no CVE. */
  id: string;
  /** CVSS v3.x base score. */
  cvssScore?: number;
  /** `CVSS:3.1/AV:N/…`, where the source gives it (many NVD-only scores come without one). */
  cvssVector?: string;
  severity: CveSeverity;
  /** In CISA's Known Exploited Vulnerabilities catalog. */
  exploited: boolean;
  /** YYYY-MM-DD: when CISA added it to the catalog. */
  kevDateAdded?: string;
  /** CISA: known to be used in ransomware campaigns. */
  ransomware?: boolean;
  /** FIRST EPSS: probability of exploitation in the next 30 days (0–1), and its percentile (0–1). */
  epss?: number;
  epssPercentile?: number;
  /** The lowest known version above the detected one that this CVE does not affect. */
  fixedIn?: string;
  /** One or two sentences, at most 200 characters (the knowledge base's summary); the scanner always sets it. */
  summary?: string;
  /**
   * The source's own record of this vulnerability (https URLs), where its licence asks that every copy
   * link to it: WordPress plugin and theme CVEs link their Wordfence Intelligence record(s).
   */
  references?: string[];
}

export interface CheckResult {
  name: string;
  status: CheckStatus;
  durationMs?: number;
  /** Why a check did not finish (status error or timeout), or was not run (skipped). */
  reason?: string;
  /**
   * DECISIONS "Blocked is a result": why a `skipped` check was not run when the scan itself did not
   * choose to leave it out — the site's pages answered the scanner with a challenge or an edge block
   * (`blocked`), or with 429/503 past the one `Retry-After` wait (`rate_limited`). Absent: passive.
   */
  cause?: 'blocked' | 'rate_limited';
  findings: Finding[];
  /** The check's own measured data (addresses, records, ports …). */
  data?: Record<string, unknown>;
}

/** A cap that held the score below the formula's (lambdas/domain/grade-caps.ts scoreScan decides them). */
export interface GradeCap {
  id: 'no-https' | 'kev' | 'critical' | 'partial';
  /** The highest score the report may show because of it. */
  limit: number;
  /** One sentence a site owner reads: why the grade stops there. */
  reason: string;
}

export interface Audit {
  id: string;
  leadId?: string;
  /** The account the audit is attached to (Cognito sub): a new account or the lead's existing one. */
  ownerId?: string;
  /** The business the report is for (public on the report, DECISIONS "Public audit view"). */
  businessName?: string;
  targetUrl: string;
  host: string;
  status: AuditStatus;
  errorMessage?: string;
  createdAt: string;
  startedAt?: string;
  completedAt?: string;
  score?: number;
  grade?: Grade;
  riskLevel?: RiskLevel;
  /**
   * DECISIONS "Grade caps": the caps that lowered `score` below the formula's (lambdas/domain/grade-caps.ts),
   * lowest first. Absent on audits scored before caps, and on those no cap lowered.
   */
  gradeCaps?: GradeCap[];
  checks: CheckResult[];
  /** How deep the last scan went: a paid audit re-runs the audit `deep` (DECISIONS "What paid audits add"). */
  depth?: ScanDepth;
  /**
   * DECISIONS "Scan modes": what the requester proved, decided by the server when the audit was
   * asked for (passive for anyone, active after proof of control of the site's domain). Absent on
   * audits from before scan modes, which all ran active.
   */
  mode?: ScanMode;
  /** The mode the last scan really ran in, when it ran less than `mode` allowed (the per-target active limit), and why. */
  ranPassiveBecause?: string;
  /**
   * DECISIONS "Scan modes" [attacker]: the lead's address is at the site's domain but not proven yet.
   * The scan runs passive and a code is mailed to the address; the code confirmed for this audit
   * (POST /api/audits/{id}/confirm-address) rescans it active and, when the lead asked for an
   * account (`createAccount`), only then creates it. Removed once an active rescan is queued.
   */
  addressProof?: { pending: true; createAccount: boolean };
  /**
   * Issue 29 item 6 (DECISIONS "Scan modes": each scan is its own history entry): the partial
   * (passive) report an unlock or a confirmed address replaced by this full scan, and when that one
   * had finished. Set on the new audit; the old one keeps its own checks, mode and times.
   */
  supersedes?: { auditId: string; completedAt?: string };
  /** The full scan that replaced this partial report (its audit id, and when it was asked for). */
  supersededBy?: { auditId: string; createdAt: string };
  /**
   * Why the audit exists when nobody asked for it: `monitoring` for a subscriber's scheduled rescan
   * (issue 8 "Monitoring"; it alerts on changes and never counts against the plan's scans). Absent for
   * a lead's free scan and a user's own quick scan.
   */
  origin?: AuditOrigin;
  /** SPEC §3 premium update fields, set when a paid audit of this report is bought. */
  isPremium?: boolean;
  planType?: 'basic' | 'pro';
  /** The checkout session that paid for it; not shown publicly (it opens the order). */
  paymentSessionId?: string;
  /** Until when the paid audit makes the site's badge eligible (30 or 90 days, AUDIT_BADGE_ELIGIBILITY_DAYS). */
  badgeEligibleUntil?: string;
  /** When the paid audit was granted (the payment webhook); the Pro Audit's free re-scan window counts from it. */
  updatedAt?: string;
  /** When the current Pro Audit purchase's free re-scan was started (once per purchase, lambdas/domain/free-rescan.ts). */
  freeRescanUsedAt?: string;
}

export const auditOrigins = ['monitoring'] as const;
export type AuditOrigin = (typeof auditOrigins)[number];

/** standard: the free scan (top-100 ports); deep: a paid audit (top-1000 ports, every subdomain's TLS and headers). */
export const scanDepths = ['standard', 'deep'] as const;
export type ScanDepth = (typeof scanDepths)[number];

/**
 * DECISIONS "Scan modes": passive = what any visitor's browser or a mail server does; active = all
 * the rest (port sweep, exposure paths, WordPress user enumeration, AXFR, subdomain probing, deep scans).
 */
export const scanModes = ['passive', 'active'] as const;
export type ScanMode = (typeof scanModes)[number];

export type Grade = 'A' | 'B' | 'C' | 'D' | 'F';
export type RiskLevel = 'low' | 'medium' | 'high';

/** A scan job as it travels on the queue. */
export const scanJobSchema = z.object({
  auditId: z.string().min(1).max(100),
  kind: z.literal('scan').default('scan'),
  /** Absent on jobs queued before paid audits existed: standard. */
  depth: z.enum(scanDepths).optional(),
});
export type ScanJob = z.output<typeof scanJobSchema>;

/**
 * Which scan queue a job goes to (issue 30 item 4): each queue has its own consumer capacity, so a
 * burst of free scans never delays a paying customer's scan or a monitoring rescan. The producer
 * decides from who pays: free = lead scans and a free (trial) account's scans; paid = paid audits,
 * unlocks, scan-pack scans, a paying plan's scans and Pro rescans; monitoring = the scheduler's rescans.
 */
export const scanLanes = ['free', 'paid', 'monitoring'] as const;
export type ScanLane = (typeof scanLanes)[number];

/** Audit ids are random UUIDs: 122 bits, not guessable. */
export const auditIdSchema = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/, 'Invalid audit ID');
