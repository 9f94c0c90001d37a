import { randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import type { Deps } from '../composition.js';
import { DISABLE_AFTER_ABANDONED, type DeliveryView } from '../domain/alert-destination.contract.js';
import { deliveryRequest, type DestinationAlert, type DestinationRecord, disabledReason, eventLabel } from '../domain/alert-destinations.js';
import { withDeadline } from '../domain/deadline.js';
import { escapeHtml } from '../domain/emails.js';
import type { EmailMessage } from '../domain/ports.js';
import { createHttpClient, HttpTargetRefusedError } from '../scanner/net/http-client.js';
import { createResolver } from '../scanner/resolver.js';
import { isLoopbackName, refusedAddress } from '../scanner/target-guard.js';

/**
 * One delivery to an alert destination (issue 22; the rules in lambdas/domain/alert-destinations.ts):
 * the notification outbox calls `attemptDestinationDelivery` for each attempt of a `webhook` message
 * and `settleDestination` once it is sent or given up; "send test" calls the attempt directly. The
 * address goes through the scanner's target guard at every attempt (resolved by the scanner's
 * resolver, private, loopback, link-local and metadata addresses refused unless SCAN_ALLOW_PRIVATE_TARGETS,
 * the addresses pinned so DNS cannot rebind between the check and the connection), no redirect is
 * followed, the certificate must be trusted, and the answer is bounded in time and size.
 * This module imports no other use case: the outbox imports it.
 */

export type DeliveryDeps = Pick<Deps, 'alertDestinations' | 'clock' | 'config' | 'log' | 'scanSettings'>;

/** What the outbox holds for a destination: whose, which, and the alert (the payload is built at each attempt). */
export interface DestinationMessage {
  userId: string;
  destinationId: string;
  alert: DestinationAlert;
}

export const DELIVERY_TIMEOUT_MS = 10_000;
const MAX_ANSWER_BYTES = 4_096;

/** The receiver did not take the alert: the outbox retries it later. */
export class DeliveryFailedError extends Error {}

/**
 * One attempt: the destination read again (deleted or disabled since: nothing is sent, 'skipped'),
 * the request built and signed now (a fresh timestamp), posted through the guard, and logged for the
 * user. Throws DeliveryFailedError when it did not go, after logging it.
 */
export async function attemptDestinationDelivery(deps: DeliveryDeps, message: DestinationMessage, attempt: number): Promise<'delivered' | 'skipped'> {
  const destination = await deps.alertDestinations.get(message.userId, message.destinationId);
  if (!destination || (!destination.enabled && !message.alert.test)) return 'skipped';
  const delivery = await postToDestination(deps, destination, message.alert, attempt);
  if (delivery.outcome !== 'delivered') throw new DeliveryFailedError(delivery.error ?? `HTTP ${delivery.statusCode ?? 'error'}`);
  return 'delivered';
}

/** Posts the alert to the destination once and logs the attempt; never throws for the receiver's fault. */
export async function postToDestination(deps: DeliveryDeps, destination: DestinationRecord, alert: DestinationAlert, attempt: number): Promise<DeliveryView> {
  const startedAt = deps.clock.now();
  const { body, headers } = deliveryRequest(destination, { productName: deps.config.PRODUCT_NAME, alert }, Math.floor(startedAt.getTime() / 1000));
  let result: Pick<DeliveryView, 'outcome' | 'statusCode' | 'error'>;
  try {
    const statusCode = await guardedPost(deps, destination.url, body, headers);
    result = statusCode >= 200 && statusCode < 300 ? { outcome: 'delivered', statusCode } : { outcome: 'failed', statusCode, error: `The receiver answered HTTP ${statusCode}` };
  } catch (error) {
    result = error instanceof HttpTargetRefusedError ? { outcome: 'refused', error: error.message } : { outcome: 'failed', error: describeNetworkError(error) };
  }
  const delivery: DeliveryView = {
    id: randomUUID(),
    destinationId: destination.id,
    at: startedAt.toISOString(),
    event: eventLabel(alert),
    attempt,
    ...result,
    durationMs: Math.max(0, deps.clock.now().getTime() - startedAt.getTime()),
  };
  try {
    await deps.alertDestinations.logDelivery({ ...delivery, userId: destination.userId });
  } catch (error) {
    // The log is for the user's eyes: its failure must not make a delivered alert look failed (and go again).
    deps.log.error('Could not log an alert delivery', { destinationId: destination.id, error: String(error) });
  }
  const about = { destinationId: destination.id, kind: destination.kind, attempt, outcome: delivery.outcome, statusCode: delivery.statusCode };
  if (delivery.outcome === 'delivered') deps.log.info('Alert delivered to a destination', about);
  else deps.log.warn('Alert delivery to a destination failed', { ...about, error: delivery.error });
  return delivery;
}

/** POST through the scanner's guard; the receiver's status code. Throws HttpTargetRefusedError for a forbidden address. */
async function guardedPost(deps: Pick<Deps, 'scanSettings'>, rawUrl: string, body: string, headers: Record<string, string>): Promise<number> {
  const url = new URL(rawUrl);
  const { allowPrivateTargets } = deps.scanSettings;
  const host = url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
  if (!allowPrivateTargets && isLoopbackName(host)) throw new HttpTargetRefusedError(host);
  const resolver = createResolver(deps.scanSettings);
  const resolve = async (name: string) => {
    if (isIP(name)) return [name];
    const [v4, v6] = await Promise.all([resolver.resolve4(name), resolver.resolve6(name).catch(() => [])]);
    return [...v4, ...v6];
  };
  const deadline = Date.now() + DELIVERY_TIMEOUT_MS;
  const addresses = await withDeadline(resolve(host), deadline, 'DNS timeout');
  if (addresses.length === 0) throw Object.assign(new Error(`${host} has no address`), { code: 'ENOTFOUND' });
  const refused = refusedAddress(addresses, allowPrivateTargets);
  if (refused) throw new HttpTargetRefusedError(host, refused);
  const http = createHttpClient({ pinned: new Map([[host, addresses]]), resolve, allowPrivateTargets, verifyCertificates: true, userAgent: 'Rampart-Alerts/1.0' });
  const response = await http.request(url.href, {
    method: 'POST',
    body,
    headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
    followRedirects: 0,
    maxBodyBytes: MAX_ANSWER_BYTES,
    timeoutMs: Math.max(1, deadline - Date.now()),
  });
  return response.status;
}

function describeNetworkError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ETIMEDOUT') return `No answer within ${DELIVERY_TIMEOUT_MS / 1000} seconds`;
  if (error instanceof Error && error.message === 'DNS timeout') return 'The address could not be resolved in time';
  const message = error instanceof Error ? error.message : String(error);
  return code ? `${code}: ${message}` : message;
}

/**
 * After the outbox is done with a message: delivered resets the destination's count; given up counts
 * one more, and the run that disables the destination returns the email telling its owner.
 */
export async function settleDestination(
  deps: Pick<Deps, 'alertDestinations' | 'accounts' | 'clock' | 'config' | 'log'>,
  message: DestinationMessage,
  outcome: 'sent' | 'abandoned',
): Promise<Omit<EmailMessage, 'attachments'> | undefined> {
  if (message.alert.test) return undefined;
  if (outcome === 'sent') {
    await deps.alertDestinations.recordDelivered(message.userId, message.destinationId);
    return undefined;
  }
  const at = deps.clock.now().toISOString();
  const { record, disabledNow } = await deps.alertDestinations.recordAbandoned(message.userId, message.destinationId, DISABLE_AFTER_ABANDONED, at, disabledReason(DISABLE_AFTER_ABANDONED));
  if (!disabledNow || !record) return undefined;
  deps.log.warn('Alert destination disabled after repeated failures', { destinationId: record.id, kind: record.kind, failures: record.consecutiveFailures });
  const profile = await deps.accounts.getProfile(message.userId);
  if (!profile) return undefined;
  return disabledEmail(deps.config.PRODUCT_NAME, deps.config.SITE_URL, profile.email, record);
}

/** The email that tells the owner a destination was turned off, and how to turn it back on. */
export function disabledEmail(productName: string, siteUrl: string, to: string, record: DestinationRecord): Omit<EmailMessage, 'attachments'> {
  const settings = `${siteUrl.replace(/\/+$/, '')}/dashboard/settings?tab=destinations`;
  const subject = `${productName}: alert destination "${record.name}" disabled`;
  const text = [
    `${productName} could not deliver ${DISABLE_AFTER_ABANDONED} alerts in a row to your alert destination "${record.name}", so it has been disabled.`,
    'Alerts still reach you by email. Check the destination\'s address and its delivery log, then enable it again:',
    settings,
  ].join('\n\n');
  const html = `<p>${escapeHtml(text.split('\n\n')[0]!)}</p><p>${escapeHtml(text.split('\n\n')[1]!)}</p><p><a href="${escapeHtml(settings)}">Open alert destinations</a></p>`;
  return { to, subject, text, html };
}
