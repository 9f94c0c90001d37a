import * as z from 'zod';
import type { AuditHistoryEntry } from './account.contract.js';
import { auditStatuses, scanModes, type CveDetail, type GradeCap } from './audit.js';
import { type CoverageView, notCheckedCauses } from './coverage.js';

/**
 * The public API v1's (`/api/v1`, personal API tokens) request and answer shapes that are not
 * shared with the dashboard's contracts: the scan request, and the answers as zod schemas so the
 * OpenAPI document (openapi-v1.ts) is generated from them. Answers are loose objects: a field added
 * later is no break for clients, and the document says which fields are always there.
 */

const risk = z.enum(['low', 'medium', 'high']);
// In answers a format names what a string is, without zod's long patterns.
const uuid = () => z.string().meta({ format: 'uuid' });
const timestamp = () => z.string().meta({ format: 'date-time' });
const count = () => z.number().int().nonnegative();
const counters = () => z.looseObject({ totalIssues: count(), criticalIssues: count(), openPorts: count().nullable(), subdomains: count().nullable() });

export const apiV1Messages = {
  domain: 'Please enter a domain, for example example.com.',
  unknownField: 'The request has a field the API does not know',
} as const;

/** `POST /api/v1/scans`: the verified domain to scan (a bare name or its URL, as the dashboard's Quick Scan takes it). */
export const startScanRequestSchema = z.strictObject(
  {
    domain: z
      .string({ error: apiV1Messages.domain })
      // Checked before the trim, so the published schema (maxLength, pattern) says exactly what is taken.
      .max(2048, apiV1Messages.domain)
      .regex(/\S/, apiV1Messages.domain)
      .trim()
      .meta({ description: 'A domain you verified in Settings → Domains, as `example.com` or `https://example.com/`.', examples: ['example.com'] }),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? `${apiV1Messages.unknownField}: ${issue.keys.join(', ')}` : undefined) },
);
export type StartScanRequest = z.input<typeof startScanRequestSchema>;

/** `POST /api/v1/scans` → 201. */
export const startScanResponseSchema = z.looseObject({ auditId: uuid().meta({ description: 'Poll `GET /api/v1/audits/{auditId}` until its status is completed or failed.' }) });

/** Every refusal: a stable `code` in `error`, a sentence for people in `message`, and per-field messages for a bad request. */
export const apiErrorSchema = z.looseObject({
  error: z.string().meta({ description: 'A stable code, such as validation_failed, invalid_token, plan_required, audit_not_found or rate_limited.' }),
  message: z.string().meta({ description: 'What went wrong, in words for people.' }),
  fields: z.record(z.string(), z.string()).optional().meta({ description: 'validation_failed only: the first message for each field at fault.' }),
});


/** SPEC §3 "Audit history entry", as `GET /api/v1/audits` (and the dashboard) lists it. */
export const auditHistoryEntrySchema = z.looseObject({
  id: uuid(),
  domain: z.string(),
  scanDate: timestamp(),
  tier: z.enum(['basic', 'pro']).meta({ description: "'pro' once a Pro Audit of it was bought." }),
  product: z.enum(['free-report', 'basic-audit', 'pro-audit']).meta({ description: 'What the report is: the free report, or the paid audit bought last (Basic Audit, Pro Audit).' }),
  status: z.enum(auditStatuses),
  riskScore: z.number().nullable(),
  riskLevel: risk.nullable(),
  vulnerabilities: z
    .array(z.looseObject({ id: z.string(), title: z.string(), severity: z.enum(['critical', 'high', 'medium', 'low']) }))
    .meta({ description: 'The issues (observations left out), worst first.' }),
  badgeEligible: z.boolean(),
  findings: counters(),
  scanDuration: z.number().nullable().meta({ description: 'Seconds from start to end; null until it ends.' }),
  reportUrl: z.string(),
  pdfUrl: z.string(),
}) satisfies z.ZodType<AuditHistoryEntry>;

/** `GET /api/v1/audits` → 200: one page, newest first. */
export const auditHistoryPageSchema = z.looseObject({
  audits: z.array(auditHistoryEntrySchema),
  nextCursor: z.string().nullable().meta({ description: 'Pass as `cursor` for the next page; null on the last page.' }),
});

const probability = () => z.number().min(0).max(1);

/** DECISIONS "Per-CVE detail": one vulnerability of a software finding. */
export const cveDetailSchema = z
  .looseObject({
    id: z.string().meta({ description: 'The CVE id; a GHSA or retire.js id for a JavaScript library advisory without a CVE.', examples: ['CVE-2021-41773'] }),
    cvssScore: z.number().min(0).max(10).optional().meta({ description: 'CVSS v3.x base score.' }),
    cvssVector: z.string().optional().meta({ description: 'The CVSS v3.x vector, where the source gives one.', examples: ['CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H'] }),
    severity: z.enum(['critical', 'high', 'medium', 'low', 'unknown']).meta({ description: "The CVSS band, else the vendor's rating; unknown when neither exists." }),
    exploited: z.boolean().meta({ description: "In CISA's Known Exploited Vulnerabilities (KEV) catalog." }),
    kevDateAdded: z.string().optional().meta({ description: 'When CISA added it to the KEV catalog (YYYY-MM-DD).', examples: ['2021-11-03'] }),
    ransomware: z.boolean().optional().meta({ description: 'CISA: known to be used in ransomware campaigns (KEV CVEs only).' }),
    epss: probability().optional().meta({ description: 'FIRST EPSS: probability of exploitation in the next 30 days.' }),
    epssPercentile: probability().optional().meta({ description: 'The EPSS score’s percentile among all scored CVEs.' }),
    fixedIn: z.string().optional().meta({ description: 'The lowest known version above the detected one that this CVE does not affect.' }),
    summary: z.string().optional().meta({ description: 'One or two sentences, at most 200 characters (missing only where a stored report has none).' }),
    references: z
      .array(z.url())
      .optional()
      .meta({
        description: "The source's own record of this vulnerability, where its licence asks for a link: a WordPress plugin or theme CVE links its Wordfence Intelligence record.",
        examples: [['https://www.wordfence.com/threat-intel/vulnerabilities/id/63d93203-e8fb-4a88-9546-580944f03d9a']],
      }),
  })
  .meta({ description: 'Known exploited ones come first in every list.' }) satisfies z.ZodType<CveDetail>;

/** An issue of the report (observations left out), worst first; a software finding lists its CVEs in `cveDetails`. */
const reportVulnerabilitySchema = z.looseObject({
  id: z.string(),
  title: z.string(),
  severity: z.enum(['critical', 'high', 'medium', 'low']),
  category: z.string(),
  cvssScore: z.number().optional(),
  cves: z.array(z.string()).optional().meta({ description: 'CVE ids, known exploited first.' }),
  cveDetails: z.array(cveDetailSchema).optional().meta({ description: 'Each vulnerability of a software finding (one finding per product and version), known exploited first.' }),
});

/** DECISIONS "Scan modes": what the scan ran and what it left out, and why. */
const coverageSchema = z
  .looseObject({
    mode: z.enum(scanModes).meta({ description: 'The mode the scan ran in: passive (what a browser or mail server does) or active (after proof of control).' }),
    allowedMode: z.enum(scanModes).meta({ description: "The mode the requester's proof allowed; active while mode is passive means the per-target hourly limit was reached." }),
    partial: z.boolean().meta({ description: 'True when anything was not checked. A partial report is graded B at best (score at most 89).' }),
    notChecked: z.array(
      z.looseObject({
        check: z.string(),
        title: z.string(),
        part: z.string().optional().meta({ description: 'The part left out, when the rest of the check ran (for example "Zone transfer (AXFR)").' }),
        cause: z.enum(notCheckedCauses).meta({ description: 'passive (needs proof of control), limit (the hourly full-scan limit), error, timeout, blocked (the site answered the scanner with a bot challenge or an edge block), rate_limited (429/503).' }),
        reason: z.string(),
      }),
    ),
  })
  .meta({ description: 'Skipped checks are listed here as not checked, never counted as passed.' }) satisfies z.ZodType<CoverageView>;

/** DECISIONS "Grade caps": one cap that held the score below the formula's. */
export const gradeCapSchema = z
  .looseObject({
    id: z.enum(['no-https', 'kev', 'critical', 'partial']).meta({
      description: 'no-https (no working HTTPS: none, or a certificate browsers refuse), kev (a known-exploited CVE on the site), critical (any other critical finding), partial (not everything was checked).',
    }),
    limit: z.number().int().meta({ description: 'The highest score the report may show because of it: 69 (D), 59 (F), 79 (C), 89 (B).', examples: [69] }),
    reason: z.string().meta({ description: 'Why, in one sentence for people.', examples: ['The site has no working HTTPS: port 443 does not answer with TLS.'] }),
  })
  .meta({ description: 'Caps as SSL Labs caps its grades: the score is the formula’s (100 − 20 per critical − 5 per other issue), then the lowest cap that applies.' }) satisfies z.ZodType<GradeCap>;

/** DECISIONS "Blocked is a result": the wall that kept the scanner from the site's pages. */
const siteAccessSchema = z
  .looseObject({
    blocked: z.literal(true),
    kind: z.string().meta({ description: 'challenge (a bot challenge), block (an edge or WAF block), rate_limited (429, or 503 with Retry-After), unavailable (5xx, maintenance), auth (401: the site needs a login).' }),
    vendor: z.string().nullable().meta({ description: 'The protection’s stable id (cloudflare, akamai, imperva, sucuri …); null when only the generic rule matched.' }),
    vendorName: z.string().nullable(),
    status: z.number().int().nullable().meta({ description: 'The status the landing page answered.' }),
    reason: z.string(),
    headline: z.string().meta({ description: 'The report’s first sentence about it.' }),
    checks: z.array(z.looseObject({ check: z.string(), title: z.string(), cause: z.enum(notCheckedCauses) })).meta({ description: 'The checks that were not run because of it (not checked, never graded).' }),
    guide: z.looseObject({ title: z.string(), steps: z.array(z.string()) }).nullable().meta({ description: 'How to let the scanner in on that platform, step by step.' }),
  })
  .meta({ description: 'The site answered the scanner with something other than its pages; the checks that read them were not run.' });

/**
 * `GET /api/v1/audits/{auditId}` → 200: the stored audit and the report as the results page shows it.
 * Only the fields every audit has are listed; the report carries more (DNS, TLS, ports, email, breaches).
 */
export const auditReportSchema = z.looseObject({
  audit: z.looseObject({
    id: uuid(),
    targetUrl: z.string(),
    host: z.string(),
    status: z.enum(auditStatuses),
    createdAt: timestamp(),
    completedAt: timestamp().optional(),
    score: z.number().optional(),
    grade: z.enum(['A', 'B', 'C', 'D', 'F']).optional(),
    riskLevel: risk.optional(),
    gradeCaps: z.array(gradeCapSchema).optional().meta({ description: 'The caps that lowered the score (absent when none did).' }),
    checks: z.array(
      z.looseObject({
        name: z.string(),
        status: z.string(),
        findings: z
          .array(z.looseObject({ id: z.string(), severity: z.string(), cves: z.array(z.string()).optional(), cveDetails: z.array(cveDetailSchema).optional() }))
          .optional(),
      }),
    ),
  }),
  result: z.looseObject({
    id: uuid(),
    target_url: z.string(),
    audit_status: z.enum(auditStatuses),
    risk_score: z.number().nullable(),
    grade: z.enum(['A', 'B', 'C', 'D', 'F']).nullable(),
    grade_caps: z.array(gradeCapSchema).meta({ description: 'The caps that held risk_score below the formula’s, lowest first; empty when none did. The grade, the risk level and the badge follow the capped score.' }),
    site_access: siteAccessSchema.nullable().meta({ description: 'Null when the scanner saw the site.' }),
    counters: counters(),
    vulnerability_summary: z.looseObject({ vulnerabilities: z.array(reportVulnerabilitySchema) }),
    scan_mode: z.enum(scanModes).meta({ description: 'passive or active (DECISIONS "Scan modes"); coverage says what was left out.' }),
    coverage: coverageSchema,
  }),
});
