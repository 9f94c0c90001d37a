import { randomUUID } from 'node:crypto';
import type { Deps } from '../composition.js';
import { supportMailbox } from '../config.js';
import { trialSubscription, type UserProfile } from '../domain/account.js';
import { parseContract } from '../domain/contract.js';
import { UpstreamUnavailableError, ValidationError } from '../domain/errors.js';
import {
  type SupportRequestCreated,
  supportMessages,
  supportRequestSchema,
  type SupportRequestsPage,
} from '../domain/support.contract.js';
import {
  type SupportEntitlement,
  supportAcknowledgementEmail,
  supportEntitlement,
  supportReference,
  type SupportRequestRecord,
  supportRequestView,
  supportTeamEmail,
} from '../domain/support.js';
import type { Caller } from './account.js';
import { enforceLimits } from './rate-limits.js';
import { recordContactInteraction } from './contact-retention.js';

/**
 * The Support page (DECISIONS "Plan features": "Priority support is a service promise: the support
 * form marks the plan"; the rules are lambdas/domain/support.ts): a request is stored under its
 * author, emailed to the support mailbox marked with the plan (and `[Priority]` where the plan
 * promises it), and acknowledged to the author with its reference and the first-response time.
 */

export type SupportDeps = Pick<Deps, 'supportRequests' | 'accounts' | 'audits' | 'billing' | 'rateLimits' | 'mailer' | 'clock' | 'config' | 'log'>;

/** The requests a user sees on the Support page (the newest). */
export const SUPPORT_REQUESTS_LISTED = 50;

async function entitlementOf(deps: Pick<Deps, 'accounts' | 'billing' | 'clock'>, profile: UserProfile): Promise<SupportEntitlement> {
  const [subscription, usage, orders] = await Promise.all([
    deps.accounts.getSubscription(profile.userId),
    deps.billing.getScanUsage(profile.userId),
    deps.billing.listOrders(profile.userId),
  ]);
  const paidPacks = orders.filter((order) => order.status === 'paid').flatMap((order) => (order.planId === 'basic-scan' || order.planId === 'pro-scan' ? [order.planId] : []));
  return supportEntitlement({
    subscription,
    trialActive: trialSubscription(profile.createdAt, 0, deps.clock.now()).status === 'trial',
    paidPacks,
    extraScans: usage.extraScans,
  });
}

/** `POST /api/me/support-requests` → the stored request and the promised first-response time. */
export async function createSupportRequest(deps: SupportDeps, caller: Caller, input: unknown): Promise<SupportRequestCreated> {
  const data = parseContract(supportRequestSchema, input);
  const profile = await deps.accounts.getOrCreateProfile(caller);
  if (data.auditId) {
    const audit = await deps.audits.getAudit(data.auditId);
    if (audit?.ownerId !== caller.userId) throw new ValidationError(supportMessages.auditNotYours, { auditId: supportMessages.auditNotYours });
  }
  await enforceLimits(deps.rateLimits, [{ scope: 'support:user', subject: caller.userId, perHour: deps.config.RATE_LIMIT_SUPPORT_REQUESTS_PER_USER }], 'support requests');
  const entitlement = await entitlementOf(deps, profile);
  const id = randomUUID();
  const createdAt = deps.clock.now().toISOString();
  const request: SupportRequestRecord = {
    id,
    reference: supportReference(createdAt, id),
    userId: caller.userId,
    email: profile.email,
    name: `${profile.firstName} ${profile.lastName}`.trim(),
    category: data.category,
    subject: data.subject,
    message: data.message,
    auditId: data.auditId ?? null,
    status: 'open',
    plan: entitlement.plan,
    planIds: entitlement.planIds,
    priority: entitlement.priority,
    createdAt,
  };
  await deps.supportRequests.create(request);
  const brand = { productName: deps.config.PRODUCT_NAME, siteUrl: deps.config.SITE_URL };
  try {
    await deps.mailer.send(supportTeamEmail(brand, supportMailbox(deps.config), request));
  } catch (error) {
    // Not left stored as if support had it: the user is told to try again.
    deps.log.error('Could not email a support request to the support mailbox', { reference: request.reference, error: String(error) });
    await deps.supportRequests.remove(request.userId, request.createdAt, request.id).catch(() => undefined);
    throw new UpstreamUnavailableError('support_unavailable', supportMessages.failed);
  }
  try {
    await deps.mailer.send(supportAcknowledgementEmail(brand, request, profile.firstName || undefined));
  } catch (error) {
    deps.log.error('Could not send a support acknowledgement (support has the request)', { reference: request.reference, error: String(error) });
  }
  // Writing to support is an interaction: the person's contact details are kept 3 years from it.
  await recordContactInteraction(deps, { email: profile.email, userId: caller.userId });
  return { request: supportRequestView(request), firstResponse: entitlement.firstResponse };
}

/** `GET /api/me/support-requests`: the caller's own requests, newest first, and what their plan promises now. */
export async function listSupportRequests(deps: Pick<Deps, 'supportRequests' | 'accounts' | 'billing' | 'clock'>, caller: Caller): Promise<SupportRequestsPage> {
  const profile = await deps.accounts.getOrCreateProfile(caller);
  const [requests, entitlement] = await Promise.all([deps.supportRequests.list(caller.userId, SUPPORT_REQUESTS_LISTED), entitlementOf(deps, profile)]);
  const { planIds: _plans, ...support } = entitlement;
  return { requests: requests.map(supportRequestView), support };
}
