import type { Deps } from '../composition.js';
import { subscriptionView } from '../domain/account.js';
import { type Audit, auditIdSchema } from '../domain/audit.js';
import { isIssue } from '../domain/audit-view.js';
import { verifiedDomainState } from './domains.js';
import { proofDueMessage } from '../domain/domains.js';
import { parseContract } from '../domain/contract.js';
import { ConflictError, DomainError, ForbiddenError, NotFoundError, UpstreamUnavailableError, ValidationError } from '../domain/errors.js';
import {
  badgeEligibleUntil,
  checkoutAmount,
  isCheckoutSessionId,
  orderView,
  type StoredInvoice,
  type StoredOrder,
  SUBSCRIBER_AUDIT_DISCOUNT_PERCENT,
  subscriptionPlanOf,
  subscriptionStatusOf,
} from '../domain/payments.js';
import {
  type BillingPortalResponse,
  type BillingView,
  checkoutRequestSchema,
  type CheckoutSessionResponse,
  type InvoiceView,
  type OrderView,
  paymentMessages,
  purchasablePlanIds,
} from '../domain/payments.contract.js';
import { checkoutMode, CURRENCY, getPlan, type PlanId } from '../domain/plans.js';
import { startCallBudget } from '../domain/call-budget.js';
import type { PaymentEvent, StoredSubscription } from '../domain/ports.js';
import type { Caller } from './account.js';
import { refuseOptedOutScan } from './scan-opt-outs.js';
import { reindexMonitoring } from './monitoring-due.js';

/**
 * Payments (SPEC §2 payment pages, §3 order record, §6/§7 checkout; issue 8; DECISIONS "Accounts,
 * plans, payments"): checkout sessions, the webhook that records what was paid and grants it,
 * orders and receipts, the subscription page's billing data and the customer portal. The same code
 * runs with Stripe and with the local test checkout: only the PaymentProvider adapter differs.
 */

type PaymentDeps = Pick<Deps, 'accounts' | 'audits' | 'domains' | 'billing' | 'payments' | 'paymentEvents' | 'scanJobs' | 'clock' | 'config' | 'log' | 'scannerOptOuts' | 'monitoring'>;

const siteUrl = (deps: Pick<Deps, 'config'>) => deps.config.SITE_URL.replace(/\/+$/, '');

/**
 * Issue 30 item 6: the Stripe calls of one request share this budget (a checkout makes two in a row:
 * the customer, then the session), timeouts and retries included, so the request gives up with the
 * spec's 502 well inside the payments function's 15 s timeout (lambdas/routes.ts), with 5 s left for
 * the table's reads and writes before and after them.
 */
export const STRIPE_CALLS_BUDGET_MS = 10_000;

/** Where Checkout sends the customer back (DECISIONS "/success vs /payment-success"). */
export function checkoutUrls(site: string, planKind: 'audit' | 'subscription' | 'scan-pack', auditId?: string) {
  const success =
    planKind === 'audit' && auditId
      ? `${site}/payment-success?session_id={CHECKOUT_SESSION_ID}&audit_id=${encodeURIComponent(auditId)}`
      : `${site}/success?session_id={CHECKOUT_SESSION_ID}`;
  return { successUrl: success, cancelUrl: `${site}/#pricing` };
}

/** `POST /api/checkout-sessions`: a plan (and for an audit plan, the free report it deepens) → where to pay. */
export async function createCheckoutSession(deps: PaymentDeps, caller: Caller, input: unknown): Promise<CheckoutSessionResponse> {
  const request = parseContract(checkoutRequestSchema, input);
  const plan = getPlan(request.planId);
  const mode = checkoutMode(plan);
  if (!mode || plan.kind === 'trial') throw new ValidationError(paymentMessages.planNotForSale, { planId: paymentMessages.planNotForSale });
  const profile = await deps.accounts.getOrCreateProfile(caller);
  // The token's verified address only (issue 28 finding 3): the profile's copy proves nothing.
  const email = caller.email.toLowerCase();

  if (plan.kind === 'audit') {
    if (!request.auditId) throw new ValidationError(paymentMessages.auditRequired, { auditId: paymentMessages.auditRequired });
    await requireUpgradableAudit(deps, request.auditId, caller.userId, email);
  } else if (request.auditId) {
    throw new ValidationError(paymentMessages.auditPlanOnly, { auditId: paymentMessages.auditPlanOnly });
  }

  const subscription = await deps.accounts.getSubscription(caller.userId);
  const { amountCents, discountPercent } = checkoutAmount(plan, subscription?.status === 'active');
  const { successUrl, cancelUrl } = checkoutUrls(siteUrl(deps), plan.kind, request.auditId);

  const budget = startCallBudget(STRIPE_CALLS_BUDGET_MS);
  try {
    let customerId = profile.customerId;
    if (!customerId) {
      const name = [profile.firstName, profile.lastName].filter(Boolean).join(' ');
      ({ customerId } = await deps.payments.createCustomer({ userId: caller.userId, email: email || profile.email, ...(name ? { name } : {}) }, budget));
      await deps.billing.linkCustomer(customerId, caller.userId);
      await deps.accounts.setCustomerId(caller.userId, customerId);
    }
    const session = await deps.payments.createCheckoutSession({
      mode,
      plan: { id: plan.id as Exclude<PlanId, 'trial'>, name: plan.name, summary: plan.summary },
      amountCents,
      currency: CURRENCY,
      customerId,
      userId: caller.userId,
      ...(request.auditId ? { auditId: request.auditId } : {}),
      successUrl,
      cancelUrl,
    }, budget);
    await deps.billing.createOrder({
      checkoutSessionId: session.sessionId,
      userId: caller.userId,
      planId: plan.id as Exclude<PlanId, 'trial'>,
      ...(request.auditId ? { auditId: request.auditId } : {}),
      amountTotal: amountCents,
      currency: CURRENCY,
      status: 'pending',
      createdAt: deps.clock.now().toISOString(),
      customerId,
      ...(discountPercent > 0 ? { discountPercent } : {}),
    });
    return { url: session.url, sessionId: session.sessionId };
  } catch (error) {
    if (error instanceof UpstreamUnavailableError) {
      deps.log.error('Checkout session could not be created', { reason: String(error.details?.reason ?? error.message), planId: plan.id });
      throw error;
    }
    deps.log.error('Checkout session could not be created', error as Error);
    throw new UpstreamUnavailableError('checkout_failed', paymentMessages.checkoutFailed);
  }
}

/**
 * DECISIONS "What paid audits add": a paid audit deepens one of the caller's own free reports (owned,
 * or stored under the caller's email before the account existed) that has finished and found issues.
 */
async function requireUpgradableAudit(deps: Pick<Deps, 'audits' | 'domains' | 'clock' | 'config' | 'scannerOptOuts'>, auditId: string, userId: string, email: string): Promise<void> {
  const audit = await deps.audits.getAudit(auditId);
  if (!audit) throw new NotFoundError('audit_not_found', 'Audit not found');
  if (!(await isOwnAudit(deps, audit, userId, email))) throw new ForbiddenError('audit_forbidden', paymentMessages.auditNotYours);
  if (audit.status !== 'completed') throw new ConflictError('audit_not_completed', paymentMessages.auditNotCompleted);
  if (!audit.checks.some((check) => check.findings.some(isIssue))) throw new ConflictError('audit_without_issues', paymentMessages.auditWithoutIssues);
  // DECISIONS "Scanner identity": no money is taken for a deep scan the site's owner has refused.
  await refuseOptedOutScan(deps, audit.host);
  // DECISIONS "Scan modes": deep scans need a verified domain; no money is taken for a scan that cannot run.
  // A proof last seen over DOMAIN_PROOF_RECHECK_DAYS ago is checked again first (Settings → Domains): checkout waits for no DNS.
  const verified = await verifiedDomainState(deps, userId, audit.host);
  if (verified.state === 'none') throw new ForbiddenError('domain_not_verified', paymentMessages.domainNotVerified);
  if (verified.state === 'recheck-due') throw new ForbiddenError('domain_not_verified', proofDueMessage(verified.domain!));
}

/**
 * The caller's own report: owned by the account, or nobody's yet and stored under the account's
 * email address (a lead from before the account existed). Who may buy a paid audit of it, and who
 * may use the Pro Audit's free re-scan.
 */
/**
 * The caller's own audit by the id from the path (`isOwnAudit`): 404 `audit_not_found` for a
 * malformed or unknown id, 403 `audit_forbidden` with `notYours` for another's. For the routes that
 * act on a report (the free re-scan, the unlock).
 */
export async function callersOwnAudit(deps: Pick<Deps, 'audits'>, caller: { userId: string; email: string }, rawId: unknown, notYours: string): Promise<Audit> {
  const id = typeof rawId === 'string' ? rawId : '';
  const notFound = () => new NotFoundError('audit_not_found', 'Audit not found');
  if (!auditIdSchema.safeParse(id).success) throw notFound();
  const audit = await deps.audits.getAudit(id);
  if (!audit) throw notFound();
  if (!(await isOwnAudit(deps, audit, caller.userId, caller.email))) throw new ForbiddenError('audit_forbidden', notYours);
  return audit;
}

export async function isOwnAudit(deps: Pick<Deps, 'audits'>, audit: Audit, userId: string, email: string): Promise<boolean> {
  if (audit.ownerId !== undefined) return audit.ownerId === userId;
  if (!audit.leadId || !email) return false;
  const lead = await deps.audits.getLead(audit.leadId);
  return lead !== undefined && lead.email.toLowerCase() === email.toLowerCase();
}

export class InvalidSignatureError extends DomainError {
  constructor() {
    super('invalid_signature', 'The webhook signature could not be verified.');
  }
}

/**
 * `POST /api/stripe/webhook`: verified over the raw body, processed once per event id (a replay
 * answers 200 and changes nothing), unknown types acknowledged and ignored. When processing fails
 * the claim is given back and the error answers 500, so Stripe retries the event.
 */
export async function handleWebhook(deps: PaymentDeps, rawBody: string, signature: string | undefined): Promise<{ received: true; duplicate?: true; ignored?: true }> {
  let event: PaymentEvent;
  try {
    event = deps.paymentEvents.verify(rawBody, signature);
  } catch {
    throw new InvalidSignatureError();
  }
  const handler = eventHandlers[event.type];
  if (!handler) return { received: true, ignored: true };
  if (!(await deps.billing.claimEvent(event.id, event.type))) return { received: true, duplicate: true };
  try {
    await handler(deps, event);
  } catch (error) {
    await deps.billing.releaseEvent(event.id).catch(() => undefined);
    throw error;
  }
  return { received: true };
}

type EventHandler = (deps: PaymentDeps, event: PaymentEvent) => Promise<void>;

const eventHandlers: Record<string, EventHandler> = {
  'checkout.session.completed': checkoutCompleted,
  'checkout.session.async_payment_succeeded': checkoutCompleted,
  'invoice.paid': invoicePaid,
  'invoice.payment_failed': invoiceFailed,
  'customer.subscription.created': subscriptionChanged,
  'customer.subscription.updated': subscriptionChanged,
  'customer.subscription.deleted': subscriptionChanged,
};

// Webhook objects are read field by field: only what is used, each checked for its type.
type Obj = Record<string, unknown>;
const obj = (value: unknown): Obj | undefined => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Obj) : undefined);
const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
/** An expandable field: the id, or the expanded object's id. */
const idOf = (value: unknown): string | undefined => str(value) ?? str(obj(value)?.id);
const iso = (epochSeconds: number) => new Date(epochSeconds * 1000).toISOString();
const first = (list: unknown): Obj | undefined => obj((obj(list)?.data as unknown[] | undefined)?.[0]);

const isPurchasable = (id: unknown): id is Exclude<PlanId, 'trial'> => (purchasablePlanIds as readonly unknown[]).includes(id);

async function checkoutCompleted(deps: PaymentDeps, event: PaymentEvent): Promise<void> {
  const session = event.data.object;
  // Delayed payment methods complete the session unpaid; their async_payment_succeeded event grants it.
  if (session.payment_status === 'unpaid') return;
  const sessionId = str(session.id);
  const metadata = obj(session.metadata) ?? {};
  const userId = str(metadata.userId) ?? str(session.client_reference_id);
  const planId = metadata.planId;
  if (!sessionId || !userId || !isPurchasable(planId)) {
    deps.log.warn('Checkout session without Rampart metadata; ignored', { sessionId, eventId: event.id });
    return;
  }
  const auditId = str(metadata.auditId);
  const customerId = idOf(session.customer);
  const subscriptionId = idOf(session.subscription);
  const paidAt = iso(event.created);
  const order: StoredOrder = {
    checkoutSessionId: sessionId,
    userId,
    planId,
    ...(auditId ? { auditId } : {}),
    amountTotal: num(session.amount_total) ?? getPlan(planId).amountCents,
    currency: (str(session.currency) ?? CURRENCY).toLowerCase(),
    status: 'paid',
    createdAt: paidAt,
    orderDate: paidAt,
    ...(customerId ? { customerId } : {}),
    ...(subscriptionId ? { subscriptionId } : {}),
  };
  if (customerId) await deps.billing.linkCustomer(customerId, userId);
  // Granted once per order, whichever of its events arrives first.
  if (!(await deps.billing.markOrderPaid(order))) return;

  const plan = getPlan(planId);
  if ((planId === 'basic-audit' || planId === 'pro-audit') && auditId) {
    await deps.audits.markPremium(auditId, {
      planType: plan.tier === 'pro' ? 'pro' : 'basic',
      paymentSessionId: sessionId,
      badgeEligibleUntil: badgeEligibleUntil(planId, new Date(event.created * 1000)),
      updatedAt: deps.clock.now().toISOString(),
    });
    // DECISIONS "What paid audits add": the scan the audit grants (deep, lambdas/domain/plans.ts), on the same report.
    if (await deps.audits.requeueDeep(auditId, deps.clock.now().toISOString())) {
      await deps.scanJobs.enqueue({ auditId, kind: 'scan', depth: plan.grants.scanDepth }, 'paid');
    } else {
      deps.log.warn('Paid audit is not completed; its deep scan was not queued', { auditId });
    }
  } else if (plan.kind === 'scan-pack') {
    await deps.billing.addExtraScans(userId, plan.scansLimit ?? 0);
  } else if (plan.kind === 'subscription' && (planId === 'monitor-lite' || planId === 'monitor-plus')) {
    // The plan at once, before the subscription's own events: any of those (even from the same second) replaces it.
    const start = new Date(event.created * 1000);
    const end = new Date(start);
    end.setUTCMonth(end.getUTCMonth() + 1);
    await deps.billing.applySubscription(userId, {
      planId,
      status: 'active',
      currentPeriodStart: start.toISOString(),
      currentPeriodEnd: end.toISOString(),
      source: 'stripe',
      ...(subscriptionId ? { subscriptionId } : {}),
      ...(customerId ? { customerId } : {}),
      eventCreated: event.created - 1,
    });
    await monitoringFollows(deps, userId);
  }
}

/** The user an event is about: Rampart's metadata, else the customer's link. */
async function userOf(deps: PaymentDeps, metadata: Obj | undefined, customer: unknown): Promise<string | undefined> {
  const fromMetadata = str(metadata?.userId);
  if (fromMetadata) return fromMetadata;
  const customerId = idOf(customer);
  return customerId ? deps.billing.userOfCustomer(customerId) : undefined;
}

interface InvoiceFacts {
  invoice: StoredInvoice;
  /** The service period the invoice pays for (its line's period). */
  periodStart?: string;
}

async function readInvoice(deps: PaymentDeps, event: PaymentEvent, status: StoredInvoice['status']): Promise<InvoiceFacts | undefined> {
  const invoice = event.data.object;
  const details = obj(obj(invoice.parent)?.subscription_details);
  const metadata = obj(details?.metadata) ?? obj(invoice.subscription_details) ?? obj(invoice.metadata);
  const userId = await userOf(deps, metadata, invoice.customer);
  const invoiceId = str(invoice.id);
  if (!userId || !invoiceId) {
    deps.log.warn('Invoice for no known user; ignored', { invoiceId, eventId: event.id });
    return undefined;
  }
  const line = first(invoice.lines);
  const period = obj(line?.period);
  const linePrice = obj(obj(obj(line?.pricing)?.price_details)?.price) ?? obj(line?.price);
  const planId = subscriptionPlanOf(
    linePrice ? { lookupKey: str(linePrice.lookup_key), metadataPlanId: str(obj(linePrice.metadata)?.planId), unitAmount: num(linePrice.unit_amount), currency: str(linePrice.currency) } : undefined,
    str(metadata?.planId),
  );
  const start = num(period?.start) ?? num(invoice.period_start);
  const end = num(period?.end) ?? num(invoice.period_end);
  const subscriptionId = idOf(details?.subscription) ?? idOf(invoice.subscription);
  const hosted = str(invoice.hosted_invoice_url);
  return {
    invoice: {
      invoiceId,
      userId,
      ...(subscriptionId ? { subscriptionId } : {}),
      ...(planId ? { planId } : {}),
      amountCents: (status === 'paid' ? num(invoice.amount_paid) : num(invoice.amount_due)) ?? num(invoice.total) ?? 0,
      currency: (str(invoice.currency) ?? CURRENCY).toLowerCase(),
      status,
      date: iso(num(invoice.created) ?? event.created),
      ...(start !== undefined ? { periodStart: iso(start) } : {}),
      ...(end !== undefined ? { periodEnd: iso(end) } : {}),
      ...(hosted ? { hostedInvoiceUrl: hosted } : {}),
    },
    ...(start !== undefined ? { periodStart: iso(start) } : {}),
  };
}

/** A paid invoice: stored for the billing history, and a new period's scans start from 0 (DECISIONS "Scan counting"). */
async function invoicePaid(deps: PaymentDeps, event: PaymentEvent): Promise<void> {
  const facts = await readInvoice(deps, event, 'paid');
  if (!facts) return;
  await deps.billing.saveInvoice(facts.invoice);
  // The stored plan when it is this invoice's subscription: checkout metadata is stale after a portal plan change.
  const stored = await deps.accounts.getSubscription(facts.invoice.userId);
  const sameSubscription = stored?.subscriptionId !== undefined && stored.subscriptionId === facts.invoice.subscriptionId;
  const planId = (sameSubscription ? stored.planId : undefined) ?? facts.invoice.planId ?? stored?.planId;
  if (facts.periodStart && planId) await deps.billing.startScanPeriod(facts.invoice.userId, facts.periodStart, getPlan(planId).scansLimit ?? 0);
}

/** A failed renewal: the invoice is stored as failed and the plan reads `expired` (DECISIONS "Subscription states": past_due). */
async function invoiceFailed(deps: PaymentDeps, event: PaymentEvent): Promise<void> {
  const facts = await readInvoice(deps, event, 'failed');
  if (!facts) return;
  await deps.billing.saveInvoice(facts.invoice);
  const stored = await deps.accounts.getSubscription(facts.invoice.userId);
  if (!stored || stored.source !== 'stripe') return;
  if (facts.invoice.subscriptionId && stored.subscriptionId && facts.invoice.subscriptionId !== stored.subscriptionId) return;
  if (await deps.billing.applySubscription(facts.invoice.userId, { ...stored, status: 'expired', eventCreated: event.created })) await monitoringFollows(deps, facts.invoice.userId);
}

/** customer.subscription.created|updated|deleted: the plan, its state and period, never regressing to an older event's. */
async function subscriptionChanged(deps: PaymentDeps, event: PaymentEvent): Promise<void> {
  const subscription = event.data.object;
  const subscriptionId = str(subscription.id);
  const metadata = obj(subscription.metadata);
  const userId = await userOf(deps, metadata, subscription.customer);
  const item = first(subscription.items);
  const price = obj(item?.price) ?? obj(subscription.plan);
  const planId = subscriptionPlanOf(
    price
      ? {
          lookupKey: str(price.lookup_key),
          metadataPlanId: str(obj(price.metadata)?.planId),
          unitAmount: num(price.unit_amount) ?? num(price.amount),
          currency: str(price.currency),
          interval: str(obj(price.recurring)?.interval) ?? str(price.interval),
        }
      : undefined,
    str(metadata?.planId),
  );
  if (!userId || !subscriptionId || !planId) {
    deps.log.warn('Subscription event without a known user or plan; ignored', { subscriptionId, eventId: event.id });
    return;
  }
  const stored = await deps.accounts.getSubscription(userId);
  // The end of an old subscription does not cancel a newer one.
  if (event.type === 'customer.subscription.deleted' && stored?.subscriptionId && stored.subscriptionId !== subscriptionId) return;
  const start = num(item?.current_period_start) ?? num(subscription.current_period_start) ?? num(subscription.start_date) ?? event.created;
  const end = num(item?.current_period_end) ?? num(subscription.current_period_end) ?? num(subscription.ended_at) ?? start;
  const customerId = idOf(subscription.customer);
  const next: StoredSubscription = {
    planId,
    status: event.type === 'customer.subscription.deleted' ? 'cancelled' : subscriptionStatusOf(str(subscription.status)),
    currentPeriodStart: iso(start),
    currentPeriodEnd: iso(end),
    source: 'stripe',
    subscriptionId,
    ...(customerId ? { customerId } : {}),
    eventCreated: event.created,
  };
  if (!(await deps.billing.applySubscription(userId, next))) {
    deps.log.info('Older subscription event ignored', { subscriptionId, eventId: event.id });
    return;
  }
  await monitoringFollows(deps, userId);
}

/** The monitoring due index follows the subscription at once: in when it starts, out when it ends (lambdas/use-cases/monitoring-due.ts). */
async function monitoringFollows(deps: PaymentDeps, userId: string): Promise<void> {
  // Not the payment's failure: a domain left out is put back by the next subscription event, one left in leaves at its due time.
  await reindexMonitoring(deps, userId, deps.clock.now()).catch((error: unknown) => deps.log.warn('Monitoring index not updated for the subscription', { error: String(error) }));
}

function parseSessionId(raw: unknown): string {
  const id = typeof raw === 'string' ? raw : '';
  if (!isCheckoutSessionId(id)) throw new DomainError('invalid_session', paymentMessages.invalidSession);
  return id;
}

async function paidOrder(deps: Pick<Deps, 'billing'>, rawId: unknown): Promise<StoredOrder> {
  const order = await deps.billing.getOrder(parseSessionId(rawId));
  if (!order) throw new NotFoundError('order_not_found', paymentMessages.orderNotFound);
  // The browser can arrive before Stripe's webhook: the page retries on this code.
  if (order.status !== 'paid') throw new NotFoundError('order_pending', paymentMessages.orderPending);
  return order;
}

/**
 * `GET /api/orders/{checkoutSessionId}` (public: the session id is the secret, SPEC §2 payment pages).
 * A session the webhook has not confirmed yet answers 200 with `status: 'pending'`: the page polls,
 * and a 404 would be a console error in every buyer's browser while it waits.
 */
export async function getOrder(deps: Pick<Deps, 'billing'>, rawId: unknown): Promise<OrderView> {
  const order = await deps.billing.getOrder(parseSessionId(rawId));
  if (!order) throw new NotFoundError('order_not_found', paymentMessages.orderNotFound);
  // Without the audit's id (issue 28 finding 11): it opens the report with no expiry, and anyone who
  // holds the session id (a shared receipt link, a browser history) would have it. The buyer's page
  // has it from its own success URL; the signed-in buyer's billing page lists it.
  const { auditId: _auditId, ...view } = orderView(order);
  return view;
}

/** `GET /api/orders/{checkoutSessionId}/receipt.pdf`: the receipt, rendered on request. */
export async function orderReceipt(deps: Pick<Deps, 'billing' | 'config'>, rawId: unknown): Promise<{ bytes: Uint8Array; fileName: string }> {
  const order = await paidOrder(deps, rawId);
  const view = orderView(order);
  // pdf-lib (about 400 kB) is loaded only by the request that renders a receipt.
  const { renderReceiptPdf } = await import('../reports/receipt-pdf.js');
  const bytes = await renderReceiptPdf(view, { productName: deps.config.PRODUCT_NAME, siteUrl: siteUrl(deps) });
  return { bytes, fileName: `receipt-${view.orderId}.pdf` };
}

/** `GET /api/me/billing`: the subscription page's plan, invoices and one-off orders. */
export async function getBilling(deps: PaymentDeps, caller: Caller): Promise<BillingView> {
  const profile = await deps.accounts.getOrCreateProfile(caller);
  const [stored, usage, invoices, orders] = await Promise.all([
    deps.accounts.getSubscription(caller.userId),
    deps.billing.getScanUsage(caller.userId),
    deps.billing.listInvoices(caller.userId),
    deps.billing.listOrders(caller.userId),
  ]);
  return {
    subscription: subscriptionView(profile, stored, usage.used, deps.clock.now(), usage.extraScans),
    invoices: invoices.map(invoiceView),
    orders: orders.filter((order) => order.status === 'paid' && getPlan(order.planId).billing === 'one_off').map(orderView),
    canManageBilling: profile.customerId !== undefined,
    subscriberAuditDiscountPercent: SUBSCRIBER_AUDIT_DISCOUNT_PERCENT,
  };
}

function invoiceView(invoice: StoredInvoice): InvoiceView {
  const plan = invoice.planId ? getPlan(invoice.planId).name : 'Subscription';
  const period = invoice.periodStart && invoice.periodEnd ? `, ${invoice.periodStart.slice(0, 10)} to ${invoice.periodEnd.slice(0, 10)}` : '';
  return {
    id: invoice.invoiceId,
    date: invoice.date,
    amountCents: invoice.amountCents,
    currency: invoice.currency,
    status: invoice.status,
    description: `${plan}${period}`,
    ...(invoice.hostedInvoiceUrl ? { receiptUrl: invoice.hostedInvoiceUrl } : {}),
  };
}

/** `POST /api/me/billing-portal`: Stripe's customer portal (or the local one) for the caller's customer. */
export async function createBillingPortal(deps: PaymentDeps, caller: Caller): Promise<BillingPortalResponse> {
  const profile = await deps.accounts.getOrCreateProfile(caller);
  if (!profile.customerId) throw new ConflictError('no_billing_account', paymentMessages.noCustomer);
  try {
    return await deps.payments.createBillingPortalSession({ customerId: profile.customerId, returnUrl: `${siteUrl(deps)}/dashboard/subscription` }, startCallBudget(STRIPE_CALLS_BUDGET_MS));
  } catch (error) {
    deps.log.error('Billing portal session could not be created', { reason: String((error as DomainError).details?.reason ?? error) });
    if (error instanceof UpstreamUnavailableError) throw error;
    throw new UpstreamUnavailableError('billing_portal_failed', paymentMessages.portalFailed);
  }
}
