/**
 * The local test checkout and customer portal (DECISIONS "Local customer portal"; README "Plans and
 * payments"): without a Stripe key, checkout sessions lead here. Pay builds the Stripe-format events
 * Stripe would send (checkout.session.completed; for subscriptions also customer.subscription.created
 * and invoice.paid), signs each with the local webhook secret using Stripe's own test-header helper,
 * and POSTs them over HTTP to the real webhook route — the same handler as production. The portal
 * changes or cancels the subscription with signed customer.subscription.updated / .deleted events.
 * Server-rendered HTML with plain forms: the site's CSP (no inline script or style) applies.
 * Local only: this module is never bundled for AWS.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import Stripe from 'stripe';
import { type LocalCheckoutSession, LocalPayments, type LocalSubscription } from '../../lambdas/adapters/local-payments.adapter.js';
import type { Deps } from '../../lambdas/composition.js';
import { paymentsSettings } from '../../lambdas/config.js';
import { receiptPath } from '../../lambdas/domain/payments.js';
import { formatMoney, formatPlanPrice, getPlan } from '../../lambdas/domain/plans.js';

export const LOCAL_CHECKOUT_LABEL = 'Local test checkout — no real payment is taken';
export const LOCAL_PORTAL_LABEL = 'Local test billing portal — no real payment is taken';

type Send = (res: ServerResponse, status: number, headers: Record<string, string>, body?: string) => void;

export interface LocalPaymentPages {
  /** Answers `/_local/checkout/…` and `/_local/billing-portal/…`; false for any other path. */
  handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean>;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const epoch = (date: Date) => Math.floor(date.getTime() / 1000);
const addMonth = (seconds: number) => {
  const date = new Date(seconds * 1000);
  date.setUTCMonth(date.getUTCMonth() + 1);
  return epoch(date);
};

function page(title: string, label: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title><link rel="icon" href="/favicon.svg"></head>
<body><main><p><strong>${escapeHtml(label)}</strong></p><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
}

/** A Stripe event envelope around an object, as the webhook receives it. */
function stripeEvent(id: string, type: string, created: number, object: Record<string, unknown>) {
  return { id, object: 'event', api_version: Stripe.API_VERSION, created, livemode: false, pending_webhooks: 1, request: { id: null, idempotency_key: null }, type, data: { object } };
}

function subscriptionObject(subscription: LocalSubscription, created: number, metadataPlanId: string) {
  const plan = getPlan(subscription.planId);
  return {
    id: subscription.id,
    object: 'subscription',
    customer: subscription.customerId,
    status: subscription.status,
    created,
    start_date: subscription.periodStart,
    cancel_at_period_end: false,
    ...(subscription.status === 'canceled' ? { canceled_at: created, ended_at: created } : {}),
    currency: plan.currency,
    // Stripe keeps the checkout's metadata; a portal plan change moves the price, not the metadata.
    metadata: { userId: subscription.userId, planId: metadataPlanId },
    items: {
      object: 'list',
      data: [
        {
          id: `si_local_${subscription.id.slice(10)}`,
          object: 'subscription_item',
          quantity: 1,
          current_period_start: subscription.periodStart,
          current_period_end: subscription.periodEnd,
          price: {
            id: `price_local_${plan.id.replace(/-/g, '_')}`,
            object: 'price',
            currency: plan.currency,
            unit_amount: plan.amountCents,
            lookup_key: plan.id,
            recurring: { interval: 'month', interval_count: 1 },
            type: 'recurring',
          },
        },
      ],
    },
  };
}

export function localPaymentPages(deps: Deps, selfUrl: () => string, send: Send): LocalPaymentPages {
  const local = () => (deps.payments instanceof LocalPayments ? deps.payments : undefined);
  const html = (res: ServerResponse, status: number, body: string) => send(res, status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }, body);
  const redirect = (res: ServerResponse, location: string) => send(res, 303, { location, 'cache-control': 'no-store' });

  /** Signs each event with the local secret and delivers it to the real webhook route, in order. */
  async function deliver(events: ReturnType<typeof stripeEvent>[]): Promise<void> {
    const secret = paymentsSettings(deps.config).webhookSecret!;
    for (const event of events) {
      const payload = JSON.stringify(event);
      const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret });
      const response = await fetch(`${selfUrl()}/api/stripe/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        body: payload,
      });
      if (!response.ok) throw new Error(`The webhook answered ${response.status} to ${event.type}: ${await response.text()}`);
    }
  }

  async function checkoutPage(res: ServerResponse, store: LocalPayments, id: string) {
    const session = await store.get('session', id);
    if (!session) return html(res, 404, page('Checkout not found', LOCAL_CHECKOUT_LABEL, '<p>This checkout session does not exist or has expired.</p>'));
    const plan = getPlan(session.planId);
    const amount = formatMoney(session.amountCents, session.currency) + (session.mode === 'subscription' ? '/month' : '');
    const discount = session.amountCents < plan.amountCents ? `<p>Subscriber discount applied (list price ${escapeHtml(formatPlanPrice(plan))}).</p>` : '';
    const done = session.status === 'complete' ? '<p>This checkout has been paid already.</p>' : '';
    html(
      res,
      200,
      page(
        `Pay for ${session.planName}`,
        LOCAL_CHECKOUT_LABEL,
        `<dl><dt>Plan</dt><dd>${escapeHtml(session.planName)}</dd><dt>Amount</dt><dd>${escapeHtml(amount)}</dd>` +
          `${session.auditId ? `<dt>Report</dt><dd>${escapeHtml(session.auditId)}</dd>` : ''}</dl>${discount}${done}` +
          `<form method="post" action="/_local/checkout/${escapeHtml(id)}/pay"><button type="submit">Pay</button></form>` +
          `<form method="post" action="/_local/checkout/${escapeHtml(id)}/cancel"><button type="submit">Cancel</button></form>`,
      ),
    );
  }

  async function pay(res: ServerResponse, store: LocalPayments, session: LocalCheckoutSession) {
    // A second Pay (a double click, the back button) pays nothing more.
    if (!(await store.completeSession(session.id))) return redirect(res, session.successUrl);
    const now = epoch(new Date());
    const metadata = { userId: session.userId, planId: session.planId, ...(session.auditId ? { auditId: session.auditId } : {}) };
    let subscription: LocalSubscription | undefined;
    if (session.mode === 'subscription' && (session.planId === 'monitor-lite' || session.planId === 'monitor-plus')) {
      subscription = { kind: 'subscription', id: store.newId('sub'), customerId: session.customerId, userId: session.userId, planId: session.planId, status: 'active', periodStart: now, periodEnd: addMonth(now) };
      await store.put(subscription);
      await store.put({ kind: 'customer', id: session.customerId, userId: session.userId, subscriptionId: subscription.id });
    }
    const completed = stripeEvent(store.newId('evt'), 'checkout.session.completed', now, {
      id: session.id,
      object: 'checkout.session',
      mode: session.mode,
      status: 'complete',
      payment_status: 'paid',
      amount_subtotal: session.amountCents,
      amount_total: session.amountCents,
      currency: session.currency,
      customer: session.customerId,
      client_reference_id: session.userId,
      metadata,
      payment_intent: session.mode === 'payment' ? store.newId('pi') : null,
      subscription: subscription?.id ?? null,
      success_url: session.successUrl,
      cancel_url: session.cancelUrl,
      created: epoch(new Date(session.createdAt)),
      livemode: false,
    });
    const events = [completed];
    if (subscription) {
      events.push(stripeEvent(store.newId('evt'), 'customer.subscription.created', now, subscriptionObject(subscription, now, session.planId)));
      events.push(
        stripeEvent(store.newId('evt'), 'invoice.paid', now, {
          id: store.newId('in'),
          object: 'invoice',
          customer: session.customerId,
          status: 'paid',
          currency: session.currency,
          amount_due: session.amountCents,
          amount_paid: session.amountCents,
          total: session.amountCents,
          created: now,
          period_start: now,
          period_end: now,
          billing_reason: 'subscription_create',
          hosted_invoice_url: `${deps.config.SITE_URL.replace(/\/+$/, '')}${receiptPath(session.id)}`,
          parent: { type: 'subscription_details', subscription_details: { subscription: subscription.id, metadata } },
          lines: {
            object: 'list',
            data: [
              {
                id: `il_local_${subscription.id.slice(10)}`,
                object: 'line_item',
                amount: session.amountCents,
                currency: session.currency,
                period: { start: subscription.periodStart, end: subscription.periodEnd },
                pricing: { type: 'price_details', price_details: { price: `price_local_${session.planId.replace(/-/g, '_')}`, product: `prod_local_${session.planId.replace(/-/g, '_')}` } },
              },
            ],
          },
        }),
      );
    }
    await deliver(events);
    redirect(res, session.successUrl);
  }

  async function portalPage(res: ServerResponse, store: LocalPayments, id: string) {
    const portal = await store.get('portal', id);
    if (!portal) return html(res, 404, page('Billing portal session not found', LOCAL_PORTAL_LABEL, '<p>This portal link does not exist or has expired. Open it again from your subscription page.</p>'));
    const customer = await store.get('customer', portal.customerId);
    const subscription = customer?.subscriptionId ? await store.get('subscription', customer.subscriptionId) : undefined;
    const back = `<p><a href="${escapeHtml(portal.returnUrl)}">Back to your subscription</a></p>`;
    if (!subscription || subscription.status === 'canceled') {
      return html(res, 200, page('Your subscription', LOCAL_PORTAL_LABEL, `<p>You have no active subscription.</p>${back}`));
    }
    const plan = getPlan(subscription.planId);
    const other = getPlan(subscription.planId === 'monitor-lite' ? 'monitor-plus' : 'monitor-lite');
    const renews = new Date(subscription.periodEnd * 1000).toISOString().slice(0, 10);
    html(
      res,
      200,
      page(
        'Your subscription',
        LOCAL_PORTAL_LABEL,
        `<dl><dt>Plan</dt><dd>${escapeHtml(plan.name)} (${escapeHtml(formatPlanPrice(plan))})</dd><dt>Status</dt><dd>Active</dd><dt>Renews</dt><dd>${renews}</dd></dl>` +
          `<form method="post" action="/_local/billing-portal/${escapeHtml(id)}/change"><input type="hidden" name="planId" value="${other.id}">` +
          `<button type="submit">Change plan to ${escapeHtml(other.name)} (${escapeHtml(formatPlanPrice(other))})</button></form>` +
          `<form method="post" action="/_local/billing-portal/${escapeHtml(id)}/cancel"><button type="submit">Cancel subscription</button></form>${back}`,
      ),
    );
  }

  async function portalAction(req: IncomingMessage, res: ServerResponse, store: LocalPayments, id: string, action: 'change' | 'cancel') {
    const portal = await store.get('portal', id);
    const customer = portal ? await store.get('customer', portal.customerId) : undefined;
    const current = customer?.subscriptionId ? await store.get('subscription', customer.subscriptionId) : undefined;
    if (!portal || !current || current.status === 'canceled') return redirect(res, `/_local/billing-portal/${id}`);
    const now = epoch(new Date());
    const metadataPlanId = current.planId;
    let next: LocalSubscription;
    if (action === 'change') {
      const form = new URLSearchParams(await readText(req));
      const planId = form.get('planId');
      if (planId !== 'monitor-lite' && planId !== 'monitor-plus') return html(res, 400, page('Unknown plan', LOCAL_PORTAL_LABEL, '<p>Choose Monitor Lite or Monitor Plus.</p>'));
      next = { ...current, planId };
    } else {
      next = { ...current, status: 'canceled' };
    }
    await store.put(next);
    const type = action === 'change' ? 'customer.subscription.updated' : 'customer.subscription.deleted';
    await deliver([stripeEvent(store.newId('evt'), type, now, subscriptionObject(next, now, metadataPlanId))]);
    redirect(res, `/_local/billing-portal/${id}`);
  }

  return {
    async handle(req, res, url) {
      const checkout = /^\/_local\/checkout\/([A-Za-z0-9_]+)(?:\/(pay|cancel))?$/.exec(url.pathname);
      const portal = /^\/_local\/billing-portal\/([A-Za-z0-9_]+)(?:\/(change|cancel))?$/.exec(url.pathname);
      if (!checkout && !portal) return false;
      const store = local();
      if (!store) {
        html(res, 404, page('Not available', LOCAL_CHECKOUT_LABEL, '<p>Stripe is configured: payments go through Stripe, not the local test checkout.</p>'));
        return true;
      }
      const method = req.method ?? 'GET';
      const [, id, action] = (checkout ?? portal)!;
      if (!action && method !== 'GET') {
        send(res, 405, { allow: 'GET', 'content-type': 'text/plain; charset=utf-8' }, 'Method not allowed');
        return true;
      }
      if (action && method !== 'POST') {
        send(res, 405, { allow: 'POST', 'content-type': 'text/plain; charset=utf-8' }, 'Method not allowed');
        return true;
      }
      if (checkout) {
        if (!action) await checkoutPage(res, store, id!);
        else {
          const session = await store.get('session', id!);
          if (!session) html(res, 404, page('Checkout not found', LOCAL_CHECKOUT_LABEL, '<p>This checkout session does not exist or has expired.</p>'));
          else if (action === 'cancel') redirect(res, session.cancelUrl);
          else await pay(res, store, session);
        }
      } else if (!action) await portalPage(res, store, id!);
      else await portalAction(req, res, store, id!, action as 'change' | 'cancel');
      return true;
    },
  };
}

async function readText(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 4096) break;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
