import * as z from 'zod';
import { auditIdSchema } from './audit.js';
import type { SubscriptionView } from './account.contract.js';
import { planIds, type PlanId } from './plans.js';

/**
 * Payments' contracts (SPEC §2 payment pages, §3 order record, §6, §7 checkout; issue 8), shared by
 * the API handlers and the frontend. Amounts are in minor units (cents) and currencies lower case,
 * as Stripe carries them.
 */

export const paymentMessages = {
  /** SPEC §8: the checkout call failed. */
  checkoutFailed: 'Failed to create checkout session',
  /** SPEC §8: the pricing section's alert. */
  startFailed: 'Failed to start checkout. Please try again.',
  /** DECISIONS "Checkout UI": the payment failure screen. */
  processingErrorTitle: 'Payment Processing Error',
  processingErrorText: 'Failed to process payment. Please contact support.',
  invalidSession: 'Invalid payment session',
  planNotForSale: 'This plan cannot be bought.',
  auditRequired: 'Choose the audit to upgrade: a paid audit deepens one of your free reports.',
  auditWithoutIssues: 'This report found no issues, so there is nothing a paid audit would add.',
  auditNotCompleted: 'This report is still being prepared. A paid audit can be bought once it has finished.',
  auditNotYours: 'This report belongs to another account.',
  /** DECISIONS "Scan modes": a paid audit's deep scan probes the site, so the buyer proves control of its domain first. */
  domainNotVerified: 'Verify that you control this site’s domain first (Dashboard → Domains): a paid audit’s deep scan probes the site, which needs proof of control. No payment is taken until then.',
  auditPlanOnly: 'Only a paid audit is bought for a report.',
  orderNotFound: 'Order not found',
  orderPending: 'The payment is still being confirmed.',
  noCustomer: 'There is no billing account yet: it is created with your first purchase.',
  portalFailed: 'Could not open the billing portal. Please try again.',
} as const;

/** Plans a checkout can sell: everything but the trial. */
export const purchasablePlanIds = planIds.filter((id): id is Exclude<PlanId, 'trial'> => id !== 'trial');

/** `POST /api/checkout-sessions`: a plan, and for an audit plan the free audit it deepens. */
export const checkoutRequestSchema = z.strictObject({
  planId: z.enum(purchasablePlanIds as [Exclude<PlanId, 'trial'>, ...Exclude<PlanId, 'trial'>[]], { error: paymentMessages.planNotForSale }),
  auditId: auditIdSchema.optional(),
});
export type CheckoutRequest = z.output<typeof checkoutRequestSchema>;

/** 201 answer: where to send the browser (Stripe Checkout, or the local test checkout). */
export interface CheckoutSessionResponse {
  url: string;
  sessionId: string;
}

/** `GET /api/orders/{checkoutSessionId}` (public: the session id is the secret, as in the spec). */
export interface OrderView {
  /** SPEC §9: the first 16 characters of the session id. */
  orderId: string;
  checkoutSessionId: string;
  planId: PlanId;
  planName: string;
  /** Minor units. */
  amountTotal: number;
  currency: string;
  /** ISO date-time the payment completed. */
  orderDate: string;
  status: 'paid' | 'pending';
  /** The audit an audit purchase unlocked: in the signed-in buyer's billing list only, never in the public order lookup (issue 28 finding 11). */
  auditId?: string;
  /** A receipt PDF Rampart renders (`GET /api/orders/{id}/receipt.pdf`). */
  receiptUrl: string;
}

/** One invoice of a subscription, as the billing history lists it. */
export interface InvoiceView {
  id: string;
  date: string;
  amountCents: number;
  currency: string;
  status: 'paid' | 'open' | 'failed';
  description: string;
  /** Stripe's hosted invoice page, or Rampart's receipt for local test payments. */
  receiptUrl?: string;
}

/** `GET /api/me/billing`: the subscription page's data. */
export interface BillingView {
  subscription: SubscriptionView;
  invoices: InvoiceView[];
  /** Orders of one-off plans (audits, scan packs), newest first. */
  orders: OrderView[];
  /** A customer record exists, so Manage Billing can open the portal. */
  canManageBilling: boolean;
  /** DECISIONS / SPEC §6: subscribers get an automatic discount on audits (percent). */
  subscriberAuditDiscountPercent: number;
}

/** `POST /api/me/billing-portal` answer. */
export interface BillingPortalResponse {
  url: string;
}
