import type { Deps } from '../composition.js';
import { randomUUID } from 'node:crypto';
import { attemptDestinationDelivery, settleDestination } from './destination-delivery.js';
import { abandonedMessage, NOTIFICATION_RETRY, nextAttemptAfter, type NewNotification, type NotificationRecord } from '../domain/notifications.js';
import { countryOfMobile, smsCountryAllowed } from '../domain/phone.js';

/**
 * The notification outbox (DECISIONS "Mail never fails a scan"; the rules in lambdas/domain/notifications.ts):
 * `notify` stores a notification and makes its first attempt at once; the sweeper's
 * `retryDueNotifications` makes the later ones. Neither throws because a provider refused a message:
 * whatever depends on the notification (a scan, an API answer) goes on, and the outbox keeps trying.
 * Each attempt is claimed before the message goes out, so no message is sent twice.
 */

export type NotifyDeps = Pick<Deps, 'notifications' | 'mailer' | 'sms' | 'alerts' | 'clock' | 'log' | 'metrics' | 'alertDestinations' | 'accounts' | 'config' | 'scanSettings'>;

export type AttemptOutcome = 'sent' | 'retrying' | 'abandoned' | 'skipped';

/**
 * Stores the notification and tries it at once. Throws only when it could not be stored (the table
 * failing): the caller then still holds what it needs to try again. A refused message is not an error here.
 */
export async function notify(deps: NotifyDeps, notification: NewNotification): Promise<AttemptOutcome> {
  const now = deps.clock.now().toISOString();
  if (!(await deps.notifications.add(notification, now))) return 'skipped';
  try {
    return await attempt(deps, notification.id, 0);
  } catch (error) {
    // Stored but the attempt's bookkeeping failed: the sweeper finds it pending (or cut off) and goes on from there.
    deps.log.error('Notification attempt could not be recorded; the sweeper takes it from here', { notificationId: notification.id, kind: notification.kind, error: String(error) });
    return 'retrying';
  }
}

export interface NotificationRetryRun {
  sent: number;
  retrying: number;
  abandoned: number;
}

/** Notifications tried per sweeper run at most: the rest are due on the next run. */
export const NOTIFICATIONS_PER_RUN = 50;

/**
 * The sweeper's part: every notification due — a pending one whose wait is over gets its next attempt;
 * an attempt cut off mid-send (still sending past its limit) may have reached the provider, so it is
 * abandoned rather than sent again. One notification's fault never stops the others.
 */
export async function retryDueNotifications(deps: NotifyDeps): Promise<NotificationRetryRun> {
  const run: NotificationRetryRun = { sent: 0, retrying: 0, abandoned: 0 };
  const now = deps.clock.now();
  for (const id of await deps.notifications.listDue(now.toISOString(), NOTIFICATIONS_PER_RUN)) {
    try {
      const record = await deps.notifications.get(id);
      let outcome: AttemptOutcome = 'skipped';
      if (record?.status === 'pending' && record.nextAttemptAt <= now.toISOString()) outcome = await attempt(deps, id, record.attempts);
      else if (record?.status === 'sending' && wasCutOff(record, now)) outcome = await abandonInterrupted(deps, record, now);
      if (outcome !== 'skipped') run[outcome] += 1;
    } catch (error) {
      deps.log.error('Notification retry failed; the next sweep tries again', { notificationId: id, error: String(error) });
    }
  }
  if (run.sent + run.retrying + run.abandoned > 0) deps.log.info('Notifications retried', { ...run });
  return run;
}

/** One attempt of a pending notification that has made `attempts`: claimed, sent, its outcome recorded. */
async function attempt(deps: NotifyDeps, id: string, attempts: number): Promise<AttemptOutcome> {
  const startedAt = deps.clock.now();
  const interruptedAt = new Date(startedAt.getTime() + NOTIFICATION_RETRY.interruptedAfterMs).toISOString();
  const record = await deps.notifications.claimAttempt(id, attempts, startedAt.toISOString(), interruptedAt);
  // Another run claimed this attempt first (or the notification has moved on): it is theirs.
  if (!record?.message) return 'skipped';
  const about = { notificationId: id, kind: record.kind, attempts: record.attempts, ...record.about };
  // Checked again at send time (SMS_COUNTRIES may have changed since it was queued): nothing reaches SNS
  // for a number outside the countries SMS may go to, and no alert is listed as texted.
  let smsRefused = false;
  try {
    if (record.message.channel === 'email') await deps.mailer.send(record.message.email);
    else if (record.message.channel === 'sms' && !smsCountryAllowed(record.message.sms.to, deps.config.SMS_COUNTRIES)) {
      smsRefused = true;
      deps.log.warn('SMS not sent: the number is outside SMS_COUNTRIES', { ...about, country: countryOfMobile(record.message.sms.to) ?? 'unknown' });
      deps.metrics.smsRefused();
    } else if (record.message.channel === 'sms') await deps.sms.send(record.message.sms);
    // A destination deleted or disabled since: nothing to send, and nothing to retry.
    else if ((await attemptDestinationDelivery(deps, record.message.webhook, record.attempts)) === 'skipped') deps.log.info('Destination gone or disabled; alert not sent', about);
  } catch (error) {
    const failedAt = deps.clock.now();
    const retryAt = nextAttemptAfter(record.attempts, failedAt);
    if (!retryAt) {
      await deps.notifications.abandon(id, record.attempts, failedAt.toISOString(), String(error));
      if (record.message.channel === 'webhook') {
        // A customer's receiver that is down is theirs to fix (the disable rule and its email tell them), not an operator alarm.
        deps.log.warn('Alert destination delivery given up', { ...about, destinationId: record.message.webhook.destinationId, error: String(error) });
        await afterDestinationSettled(deps, record.message.webhook, 'abandoned');
        return 'abandoned';
      }
      deps.log.error(abandonedMessage(record.attempts), { ...about, error: String(error) });
      // The NotificationsAbandoned alarm (lib/alarms) counts these.
      deps.metrics.notificationAbandoned();
      return 'abandoned';
    }
    await deps.notifications.retryLater(id, record.attempts, retryAt.toISOString(), String(error));
    deps.log.warn('Notification attempt failed; it will be retried', { ...about, nextAttemptAt: retryAt.toISOString(), error: String(error) });
    return 'retrying';
  }
  await deps.notifications.markSent(id, record.attempts, deps.clock.now().toISOString());
  if (record.message.channel === 'webhook') await afterDestinationSettled(deps, record.message.webhook, 'sent');
  if (record.afterSent && !smsRefused) {
    // The message went: a failure to list it must not make it look unsent (it would never be retried anyway).
    await deps.alerts.record(record.afterSent.alert).catch((error: unknown) => deps.log.error('Could not record a sent alert', { ...about, error: String(error) }));
  }
  if (record.attempts > 1) deps.log.info('Notification sent after a retry', about);
  return 'sent';
}

/** Sending for longer than any attempt takes (the index may lag: the item itself says when it started). */
const wasCutOff = (record: NotificationRecord, now: Date) =>
  record.attemptStartedAt !== undefined && Date.parse(record.attemptStartedAt) + NOTIFICATION_RETRY.interruptedAfterMs <= now.getTime();

async function abandonInterrupted(deps: NotifyDeps, record: NotificationRecord, now: Date): Promise<AttemptOutcome> {
  const error = 'The attempt was cut off while sending; it is not sent again, so that the message never goes out twice';
  if (!(await deps.notifications.abandon(record.id, record.attempts, now.toISOString(), error))) return 'skipped';
  deps.log.error(abandonedMessage(record.attempts), { notificationId: record.id, kind: record.kind, attempts: record.attempts, ...record.about, error });
  deps.metrics.notificationAbandoned();
  return 'abandoned';
}

/**
 * A destination's alert delivered resets its failure count; given up counts against it, and the run
 * that disables it tells the owner by email (through the outbox). Never throws: the alert's own outcome stands.
 */
async function afterDestinationSettled(deps: NotifyDeps, message: Parameters<typeof settleDestination>[1], outcome: 'sent' | 'abandoned'): Promise<void> {
  try {
    const email = await settleDestination(deps, message, outcome);
    if (email) await notify(deps, { id: randomUUID(), kind: 'destination-disabled', message: { channel: 'email', email }, about: { userId: message.userId } });
  } catch (error) {
    deps.log.error('Could not record a destination delivery outcome', { destinationId: message.destinationId, outcome, error: String(error) });
  }
}
