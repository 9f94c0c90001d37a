/**
 * Business metrics: what operators count and time (DECISIONS "Production on AWS", issue 17
 * "Operations"). On AWS they are CloudWatch metrics written as EMF log lines; the alarms and the
 * dashboard (lib/alarms) read them by these names, in this namespace.
 */

/** The CloudWatch namespace of the business metrics; each deployment is its `service` dimension (the product slug). */
export const METRICS_NAMESPACE = 'Rampart';

/** Every business metric, by the name CloudWatch shows. */
export const BUSINESS_METRICS = {
  scansStarted: 'ScansStarted',
  scansCompleted: 'ScansCompleted',
  /** Audits ended as failed: an unreadable or refused target, or the sweeper giving up on a stuck one. */
  scansFailed: 'ScansFailed',
  scanDuration: 'ScanDurationMs',
  /** One value per check per scan, with the dimension {@link CHECK_DIMENSION}. */
  checkDuration: 'CheckDurationMs',
  emailsSent: 'EmailsSent',
  emailsFailed: 'EmailsFailed',
  /** A notification given up after its bounded retries (the mail outbox): an operator must look. */
  notificationsAbandoned: 'NotificationsAbandoned',
  /** A mail route refused by the product-wide ceiling (MAIL_SENDS_PER_HOUR_LIMIT): someone is using us to send mail. */
  mailCeilingReached: 'MailCeilingReached',
  /** An SMS not sent: its number's country is not in SMS_COUNTRIES (SMS pumping, domain/phone.ts). */
  smsRefused: 'SmsRefused',
} as const;

export type BusinessMetric = (typeof BUSINESS_METRICS)[keyof typeof BUSINESS_METRICS];

/** CheckDurationMs's dimension: the check's id (`tls`, `headers`, …). */
export const CHECK_DIMENSION = 'check';

/** What the application counts, named after what happened. Recording never throws and never waits. */
export interface Metrics {
  scanStarted(): void;
  /** A scan that produced its report, and how long the scan took. */
  scanCompleted(durationMs: number): void;
  scanFailed(): void;
  /** How long one check of a scan took (whatever its status: ok, timeout or error). */
  checkTimed(checkId: string, durationMs: number): void;
  emailSent(): void;
  emailFailed(): void;
  notificationAbandoned(): void;
  /** A request that would send mail to an address a stranger gave, refused by the product-wide hourly ceiling. */
  mailCeilingReached(): void;
  /** An SMS not sent because its number is outside the countries SMS may go to (SMS_COUNTRIES). */
  smsRefused(): void;
  /** Writes what was recorded since the last flush: the end of every Lambda invocation. */
  flush(): void;
}
