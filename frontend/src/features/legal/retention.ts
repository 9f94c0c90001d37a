import { LOG_RETENTION_DAYS, RETENTION_SECONDS } from '../../lib/catalogue';

const DAY_SECONDS = 86_400;
const DAYS_PER_MONTH = 365 / 12;

/** A period in days as the legal pages state it: '1 month', '3 months', '12 months', '3 years'. */
export function periodText(days: number): string {
  if (days >= 730 && days % 365 === 0) return `${days / 365} years`;
  const months = Math.round(days / DAYS_PER_MONTH);
  return months === 1 ? '1 month' : `${months} months`;
}

/**
 * What the privacy policy and the terms say is kept how long, from the tables the product keeps it
 * by: the data table's TTLs (RETENTION_SECONDS) and the stack's log retention (LOG_RETENTION_DAYS).
 */
export const retained = {
  contactDetails: periodText(RETENTION_SECONDS.contactDetails / DAY_SECONDS),
  auditResults: periodText(RETENTION_SECONDS.auditResults / DAY_SECONDS),
  /** Agent reports, install telemetry and the SMS delivery log (items of the data table). */
  agentAndDeliveryRecords: periodText(RETENTION_SECONDS.technicalLogs / DAY_SECONDS),
  functionLogs: periodText(LOG_RETENTION_DAYS.functionLogs),
  apiAccessLogs: periodText(LOG_RETENTION_DAYS.apiAccessLogs),
  siteAccessLogs: periodText(LOG_RETENTION_DAYS.siteAccessLogs),
  /** The longest of the access logs, for a sentence that names one figure. */
  accessLogs: periodText(Math.max(LOG_RETENTION_DAYS.apiAccessLogs, LOG_RETENTION_DAYS.siteAccessLogs)),
} as const;
