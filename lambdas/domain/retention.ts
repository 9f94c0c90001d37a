const DAY_SECONDS = 86_400;

/**
 * How long each kind of item is kept, in seconds: the one table of retention periods (SPEC §9
 * "Privacy and retention", DECISIONS "Retention and rights"; the privacy page states its periods
 * from these values, frontend/src/features/legal/components/privacy-policy.tsx). Items carry
 * `expiresAt` (epoch seconds, the table's TTL) computed from these;
 * test/integration/retention.test.ts reads each kind's value back from the table.
 */
export const RETENTION_SECONDS = {
  /** Audits, their check results, the owner's index of them and started scans; alerts sent: 12 months. */
  auditResults: 365 * DAY_SECONDS,
  /**
   * Leads and support requests: 3 years after the person's LAST interaction, not after the item's
   * creation. A new lead or quick scan with the same email, a profile update and a new support request
   * move the clock (lambdas/use-cases/contact-retention.ts).
   */
  contactDetails: 3 * 365 * DAY_SECONDS,
  /** Agent reports, install telemetry and the SMS log: 6 months. */
  technicalLogs: 182 * DAY_SECONDS,
  /** Orders and invoices are legal records: the privacy policy's 'typically 7 years'. */
  paymentRecords: 7 * 365 * DAY_SECONDS,
  /** Share links live 24 hours (SPEC §9 "Sharing and payment"). */
  shareLinks: 24 * 3600,
  /** Processed webhook event ids (not personal data): Stripe retries an event for up to three days. */
  paymentEvents: 30 * DAY_SECONDS,
  /**
   * A notification's outbox item (lambdas/domain/notifications.ts): its message and recipient only until it
   * is sent or given up (hours at most), then the attempt record alone (kind, attempts, outcome) for 30 days.
   */
  notifications: 30 * DAY_SECONDS,
} as const;

/**
 * How long the stack (lib/) keeps its logs, in days, each a value CloudWatch accepts: the privacy
 * page states these figures from this table, and test/infra/log-retention.test.ts reads them back
 * from the synthesized template, so the two cannot drift apart.
 */
export const LOG_RETENTION_DAYS = {
  /** Each Lambda function's own log group (its errors and request logs): 1 month. */
  functionLogs: 30,
  /** The HTTP API's access log (source address, time, route, status, user agent): 3 months. */
  apiAccessLogs: 90,
  /** The access-log bucket: CloudFront's standard logs of the site and the report bucket's S3 access logs: 3 months. */
  siteAccessLogs: 90,
} as const;
