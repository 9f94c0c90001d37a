import * as z from 'zod';
import type { IssueSeverity } from './audit-view.js';

/**
 * Time-to-fix's API (issue 21 item 4), shared by the API and the dashboard:
 * `GET /api/me/time-to-fix[?domain=…]`. The rules are in lambdas/domain/time-to-fix.ts. zod and types only.
 */

export const timeToFixMessages = {
  domain: 'Please enter a valid domain, for example example.com.',
} as const;

/** The query: `domain` narrows the answer to one of the caller's domains (read as Settings → Domains reads one; any other is a 404). */
export const timeToFixQuerySchema = z.object({
  domain: z.string({ error: timeToFixMessages.domain }).min(1, timeToFixMessages.domain).max(253, timeToFixMessages.domain).optional(),
});

export type TimeToFixQuery = z.output<typeof timeToFixQuerySchema>;

/** One issue occurrence: open (age, due date, overdue) or fixed (time to fix, on time). */
export interface TimeToFixIssueView {
  domain: string;
  findingId: string;
  title: string;
  severity: IssueSeverity;
  category: string;
  firstSeenAt: string;
  lastSeenAt: string;
  /** When a scan first saw it gone; null while open. */
  fixedAt: string | null;
  dueAt: string;
  targetDays: number;
  /** Whole days open (until now, or until the fix). */
  ageDays: number;
  overdue: boolean;
  /** Days from first seen to the fix (fractional); null while open. */
  timeToFixDays: number | null;
  fixedOnTime: boolean | null;
  /** How many times it came back soon after a fix (the same occurrence reopened). */
  reopened: number;
}

export interface TimeToFixAgeBucket {
  label: string;
  minDays: number;
  /** null: no upper bound. */
  maxDays: number | null;
  open: number;
  overdue: number;
}

export interface TimeToFixMonth {
  /** `yyyy-mm` (UTC) of the fixes. */
  month: string;
  /** 'October 2026'. */
  label: string;
  fixed: number;
  fixedOnTime: number;
  /** null: nothing fixed that month. */
  meanDaysToFix: number | null;
}

export interface TimeToFixSummaryView {
  asOf: string;
  /** Days to fix per severity. */
  targets: Record<IssueSeverity, number>;
  /** The domains with a history, and the latest scan folded into each. */
  domains: { domain: string; lastScanAt: string | null }[];
  openByAge: TimeToFixAgeBucket[];
  openTotal: number;
  overdueTotal: number;
  /** Fixes kept (12 months, as audit results). */
  fixedTotal: number;
  fixedOnTime: number;
  /** fixedOnTime / fixedTotal; null when nothing was fixed yet. */
  fixedOnTimeShare: number | null;
  meanDaysToFix: number | null;
  /** The last six calendar months, oldest first. */
  byMonth: TimeToFixMonth[];
  /** Open issues: overdue first, then by due date. */
  open: TimeToFixIssueView[];
  /** The newest fixes (at most 20). */
  recentFixes: TimeToFixIssueView[];
}
