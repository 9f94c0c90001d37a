import type { SubscriptionStatus } from './account.contract.js';
import type { OrderView } from './payments.contract.js';
import { AUDIT_BADGE_ELIGIBILITY_DAYS, getPlan, type Plan, type PlanId, plans } from './plans.js';

/**
 * Payments' rules, pure (SPEC §2 payment pages, §3 order record, §6/§7 checkout; DECISIONS
 * "Subscription states", "What paid audits add"). No Stripe types here: webhook payloads are read
 * field by field by the use case, and these functions take plain values.
 */

/**
 * SPEC §6 "subscribers get an automatic discount on audits": 20% off the Basic and Pro Audits while
 * the account has an active monthly subscription. Twenty per cent because it is one clear number a
 * banner can state, it keeps an audit above two months of Monitor Plus (A$399 → A$319.20), and a
 * subscriber buying one audit a year still pays for the scans it runs.
 */
export const SUBSCRIBER_AUDIT_DISCOUNT_PERCENT = 20;

/** What a checkout charges for a plan: audits lose the subscriber discount when it applies. */
export function checkoutAmount(plan: Plan, subscriberDiscount: boolean): { amountCents: number; discountPercent: number } {
  if (plan.kind !== 'audit' || !subscriberDiscount) return { amountCents: plan.amountCents, discountPercent: 0 };
  return {
    amountCents: Math.round((plan.amountCents * (100 - SUBSCRIBER_AUDIT_DISCOUNT_PERCENT)) / 100),
    discountPercent: SUBSCRIBER_AUDIT_DISCOUNT_PERCENT,
  };
}

/** SPEC §9: the order id shown to the customer is the first 16 characters of the checkout session id. */
export const orderIdOf = (checkoutSessionId: string): string => checkoutSessionId.slice(0, 16);

/** Stripe's `cs_test_…` / `cs_live_…`, and the local test checkout's `cs_local_…`; at most 255 characters. */
export const CHECKOUT_SESSION_ID_PATTERN = /^cs_(test|live|local)_[A-Za-z0-9_]{1,246}$/;

export const isCheckoutSessionId = (value: unknown): value is string => typeof value === 'string' && CHECKOUT_SESSION_ID_PATTERN.test(value);

/** DECISIONS "Subscription states": Stripe's subscription status → Rampart's. */
export function subscriptionStatusOf(stripeStatus: string | undefined): SubscriptionStatus {
  switch (stripeStatus) {
    case 'active':
      return 'active';
    case 'trialing':
      return 'trial';
    case 'past_due':
    case 'unpaid':
      return 'expired';
    case 'canceled':
      return 'cancelled';
    default:
      return 'inactive';
  }
}

export type SubscriptionPlanId = Extract<PlanId, 'monitor-lite' | 'monitor-plus'>;

const isSubscriptionPlanId = (id: unknown): id is SubscriptionPlanId => id === 'monitor-lite' || id === 'monitor-plus';

/** The price of a subscription item as a webhook carries it. */
export interface PriceFacts {
  lookupKey?: string | null;
  metadataPlanId?: string;
  unitAmount?: number | null;
  currency?: string;
  interval?: string;
}

/**
 * Which monthly plan a subscription is on. The price's lookup key or metadata names it when the
 * price was made in the dashboard (as the customer portal's plan switching needs); a price Checkout
 * made from `price_data` is matched by amount, currency and interval against the catalogue; last,
 * the subscription's own metadata from checkout (which a portal plan change does not update).
 */
export function subscriptionPlanOf(price: PriceFacts | undefined, subscriptionMetadataPlanId: string | undefined): SubscriptionPlanId | undefined {
  if (isSubscriptionPlanId(price?.lookupKey)) return price.lookupKey;
  if (isSubscriptionPlanId(price?.metadataPlanId)) return price.metadataPlanId;
  if (price && typeof price.unitAmount === 'number') {
    const match = plans.find(
      (plan) =>
        plan.kind === 'subscription' &&
        plan.amountCents === price.unitAmount &&
        plan.currency === (price.currency ?? '').toLowerCase() &&
        (price.interval === undefined || price.interval === 'month'),
    );
    if (match && isSubscriptionPlanId(match.id)) return match.id;
  }
  return isSubscriptionPlanId(subscriptionMetadataPlanId) ? subscriptionMetadataPlanId : undefined;
}

/** Until when a paid audit makes the domain's badge eligible (DECISIONS: Basic 30 days, Pro 90). */
export function badgeEligibleUntil(planId: 'basic-audit' | 'pro-audit', paidAt: Date): string {
  return new Date(paidAt.getTime() + AUDIT_BADGE_ELIGIBILITY_DAYS[planId] * 86_400_000).toISOString();
}

/** An order as stored: created pending with the checkout session, paid by the webhook. */
export interface StoredOrder {
  checkoutSessionId: string;
  userId: string;
  planId: Exclude<PlanId, 'trial'>;
  auditId?: string;
  /** Minor units: what the session charges (after any discount), then what Stripe says was paid. */
  amountTotal: number;
  currency: string;
  status: 'pending' | 'paid';
  createdAt: string;
  /** When the payment completed (the webhook's event time). */
  orderDate?: string;
  customerId?: string;
  subscriptionId?: string;
  discountPercent?: number;
}

export const receiptPath = (checkoutSessionId: string) => `/api/orders/${encodeURIComponent(checkoutSessionId)}/receipt.pdf`;

export function orderView(order: StoredOrder): OrderView {
  return {
    orderId: orderIdOf(order.checkoutSessionId),
    checkoutSessionId: order.checkoutSessionId,
    planId: order.planId,
    planName: getPlan(order.planId).name,
    amountTotal: order.amountTotal,
    currency: order.currency,
    orderDate: order.orderDate ?? order.createdAt,
    status: order.status,
    ...(order.auditId ? { auditId: order.auditId } : {}),
    receiptUrl: receiptPath(order.checkoutSessionId),
  };
}

/** An invoice of a subscription as stored (`invoice.paid`, `invoice.payment_failed`). */
export interface StoredInvoice {
  invoiceId: string;
  userId: string;
  subscriptionId?: string;
  planId?: SubscriptionPlanId;
  amountCents: number;
  currency: string;
  status: 'paid' | 'open' | 'failed';
  /** The invoice's own creation time. */
  date: string;
  periodStart?: string;
  periodEnd?: string;
  hostedInvoiceUrl?: string;
}
