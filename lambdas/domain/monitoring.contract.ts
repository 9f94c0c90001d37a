import * as z from 'zod';
import type { MonitoringChangeType } from './monitoring-diff.js';

/**
 * The monitoring and badge API's answers (issue 8), shared by the API and the dashboard:
 * `GET /api/me/alerts`, `GET /api/badges/{domain}` and `GET /api/me/badges`. zod and types only.
 */

export const ALERTS_PAGE_MAX = 50;
export const ALERTS_PAGE_DEFAULT = 20;

export const alertsMessages = {
  limit: `Limit must be a whole number from 1 to ${ALERTS_PAGE_MAX}`,
  cursor: 'Invalid cursor',
} as const;

/** `GET /api/me/alerts` query: `limit` (1–50) and the opaque `cursor` of the previous page. */
export const alertsQuerySchema = z.object({
  limit: z.coerce.number({ error: alertsMessages.limit }).int(alertsMessages.limit).min(1, alertsMessages.limit).max(ALERTS_PAGE_MAX, alertsMessages.limit).default(ALERTS_PAGE_DEFAULT),
  cursor: z.string({ error: alertsMessages.cursor }).regex(/^[A-Za-z0-9_-]{1,400}$/, alertsMessages.cursor).optional(),
});

export type AlertChannel = 'email' | 'sms';

/** One alert as sent: one entry per channel. */
export interface AlertView {
  id: string;
  domain: string;
  sentAt: string;
  channel: AlertChannel;
  /** The summary line (the email's subject without the product and domain, the SMS's text). */
  summary: string;
  changes: { type: MonitoringChangeType; title: string }[];
  /** The report the alert links to: the rescan, or for a knowledge-base match the scan that saw the software. */
  auditId: string;
}

export interface AlertsPage {
  alerts: AlertView[];
  nextCursor: string | null;
}

/** `GET /api/badges/{domain}`: what the public /verify page states. Grade, score and last scan only when they are public. */
export interface BadgeStatusView {
  domain: string;
  verified: boolean;
  eligible: boolean;
  grade: string | null;
  score: number | null;
  lastScan: string | null;
  reasons: string[];
}

/** `GET /api/me/badges`: one entry per domain of the user, with the documented URLs (default options). */
export interface MyBadgeView extends BadgeStatusView {
  badgeUrl: string;
  verifyUrl: string;
}
