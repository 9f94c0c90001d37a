import * as z from 'zod';
import { toE164Mobile } from './phone.js';
import { singleLineText } from './single-line-text.js';
import type { ReportProduct } from './plans.js';

/**
 * The signed-in account's contracts (SPEC §3 User, Notification preferences, Audit history entry),
 * shared by the API and the frontend's Settings forms.
 */

export const accountMessages = {
  firstName: 'First name is required',
  lastName: 'Last name is required',
  mobileNumberInvalid: 'Please enter a valid mobile number',
  notificationFlag: 'Must be true or false',
  limit: 'Limit must be a whole number from 1 to 100',
  cursor: 'Invalid cursor',
} as const;

/** Names reach emails (the company is the organisation's name in invitations): one line, no control or text-direction characters. */
const requiredText = (message: string, max: number) => singleLineText({ max, min: 1, required: message });

/** PUT /api/me: the editable profile. An empty mobile number removes it. */
export const profileUpdateSchema = z.strictObject({
  firstName: requiredText(accountMessages.firstName, 100),
  lastName: requiredText(accountMessages.lastName, 100),
  company: singleLineText({ max: 200, required: 'Company must be text' }).default(''),
  /** DECISIONS "Mobile numbers": normalised to E.164; a number without "+" is read as Australian. */
  mobileNumber: z
    .string({ error: accountMessages.mobileNumberInvalid })
    .trim()
    .max(40, accountMessages.mobileNumberInvalid)
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value === '') return undefined;
      const e164 = toE164Mobile(value);
      if (!e164) {
        ctx.addIssue({ code: 'custom', message: accountMessages.mobileNumberInvalid });
        return z.NEVER;
      }
      return e164;
    }),
});
export type ProfileUpdateInput = z.input<typeof profileUpdateSchema>;
export type ProfileUpdate = z.output<typeof profileUpdateSchema>;

const flag = z.boolean({ error: accountMessages.notificationFlag });

/** SPEC §3 Notification preferences: all four, every time (PUT replaces). */
export const notificationPreferencesSchema = z.strictObject({
  emailAlerts: flag,
  scanCompletions: flag,
  securityUpdates: flag,
  marketingEmails: flag,
});
export type NotificationPreferences = z.output<typeof notificationPreferencesSchema>;

export const DEFAULT_NOTIFICATION_PREFERENCES: NotificationPreferences = Object.freeze({
  emailAlerts: true,
  scanCompletions: true,
  securityUpdates: true,
  marketingEmails: false,
});

export const HISTORY_PAGE_MAX = 100;
export const HISTORY_PAGE_DEFAULT = 20;

/** GET /api/me/audits query: `limit` (1–100) and an opaque `cursor` from the previous page. */
export const historyQuerySchema = z.object({
  limit: z.coerce
    .number({ error: accountMessages.limit })
    .int(accountMessages.limit)
    .min(1, accountMessages.limit)
    .max(HISTORY_PAGE_MAX, accountMessages.limit)
    .default(HISTORY_PAGE_DEFAULT),
  cursor: z.string({ error: accountMessages.cursor }).regex(/^[A-Za-z0-9_-]{1,1000}$/, accountMessages.cursor).optional(),
});
export type HistoryQuery = z.output<typeof historyQuerySchema>;

export const subscriptionStatuses = ['active', 'trial', 'expired', 'cancelled', 'inactive'] as const;
export type SubscriptionStatus = (typeof subscriptionStatuses)[number];

/** SPEC §3 Subscription as the API returns it. */
export interface SubscriptionView {
  tier: 'basic' | 'pro' | 'monitor_lite' | 'monitor_plus';
  status: SubscriptionStatus;
  scansLimit: number;
  scansUsed: number;
  price: number;
  currency: 'AUD';
  billingPeriod: 'trial' | 'monthly';
  startDate: string;
  endDate: string;
}

export interface UserView {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  company: string;
  mobileNumber?: string;
  /** The shared demo account (DECISIONS "Demo account"): sample data, cannot be deleted. */
  isDemo: boolean;
  createdAt: string;
}

/** One issue of a history entry: the finding's stable id, its title and severity (the report has the rest). */
export interface HistoryVulnerability {
  id: string;
  title: string;
  severity: 'critical' | 'high' | 'medium' | 'low';
}

/** SPEC §3 Audit history entry. */
export interface AuditHistoryEntry {
  id: string;
  domain: string;
  scanDate: string;
  /** 'pro' once a Pro Audit of it was bought; a Basic Audit, a free lead scan and a user's own scan are 'basic'. */
  tier: 'basic' | 'pro';
  /** What the report is, for its label (the plan catalogue's names: reportProductName): a free report, or the paid audit bought last. */
  product: ReportProduct;
  status: 'queued' | 'in_progress' | 'completed' | 'failed';
  riskScore: number | null;
  riskLevel: 'low' | 'medium' | 'high' | null;
  /** The issues (observations left out), worst first: `findings.totalIssues` of them. */
  vulnerabilities: HistoryVulnerability[];
  /**
   * This audit is the one the domain's 'Protected by' badge states (its latest completed scan) and
   * that badge is eligible now, for a domain the caller verified (the rule of lambdas/domain/badge.ts).
   */
  badgeEligible: boolean;
  /** The report is partial (passive, or checks not run: audit-view's coverage.partial): its grade is shown with '· partial', as on the results page. */
  partial?: boolean;
  findings: { totalIssues: number; criticalIssues: number; openPorts: number | null; subdomains: number | null };
  /** Seconds from start to end; null until it ends. */
  scanDuration: number | null;
  reportUrl: string;
  pdfUrl: string;
}
