import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  alertDestinationMessages,
  DELIVERY_ID_HEADER,
  DESTINATION_EVENT_LABELS,
  DISABLE_AFTER_ABANDONED,
  EVENT_HEADER,
  SIGNATURE_HEADER,
  SIGNATURE_TOLERANCE_SECONDS,
  TIMESTAMP_HEADER,
  type DeliveryView,
  type DestinationEvent,
  type DestinationKind,
  type DestinationView,
} from './alert-destination.contract.js';
import { ValidationError } from './errors.js';
import { changeTitle } from './monitoring.js';
import type { MonitoringChange } from './monitoring-diff.js';
import { planIncludes } from './plans.js';
import type { StoredSubscription } from './ports.js';

/**
 * Alert destinations (issue 22 item 1), the rules in one place:
 * - Who: Monitor Plus ('alert-destinations' in the plan's grants), while the subscription is active.
 *   Lite keeps email: a chat channel is where a team or an IT provider works, which is Plus's buyer.
 * - Where: a Slack incoming webhook (https://hooks.slack.com/services/…), a Teams workflow webhook
 *   (Power Automate's "When a Teams webhook request is received": logic.azure.com, powerplatform.com,
 *   powerautomate.com) or any https URL for the generic webhook. With SCAN_ALLOW_PRIVATE_TARGETS (local
 *   testing only) the shape and https rules are off, so loopback receivers can stand in; the address
 *   itself is guarded at each delivery like a scan target (lambdas/use-cases/destination-delivery.ts).
 * - What: each destination picks its events; a monitoring change maps to one (alertDestinationEventOf).
 * - Signing (generic webhook): `X-Rampart-Signature: v1=<hex HMAC-SHA256 of "{timestamp}.{body}">`
 *   under the destination's secret (`whsec_…`, shown once, kept as-is because it must sign, like the
 *   agents' enrollment secret), with `X-Rampart-Timestamp` in Unix seconds; receivers refuse a
 *   timestamp more than 5 minutes away (README "Alert destinations").
 * - Delivery: through the notification outbox (its retries and backoff); each attempt is logged for
 *   the user; an alert given up counts against the destination, a delivered one resets the count;
 *   DISABLE_AFTER_ABANDONED in a row disables it and the owner gets an email.
 */

export interface DestinationRecord {
  id: string;
  userId: string;
  kind: DestinationKind;
  name: string;
  url: string;
  events: DestinationEvent[];
  /** Generic webhooks only: the signing secret. */
  secret?: string;
  enabled: boolean;
  disabledReason?: string;
  disabledAt?: string;
  /** Alerts given up in a row (a delivered one resets it). */
  consecutiveFailures: number;
  createdAt: string;
  updatedAt: string;
  /** Issue 28: the person who made it (the owner, or a member or IT provider acting for the organisation). */
  createdBy?: string;
}

export interface DeliveryRecord extends DeliveryView {
  userId: string;
}

/** What the outbox holds for one destination's alert: the changes it wants; the payload is built at each attempt. */
export interface DestinationAlert {
  /** Stable across retries: the receiver's idempotency key (X-Rampart-Delivery, the payload's id). */
  id: string;
  domain: string;
  reportUrl: string;
  createdAt: string;
  changes: MonitoringChange[];
  test?: boolean;
}

export interface DestinationRepository {
  list(userId: string): Promise<DestinationRecord[]>;
  get(userId: string, id: string): Promise<DestinationRecord | undefined>;
  /** False when the user already has `max`. */
  create(record: DestinationRecord, max: number): Promise<boolean>;
  /** The updated record, or undefined when there is none. */
  update(userId: string, id: string, changes: Partial<Pick<DestinationRecord, 'name' | 'url' | 'events' | 'enabled'>>, at: string): Promise<DestinationRecord | undefined>;
  delete(userId: string, id: string): Promise<boolean>;
  /** A delivered alert: the failure count back to 0. */
  recordDelivered(userId: string, id: string): Promise<void>;
  /** An alert given up: the count one up; disabled (once) when it reaches `disableAt`. Says whether this call disabled it. */
  recordAbandoned(userId: string, id: string, disableAt: number, at: string, reason: string): Promise<{ record?: DestinationRecord; disabledNow: boolean }>;
  /** One attempt, kept DELIVERY_LOG_DAYS. */
  logDelivery(delivery: DeliveryRecord): Promise<void>;
  /** A destination's deliveries, newest first, at most `limit`. */
  listDeliveries(userId: string, destinationId: string, limit: number): Promise<DeliveryRecord[]>;
}

export function hasAlertDestinations(subscription: StoredSubscription | undefined): boolean {
  return subscription !== undefined && subscription.status === 'active' && planIncludes(subscription.planId, 'alert-destinations');
}

export function newDestinationId(): string {
  return `dst_${randomBytes(12).toString('base64url')}`;
}

export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** The event a monitoring change is sent as: a newly opened port is a new issue. */
export function alertDestinationEventOf(change: MonitoringChange): DestinationEvent {
  switch (change.type) {
    case 'finding_new':
    case 'port_opened':
      return 'issue_new';
    case 'finding_resolved':
      return 'issue_fixed';
    case 'grade_changed':
      return 'grade_changed';
    case 'certificate_expiring':
      return 'certificate_expiring';
    case 'kev_match':
      return 'cve_exploited';
    case 'issue_overdue':
      return 'issue_overdue';
  }
}

export function changesFor(destination: Pick<DestinationRecord, 'events'>, changes: readonly MonitoringChange[]): MonitoringChange[] {
  return changes.filter((change) => destination.events.includes(alertDestinationEventOf(change)));
}

const SLACK_HOST = 'hooks.slack.com';
const TEAMS_HOST_SUFFIXES = ['.logic.azure.com', '.powerplatform.com', '.powerautomate.com'];
const TEAMS_HOSTS = ['flow.microsoft.com', 'api.powerautomate.com'];

/**
 * The address a destination of `kind` may have; throws a ValidationError naming the rule broken.
 * `allowPrivateTargets` (SCAN_ALLOW_PRIVATE_TARGETS, local testing) lifts the https and shape rules.
 */
export function checkDestinationUrl(kind: DestinationKind, raw: string, allowPrivateTargets: boolean): string {
  const url = new URL(raw);
  const fail = (message: string) => new ValidationError(message, { url: message });
  if (url.username || url.password) throw fail(alertDestinationMessages.credentials);
  if (allowPrivateTargets) return url.href;
  if (url.protocol !== 'https:') throw fail(alertDestinationMessages.httpsOnly);
  const host = url.hostname.toLowerCase();
  if (kind === 'slack' && (host !== SLACK_HOST || !url.pathname.startsWith('/services/'))) throw fail(alertDestinationMessages.slackUrl);
  if (kind === 'teams' && !TEAMS_HOSTS.includes(host) && !TEAMS_HOST_SUFFIXES.some((suffix) => host.endsWith(suffix))) throw fail(alertDestinationMessages.teamsUrl);
  return url.href;
}

/** Scheme, host and the first path segment: a Slack or Teams URL is a credential, so the rest is never shown again. */
export function urlHint(raw: string): string {
  const url = new URL(raw);
  const first = url.pathname.split('/').filter(Boolean)[0];
  return `${url.protocol}//${url.host}${first ? `/${first}/…` : '/'}`;
}

export function destinationView(record: DestinationRecord): DestinationView {
  return {
    id: record.id,
    kind: record.kind,
    name: record.name,
    urlHint: urlHint(record.url),
    events: record.events,
    enabled: record.enabled,
    ...(record.disabledReason ? { disabledReason: record.disabledReason } : {}),
    ...(record.disabledAt ? { disabledAt: record.disabledAt } : {}),
    consecutiveFailures: record.consecutiveFailures,
    createdAt: record.createdAt,
    ...(record.secret ? { secretHint: `${record.secret.slice(0, 10)}…` } : {}),
  };
}

export const deliveryView = ({ userId: _userId, ...view }: DeliveryRecord): DeliveryView => view;

/** Whether `consecutive` abandoned alerts disable the destination. */
export const shouldDisable = (consecutive: number) => consecutive >= DISABLE_AFTER_ABANDONED;

export const disabledReason = (consecutive: number) => `Disabled after ${consecutive} alerts in a row could not be delivered`;

// ---------------------------------------------------------------------------------------------------
// Payloads

export interface PayloadContext {
  productName: string;
  alert: DestinationAlert;
}

const headline = ({ productName, alert }: PayloadContext) =>
  alert.test ? `${productName} test alert for ${alert.domain}` : `${productName} alert for ${alert.domain}: ${alert.changes.length} change${alert.changes.length === 1 ? '' : 's'}`;

const lines = (alert: DestinationAlert) =>
  alert.test ? ['This is a test from your alert destination settings. Real alerts list each change here.'] : alert.changes.map((change) => `${DESTINATION_EVENT_LABELS[alertDestinationEventOf(change)]}: ${changeTitle(change)}`);

/** Slack's mrkdwn treats &, < and > as control characters. */
const slackEscape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A Slack incoming webhook message: `text` is the notification's fallback, the blocks are what the channel shows. */
export function slackPayload(context: PayloadContext): Record<string, unknown> {
  const title = headline(context);
  return {
    text: title,
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: title.slice(0, 150), emoji: false } },
      { type: 'section', text: { type: 'mrkdwn', text: lines(context.alert).map((line) => `• ${slackEscape(line)}`).join('\n').slice(0, 3000) } },
      { type: 'section', text: { type: 'mrkdwn', text: `<${context.alert.reportUrl}|Open the report>` } },
    ],
  };
}

/**
 * A Teams workflow webhook message: Power Automate's "Post card in a chat or channel" takes the
 * message's attachments, each an Adaptive Card (contentType application/vnd.microsoft.card.adaptive).
 */
export function teamsPayload(context: PayloadContext): Record<string, unknown> {
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body: [
            { type: 'TextBlock', text: headline(context), weight: 'Bolder', size: 'Medium', wrap: true },
            ...lines(context.alert).map((line) => ({ type: 'TextBlock', text: line, wrap: true, spacing: 'Small' })),
          ],
          actions: [{ type: 'Action.OpenUrl', title: 'Open the report', url: context.alert.reportUrl }],
        },
      },
    ],
  };
}

/** The generic webhook's JSON: the changes as monitoring found them, each with its event and a one-line summary. */
export function webhookPayload(context: PayloadContext): Record<string, unknown> {
  const { alert } = context;
  return {
    id: alert.id,
    type: alert.test ? 'test' : 'alert',
    product: context.productName,
    domain: alert.domain,
    createdAt: alert.createdAt,
    reportUrl: alert.reportUrl,
    events: [...new Set(alert.changes.map(alertDestinationEventOf))],
    changes: alert.changes.map((change) => ({ event: alertDestinationEventOf(change), summary: changeTitle(change), ...change })),
  };
}

export function payloadFor(kind: DestinationKind, context: PayloadContext): Record<string, unknown> {
  return kind === 'slack' ? slackPayload(context) : kind === 'teams' ? teamsPayload(context) : webhookPayload(context);
}

/** The event header's value and the delivery log's: the events carried, or 'test'. */
export const eventLabel = (alert: DestinationAlert) => (alert.test ? 'test' : [...new Set(alert.changes.map(alertDestinationEventOf))].join(','));

// ---------------------------------------------------------------------------------------------------
// Signing (the generic webhook)

/** `v1=` and the hex HMAC-SHA256 of `{timestamp}.{body}` under the secret (the README's recipe). */
export function signWebhook(secret: string, timestamp: number, body: string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** The receiver's side, as the README gives it: the signature matches and the timestamp is within 5 minutes. */
export function verifyWebhook(secret: string, headers: { timestamp?: string; signature?: string }, body: string, nowSeconds: number): boolean {
  const timestamp = Number(headers.timestamp);
  if (!Number.isInteger(timestamp) || Math.abs(nowSeconds - timestamp) > SIGNATURE_TOLERANCE_SECONDS) return false;
  const expected = Buffer.from(signWebhook(secret, timestamp, body));
  const given = Buffer.from(headers.signature ?? '');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The request a destination is sent: the body as it goes, and the headers (signed for the generic webhook). */
export function deliveryRequest(destination: Pick<DestinationRecord, 'kind' | 'secret'>, context: PayloadContext, nowSeconds: number): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify(payloadFor(destination.kind, context));
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: '*/*' };
  if (destination.kind === 'webhook' && destination.secret) {
    headers[TIMESTAMP_HEADER.toLowerCase()] = String(nowSeconds);
    headers[SIGNATURE_HEADER.toLowerCase()] = signWebhook(destination.secret, nowSeconds, body);
    headers[DELIVERY_ID_HEADER.toLowerCase()] = context.alert.id;
    headers[EVENT_HEADER.toLowerCase()] = eventLabel(context.alert);
  }
  return { body, headers };
}
