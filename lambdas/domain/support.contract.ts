import * as z from 'zod';
import { auditIdSchema } from './audit.js';
import { singleLineText } from './single-line-text.js';

/**
 * The support form (DECISIONS "Plan features": "Priority support is a service promise: the support
 * form marks the plan"), shared by the API and the dashboard's Support page: the request's contract,
 * its messages, and the response times promised — one place for the texts both sides show.
 */

export const supportCategories = ['billing', 'technical', 'account', 'other'] as const;
export type SupportCategory = (typeof supportCategories)[number];

export const SUPPORT_CATEGORY_LABELS: Record<SupportCategory, string> = {
  billing: 'Billing',
  technical: 'Technical',
  account: 'Account',
  other: 'Other',
};

export const SUPPORT_LIMITS = { subject: { min: 3, max: 120 }, message: { min: 10, max: 5000 } } as const;

/** The plan feature (lambdas/domain/plans.ts) that makes a request a priority one. */
export const PRIORITY_SUPPORT_FEATURE = 'Priority support';

/** The service promise: business days to the first response. */
export const SUPPORT_RESPONSE_TIMES = { priority: 1, standard: 3 } as const;

/** '1 business day' with priority support, else '3 business days'. */
export function firstResponseTime(priority: boolean): string {
  const days = priority ? SUPPORT_RESPONSE_TIMES.priority : SUPPORT_RESPONSE_TIMES.standard;
  return `${days} business ${days === 1 ? 'day' : 'days'}`;
}

export const supportMessages = {
  category: 'Please choose a category',
  subjectShort: `The subject needs at least ${SUPPORT_LIMITS.subject.min} characters`,
  subjectLong: `The subject can be at most ${SUPPORT_LIMITS.subject.max} characters`,
  messageShort: `Please describe your question in at least ${SUPPORT_LIMITS.message.min} characters`,
  messageLong: `The message can be at most ${SUPPORT_LIMITS.message.max.toLocaleString('en-AU')} characters`,
  auditId: 'Invalid audit ID',
  auditNotYours: 'That audit is not one of yours',
  failed: 'Your request could not be sent. Please try again.',
  prioritySupport: 'Priority support',
} as const;

const text = (short: string, long: string, limits: { min: number; max: number }) =>
  z.string({ error: short }).trim().min(limits.min, short).max(limits.max, long);

/** `POST /api/me/support-requests`. An empty audit id is no audit id. */
export const supportRequestSchema = z.strictObject({
  category: z.enum(supportCategories, { error: supportMessages.category }),
  // One line, no control or text-direction characters (issue 28 finding 16): it is quoted in the support mails.
  subject: singleLineText({ min: SUPPORT_LIMITS.subject.min, max: SUPPORT_LIMITS.subject.max, required: supportMessages.subjectShort, tooLong: supportMessages.subjectLong }),
  message: text(supportMessages.messageShort, supportMessages.messageLong, SUPPORT_LIMITS.message),
  auditId: z
    .string({ error: supportMessages.auditId })
    .trim()
    .optional()
    .transform((value) => (value ? value : undefined))
    .pipe(auditIdSchema.optional()),
});
export type SupportRequestInput = z.input<typeof supportRequestSchema>;
export type SupportRequestData = z.output<typeof supportRequestSchema>;

export type SupportRequestStatus = 'open';

/** A request as its author sees it. */
export interface SupportRequestView {
  id: string;
  /** What the user quotes: `SR-{yyyymmdd}-{6 hex}`. */
  reference: string;
  category: SupportCategory;
  subject: string;
  message: string;
  auditId: string | null;
  status: SupportRequestStatus;
  /** The plan the request was marked with when it was sent. */
  plan: string;
  priority: boolean;
  createdAt: string;
}

/** What the user's plan gives now: the Support page's badge and promise. */
export interface SupportEntitlementView {
  plan: string;
  priority: boolean;
  /** '1 business day' or '3 business days'. */
  firstResponse: string;
}

/** `GET /api/me/support-requests`: the caller's own requests, newest first, and their support level. */
export interface SupportRequestsPage {
  requests: SupportRequestView[];
  support: SupportEntitlementView;
}

/** `POST /api/me/support-requests` → 201. */
export interface SupportRequestCreated {
  request: SupportRequestView;
  firstResponse: string;
}
