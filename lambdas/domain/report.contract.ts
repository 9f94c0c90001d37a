import * as z from 'zod';
import type { AuditResultView } from './audit-view.js';
import { RETENTION_SECONDS } from './retention.js';

/** SPEC §8 alerts: the email report's two messages. */
export const reportEmailMessages = {
  empty: 'Please enter an email address',
  invalid: 'Please enter a valid email address',
} as const;

/** Share tokens: 128 random bits, base64url without padding (22 characters). */
const SHARE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{22}$/;
export const shareTokenSchema = z.string().regex(SHARE_TOKEN_PATTERN);

/** SPEC §5: a missing or malformed share token. */
export const INVALID_SHARE_LINK_MESSAGE = 'Invalid share link';

/**
 * `POST /api/audits/{auditId}/email`: where to send the report, and, for someone the report was
 * shared with, the share link's token (the owner is known by their sign-in instead). Shared with the frontend.
 */
export const reportEmailSchema = z.object(
  {
    email: z
      .string({ error: reportEmailMessages.empty })
      .trim()
      .min(1, reportEmailMessages.empty)
      .max(254, reportEmailMessages.invalid)
      .pipe(z.email({ error: reportEmailMessages.invalid }))
      .transform((email) => email.toLowerCase()),
    shareToken: z.string({ error: INVALID_SHARE_LINK_MESSAGE }).regex(SHARE_TOKEN_PATTERN, INVALID_SHARE_LINK_MESSAGE).optional(),
  },
  { error: reportEmailMessages.empty },
);
export type ReportEmailInput = z.output<typeof reportEmailSchema>;

/**
 * `GET /api/shared-audits/{shareToken}` on success (SPEC §3 "Shared audit response"). `canEmail`: the
 * link was made by the audit's signed-in owner, so its holder may email the report (issue 18 "No
 * endpoint lets a stranger make us send mail"); the shared page shows 'Email Report' only then.
 * Shared with the frontend.
 */
export interface SharedAuditResponse {
  success: true;
  audit: SharedAuditView;
  expiresAt: string;
  remainingUses: number;
  canEmail: boolean;
  message: string;
}

/**
 * The report as a share link shows it: without the audit's id (nor the ids of the reports it replaced or was replaced by), which opens the report, its PDF and
 * new links with no expiry or use limit (issue 28 finding 11: the link must be the only key it gives).
 */
export type SharedAuditView = Omit<AuditResultView, 'id' | 'superseded_by' | 'supersedes'>;

/** Share links live 24 hours (SPEC §9 "Sharing and payment"; the retention table). */
export const SHARE_LIFETIME_SECONDS = RETENTION_SECONDS.shareLinks;

/** Site paths of a report: the results page and its PDF (DECISIONS "/reports"). */
export const reportPaths = {
  results: (auditId: string) => `/results/${encodeURIComponent(auditId)}`,
  pdf: (auditId: string) => `/reports/${encodeURIComponent(auditId)}.pdf`,
  /** The shared page of a share link: each open counts one of its uses. */
  shared: (shareToken: string) => `/share/${encodeURIComponent(shareToken)}`,
};

/**
 * The API path that serves a site path `/reports/{auditId}.pdf` (the local server rewrites to it;
 * CloudFront does the same with a viewer-request function); undefined for any other path.
 */
export function reportPdfApiPath(sitePath: string): string | undefined {
  const match = /^\/reports\/([^/]+)\.pdf$/.exec(sitePath);
  return match ? `/api/audits/${match[1]}/report.pdf` : undefined;
}
