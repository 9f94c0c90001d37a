import type { DestinationAlert } from './alert-destinations.js';
import type { AlertRecord, EmailMessage, SmsMessage } from './ports.js';

/**
 * Notifications (DECISIONS "Mail never fails a scan"): what the product sends a person on its own
 * initiative — an audit's completion email, a new account's set-password link, a monitoring rescan's
 * 'scan completed' email, alerts by email and SMS. Each goes through the outbox: stored first, tried
 * at once, and when the provider refuses it (SES in its sandbox, a throttle, an outage) tried again
 * by the sweeper with a growing delay, a bounded number of times, then given up as `abandoned` and
 * logged for the alarm. What the person asked for and waits on (a verification code, "email me this
 * report", a support request) is sent in the request instead, and the answer says whether it went.
 */

export type NotificationKind = 'audit-completed' | 'account-created' | 'scan-completed' | 'alert' | 'destination-disabled' | 'domain-lapsed';

/**
 * The message itself: an email (no attachments: the table holds it), an SMS, or an alert for one of
 * the user's alert destinations (Slack, Teams, webhook: its payload is built and signed at each attempt).
 */
export type OutgoingMessage =
  | { channel: 'email'; email: Omit<EmailMessage, 'attachments'> }
  | { channel: 'sms'; sms: SmsMessage }
  | { channel: 'webhook'; webhook: { userId: string; destinationId: string; alert: DestinationAlert } };

export interface NewNotification {
  id: string;
  kind: NotificationKind;
  message: OutgoingMessage;
  /** What the notification is about, for the logs (never the message or its recipient). */
  about: { auditId?: string; userId?: string };
  /** Written once the message has gone: the alert as the user's alerts list shows it. */
  afterSent?: { alert: AlertRecord };
}

/**
 * pending → sending (an attempt claimed) → sent | pending again (refused, a later try) | abandoned.
 * Once sent or abandoned the message and its recipient are removed: only the attempt record stays.
 */
export type NotificationStatus = 'pending' | 'sending' | 'sent' | 'abandoned';

export interface NotificationRecord extends Omit<NewNotification, 'message' | 'afterSent'> {
  message?: OutgoingMessage;
  afterSent?: NewNotification['afterSent'];
  status: NotificationStatus;
  /** Attempts made so far (claimed), the one in flight included. */
  attempts: number;
  /** When a pending notification may be tried (again). */
  nextAttemptAt: string;
  /** While sending: when the attempt started. */
  attemptStartedAt?: string;
  createdAt: string;
  lastError?: string;
}

export const NOTIFICATION_RETRY = {
  /** The first attempt at once, then four more by the sweeper (every 5 minutes on AWS). */
  maxAttempts: 5,
  /** The wait after the nth failed attempt: about 4 hours from the first to the last. */
  delaysMs: [5 * 60_000, 15 * 60_000, 45 * 60_000, 3 * 3_600_000],
  /**
   * An attempt still `sending` this long after it started was cut off (a killed process) after the
   * provider may have taken it: it is abandoned, never sent again, so that nothing goes out twice.
   */
  interruptedAfterMs: 15 * 60_000,
} as const;

/** When to try again after `attempts` failed attempts; undefined when none is left. */
export function nextAttemptAfter(attempts: number, failedAt: Date): Date | undefined {
  if (attempts >= NOTIFICATION_RETRY.maxAttempts) return undefined;
  const delays = NOTIFICATION_RETRY.delaysMs;
  const delay = delays[Math.min(attempts, delays.length) - 1] ?? delays[0];
  return new Date(failedAt.getTime() + delay);
}

/** The alarm matches this message (an ERROR log line); it names the attempts made. */
export const abandonedMessage = (attempts: number) => `Notification abandoned after ${attempts} attempts`;

/** The outbox in the table (lambdas/adapters/dynamodb-notifications.adapter.ts). */
export interface NotificationOutbox {
  /** Stores a new notification, due at once; false when its id was stored before. */
  add(notification: NewNotification, at: string): Promise<boolean>;
  get(id: string): Promise<NotificationRecord | undefined>;
  /** The ids of notifications to look at by `now`, soonest first: pending ones due, and attempts sending past their `interruptedAt`. */
  listDue(now: string, limit: number): Promise<string[]>;
  /**
   * Claims the next attempt of a pending notification due by `at` that has made `attempts` so far:
   * the record (now sending, one more attempt) or undefined when another run got there first.
   * Past `interruptedAt` an attempt still sending is listed as due (and then abandoned).
   */
  claimAttempt(id: string, attempts: number, at: string, interruptedAt: string): Promise<NotificationRecord | undefined>;
  /** sending → sent (the message and recipient removed); false when that attempt was not the one in flight. */
  markSent(id: string, attempts: number, at: string): Promise<boolean>;
  /** sending → pending, due at `nextAttemptAt`. */
  retryLater(id: string, attempts: number, nextAttemptAt: string, error: string): Promise<boolean>;
  /** sending → abandoned (the message and recipient removed). */
  abandon(id: string, attempts: number, at: string, error: string): Promise<boolean>;
}
