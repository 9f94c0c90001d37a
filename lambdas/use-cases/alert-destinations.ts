import { randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import type { Deps } from '../composition.js';
import {
  alertDestinationMessages,
  createDestinationSchema,
  type CreatedDestination,
  DELIVERY_LOG_LIMIT,
  type DeliveryList,
  DESTINATION_EVENT_LABELS,
  destinationEvents,
  destinationIdSchema,
  type DestinationList,
  type DestinationView,
  MAX_DESTINATIONS_PER_USER,
  type TestDelivery,
  updateDestinationSchema,
} from '../domain/alert-destination.contract.js';
import {
  changesFor,
  checkDestinationUrl,
  deliveryView,
  type DestinationRecord,
  destinationView,
  hasAlertDestinations,
  newDestinationId,
  newSigningSecret,
} from '../domain/alert-destinations.js';
import { parseContract } from '../domain/contract.js';
import { ConflictError, ForbiddenError, NotFoundError } from '../domain/errors.js';
import type { MonitoringChange } from '../domain/monitoring-diff.js';
import { HttpTargetRefusedError } from '../scanner/net/http-client.js';
import { isLoopbackName, refusedAddress } from '../scanner/target-guard.js';
import type { Caller } from './account.js';
import { postToDestination } from './destination-delivery.js';
import { notify, type NotifyDeps } from './notifications.js';
import { enforceLimits } from './rate-limits.js';

/**
 * Alert destinations (issue 22 item 1; the rules in lambdas/domain/alert-destinations.ts): Settings →
 * Alert destinations manages them (Monitor Plus), "send test" posts one test alert at once, and
 * monitoring hands each alert to every enabled destination that wants one of its events, through the
 * notification outbox (lambdas/use-cases/destination-delivery.ts makes each attempt).
 */

type ManageDeps = Pick<Deps, 'alertDestinations' | 'accounts' | 'clock' | 'scanSettings'>;

/** "Send test" posts at once and the user waits: at most this many an hour per user. */
export const TESTS_PER_HOUR = 20;

const planRequired = () => new ForbiddenError('plan_required', alertDestinationMessages.planRequired);
const notFound = () => new NotFoundError('destination_not_found', alertDestinationMessages.notFound);

function parseId(raw: unknown): string {
  const parsed = destinationIdSchema.safeParse(raw);
  if (!parsed.success) throw notFound();
  return parsed.data;
}

async function requirePlan(deps: Pick<Deps, 'accounts'>, caller: Caller): Promise<void> {
  if (!hasAlertDestinations(await deps.accounts.getSubscription(caller.userId))) throw planRequired();
}

/** An address that is itself a forbidden one (an IP literal or localhost) is refused at once; names are guarded at each delivery. */
function refuseLiteralTargets(url: string, allowPrivateTargets: boolean): void {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (!allowPrivateTargets && isLoopbackName(host)) throw new HttpTargetRefusedError(host);
  if (isIP(host)) {
    const refused = refusedAddress([host], allowPrivateTargets);
    if (refused) throw new HttpTargetRefusedError(host, refused);
  }
}

/** `GET /api/me/alert-destinations`: the caller's destinations (no secret, the address masked) and whether the plan includes them. */
export async function listDestinations(deps: ManageDeps, caller: Caller): Promise<DestinationList> {
  const [destinations, subscription] = await Promise.all([deps.alertDestinations.list(caller.userId), deps.accounts.getSubscription(caller.userId)]);
  return {
    destinations: destinations.map(destinationView),
    allowed: hasAlertDestinations(subscription),
    limit: MAX_DESTINATIONS_PER_USER,
    events: destinationEvents.map((id) => ({ id, label: DESTINATION_EVENT_LABELS[id] })),
  };
}

/** `POST /api/me/alert-destinations`: a new destination; a generic webhook's signing secret is in this answer only. */
export async function createDestination(deps: ManageDeps, caller: Caller, input: unknown, createdBy: string = caller.userId): Promise<CreatedDestination> {
  const { kind, name, url: rawUrl, events } = parseContract(createDestinationSchema, input);
  await requirePlan(deps, caller);
  const url = checkDestinationUrl(kind, rawUrl, deps.scanSettings.allowPrivateTargets);
  refuseLiteralTargets(url, deps.scanSettings.allowPrivateTargets);
  // The profile exists before anything is keyed by the user (a token from before a deletion cannot make one).
  await deps.accounts.getOrCreateProfile(caller);
  const now = deps.clock.now().toISOString();
  const secret = kind === 'webhook' ? newSigningSecret() : undefined;
  const record: DestinationRecord = {
    id: newDestinationId(),
    userId: caller.userId,
    kind,
    name,
    url,
    events,
    ...(secret ? { secret } : {}),
    enabled: true,
    consecutiveFailures: 0,
    createdAt: now,
    updatedAt: now,
    createdBy,
  };
  if (!(await deps.alertDestinations.create(record, MAX_DESTINATIONS_PER_USER))) throw new ConflictError('destination_limit_reached', alertDestinationMessages.limitReached);
  return { destination: destinationView(record), ...(secret ? { secret } : {}) };
}

/** `PUT /api/me/alert-destinations/{destinationId}`: rename, readdress, choose events, enable or disable. */
export async function updateDestination(deps: ManageDeps, caller: Caller, rawId: unknown, input: unknown): Promise<DestinationView> {
  const id = parseId(rawId);
  const changes = parseContract(updateDestinationSchema, input);
  const current = await deps.alertDestinations.get(caller.userId, id);
  if (!current) throw notFound();
  await requirePlan(deps, caller);
  const url = changes.url === undefined ? undefined : checkDestinationUrl(current.kind, changes.url, deps.scanSettings.allowPrivateTargets);
  if (url) refuseLiteralTargets(url, deps.scanSettings.allowPrivateTargets);
  const updated = await deps.alertDestinations.update(caller.userId, id, { ...changes, ...(url ? { url } : {}) }, deps.clock.now().toISOString());
  if (!updated) throw notFound();
  return destinationView(updated);
}

/** `DELETE /api/me/alert-destinations/{destinationId}`: allowed on any plan; alerts waiting for it are not sent. */
export async function deleteDestination(deps: Pick<Deps, 'alertDestinations'>, caller: Caller, rawId: unknown): Promise<void> {
  if (!(await deps.alertDestinations.delete(caller.userId, parseId(rawId)))) throw notFound();
}

/** What a test alert names when the account has no verified domain yet (never a stranger's, such as example.com). */
export const TEST_ALERT_NO_DOMAIN = 'your domain';

/** The domain a test alert names: the account's first verified domain (earliest verified), else 'your domain'. */
async function testAlertDomain(deps: Pick<Deps, 'domains'>, userId: string): Promise<string> {
  const verified = (await deps.domains.list(userId)).filter((record) => record.verified);
  const first = verified.sort((a, b) => (a.verifiedAt ?? a.addedAt).localeCompare(b.verifiedAt ?? b.addedAt))[0];
  return first?.domain ?? TEST_ALERT_NO_DOMAIN;
}

/** `POST /api/me/alert-destinations/{destinationId}/test`: one test alert naming the account's own domain, posted now; the answer is its delivery. */
export async function sendTestAlert(deps: ManageDeps & Pick<Deps, 'rateLimits' | 'config' | 'log' | 'domains'>, caller: Caller, rawId: unknown): Promise<TestDelivery> {
  const id = parseId(rawId);
  const destination = await deps.alertDestinations.get(caller.userId, id);
  if (!destination) throw notFound();
  await requirePlan(deps, caller);
  await enforceLimits(deps.rateLimits, [{ scope: 'destination-test:user', subject: caller.userId, perHour: TESTS_PER_HOUR }], 'test alerts');
  const now = deps.clock.now().toISOString();
  const siteUrl = deps.config.SITE_URL.replace(/\/+$/, '');
  const domain = await testAlertDomain(deps, caller.userId);
  const delivery = await postToDestination(deps, destination, { id: randomUUID(), domain, reportUrl: `${siteUrl}/dashboard`, createdAt: now, changes: [], test: true }, 1);
  return { delivery };
}

/** `GET /api/me/alert-destinations/{destinationId}/deliveries`: the newest deliveries of one destination. */
export async function listDeliveries(deps: Pick<Deps, 'alertDestinations'>, caller: Caller, rawId: unknown): Promise<DeliveryList> {
  const id = parseId(rawId);
  if (!(await deps.alertDestinations.get(caller.userId, id))) throw notFound();
  const deliveries = await deps.alertDestinations.listDeliveries(caller.userId, id, DELIVERY_LOG_LIMIT);
  return { deliveries: deliveries.map(deliveryView) };
}

/** The changes any of the user's enabled destinations wants (none without the plan): monitoring claims these too. */
export async function destinationWantedChanges(deps: Pick<Deps, 'alertDestinations' | 'accounts'>, userId: string, changes: readonly MonitoringChange[]): Promise<MonitoringChange[]> {
  if (changes.length === 0) return [];
  const destinations = (await deps.alertDestinations.list(userId)).filter((destination) => destination.enabled);
  if (destinations.length === 0 || !hasAlertDestinations(await deps.accounts.getSubscription(userId))) return [];
  return changes.filter((change) => destinations.some((destination) => changesFor(destination, [change]).length > 0));
}

export interface DestinationAlertRequest {
  userId: string;
  domain: string;
  auditId: string;
  reportUrl: string;
  changes: readonly MonitoringChange[];
}

/**
 * Hands an alert to each enabled destination that wants some of its changes, through the outbox
 * (first attempts side by side, so ten slow receivers cost one timeout). Never throws: a destination
 * never fails a scan or a monitoring run (DECISIONS "Mail never fails a scan"). The number handed over.
 */
export async function queueDestinationAlerts(deps: NotifyDeps, request: DestinationAlertRequest): Promise<number> {
  try {
    const destinations = (await deps.alertDestinations.list(request.userId)).filter((destination) => destination.enabled);
    if (destinations.length === 0 || !hasAlertDestinations(await deps.accounts.getSubscription(request.userId))) return 0;
    const createdAt = deps.clock.now().toISOString();
    const handed = await Promise.allSettled(
      destinations.map(async (destination) => {
        const changes = changesFor(destination, request.changes);
        if (changes.length === 0) return false;
        const alert = { id: randomUUID(), domain: request.domain, reportUrl: request.reportUrl, createdAt, changes };
        await notify(deps, { id: randomUUID(), kind: 'alert', message: { channel: 'webhook', webhook: { userId: request.userId, destinationId: destination.id, alert } }, about: { auditId: request.auditId, userId: request.userId } });
        return true;
      }),
    );
    for (const result of handed) if (result.status === 'rejected') deps.log.error('Could not store an alert for a destination', { auditId: request.auditId, error: String(result.reason) });
    return handed.filter((result) => result.status === 'fulfilled' && result.value).length;
  } catch (error) {
    deps.log.error('Could not read the alert destinations; the alert went by email and SMS only', { auditId: request.auditId, error: String(error) });
    return 0;
  }
}
