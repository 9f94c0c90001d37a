import Stripe from 'stripe';
import { UpstreamUnavailableError } from '../domain/errors.js';
import { paymentMessages } from '../domain/payments.contract.js';
import type { CallBudget, CheckoutSessionInput, PaymentEvent, PaymentEvents, PaymentProvider } from '../domain/ports.js';

/** Where the Stripe library sends its requests: Stripe's API, or (tests) a loopback stand-in. */
export interface StripeEndpoint {
  host: string;
  port: number;
  protocol: 'http' | 'https';
}

/** Stripe's own signature tolerance (seconds), as Stripe's docs recommend. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/** A call without a budget: one attempt's timeout, and Stripe's own retries (idempotent by key). */
export const STRIPE_TIMEOUT_MS = 10_000;
export const STRIPE_MAX_NETWORK_RETRIES = 1;
/** A call given less than this of its budget is not started: it could not finish. */
export const STRIPE_MIN_ATTEMPT_MS = 1_000;
/** Kept for the pause before Stripe's retry (stripe-node waits ~0.5 s before its first). */
export const STRIPE_RETRY_PAUSE_MS = 1_000;

/**
 * What one call may take from what is left of its budget (issue 30 item 6): the retry only when two
 * attempts and the pause fit, each attempt's timeout its share; undefined when the call cannot start.
 */
export function attemptsWithin(remainingMs: number): { timeout: number; maxNetworkRetries: number } | undefined {
  if (remainingMs < STRIPE_MIN_ATTEMPT_MS) return undefined;
  const retries = remainingMs >= 2 * STRIPE_MIN_ATTEMPT_MS + STRIPE_RETRY_PAUSE_MS ? STRIPE_MAX_NETWORK_RETRIES : 0;
  const share = retries > 0 ? Math.floor((remainingMs - STRIPE_RETRY_PAUSE_MS) / (retries + 1)) : Math.floor(remainingMs);
  return { timeout: Math.min(STRIPE_TIMEOUT_MS, share), maxNetworkRetries: retries };
}

/** The Stripe client with the project's settings: a short timeout and Stripe's own retries (idempotent by key). */
export function createStripeClient(secretKey: string, endpoint?: StripeEndpoint): Stripe {
  return new Stripe(secretKey, {
    timeout: STRIPE_TIMEOUT_MS,
    maxNetworkRetries: STRIPE_MAX_NETWORK_RETRIES,
    appInfo: { name: 'Rampart' },
    ...(endpoint ? { host: endpoint.host, port: endpoint.port, protocol: endpoint.protocol } : {}),
  });
}

/**
 * Payments through Stripe: customers, Checkout Sessions priced from the plan catalogue with
 * `price_data` (no prices to create in the dashboard), and customer portal sessions. A Stripe
 * error becomes UpstreamUnavailableError: the handler answers 502 with the spec's message.
 */
export class StripePayments implements PaymentProvider {
  readonly kind = 'stripe' as const;

  constructor(private readonly stripe: Stripe) {}

  async createCustomer(user: { userId: string; email: string; name?: string }, budget?: CallBudget): Promise<{ customerId: string }> {
    const customer = await this.call(
      (options) =>
        this.stripe.customers.create(
          { email: user.email, ...(user.name ? { name: user.name } : {}), metadata: { userId: user.userId } },
          // One customer per user even when two checkouts race or a request is retried.
          { ...options, idempotencyKey: `customer-${user.userId}` },
        ),
      budget,
    );
    return { customerId: customer.id };
  }

  async createCheckoutSession(input: CheckoutSessionInput, budget?: CallBudget): Promise<{ sessionId: string; url: string }> {
    const metadata: Record<string, string> = { userId: input.userId, planId: input.plan.id, ...(input.auditId ? { auditId: input.auditId } : {}) };
    const session = await this.call((options) =>
      this.stripe.checkout.sessions.create({
        mode: input.mode,
        currency: input.currency,
        customer: input.customerId,
        client_reference_id: input.userId,
        metadata,
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: input.currency,
              unit_amount: input.amountCents,
              product_data: { name: input.plan.name, description: input.plan.summary, metadata: { planId: input.plan.id } },
              ...(input.mode === 'subscription' ? { recurring: { interval: 'month' as const } } : {}),
            },
          },
        ],
        // The subscription's own events (customer.subscription.*) carry who and what.
        ...(input.mode === 'subscription' ? { subscription_data: { metadata } } : { payment_intent_data: { metadata } }),
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
      }, options),
      budget,
    );
    if (!session.url) throw new UpstreamUnavailableError('checkout_failed', paymentMessages.checkoutFailed, { reason: 'Stripe answered without a checkout URL' });
    return { sessionId: session.id, url: session.url };
  }

  async createBillingPortalSession(input: { customerId: string; returnUrl: string }, budget?: CallBudget): Promise<{ url: string }> {
    const session = await this.call(
      (options) => this.stripe.billingPortal.sessions.create({ customer: input.customerId, return_url: input.returnUrl }, options),
      budget,
      'billing_portal_failed',
      paymentMessages.portalFailed,
    );
    return { url: session.url };
  }

  /**
   * Stripe's failure, whatever it was, is the spec's message to the customer; the reason goes to the
   * log. With a budget, the call takes its timeouts and retry from what is left (attemptsWithin), is
   * not started when too little is, and is given up when the budget ends whatever the socket does
   * (stripe-node's timeout is the socket's idle time, which a trickling answer would keep resetting).
   */
  private async call<T>(work: (options: Stripe.RequestOptions) => Promise<T>, budget?: CallBudget, code = 'checkout_failed', message: string = paymentMessages.checkoutFailed): Promise<T> {
    const failed = (reason: string) => new UpstreamUnavailableError(code, message, { reason });
    if (!budget) return this.settle(work({}), failed);
    const remaining = budget.remainingMs();
    const options = attemptsWithin(remaining);
    if (!options) throw failed(`Stripe not called: ${Math.max(0, Math.round(remaining))} ms left of the request's time budget`);
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(failed(`Stripe did not answer within the ${Math.round(remaining)} ms left of the request's time budget`)), remaining);
    });
    try {
      return await Promise.race([this.settle(work(options), failed), deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async settle<T>(pending: Promise<T>, failed: (reason: string) => UpstreamUnavailableError): Promise<T> {
    try {
      return await pending;
    } catch (error) {
      const stripeError = error as { type?: string; message?: string };
      throw failed(`${stripeError.type ?? 'error'}: ${stripeError.message ?? String(error)}`);
    }
  }
}

/**
 * Webhook signatures, checked by Stripe's own library over the raw body (300 s tolerance). The same
 * for Stripe and for the local test checkout, which signs its events with the local secret.
 */
export function stripeWebhookEvents(webhookSecret: string | undefined): PaymentEvents {
  return {
    verify(rawBody, signatureHeader) {
      if (!webhookSecret) throw new Error('No webhook secret is configured');
      if (!signatureHeader) throw new Error('No Stripe-Signature header');
      const event = Stripe.webhooks.constructEvent(rawBody, signatureHeader, webhookSecret, WEBHOOK_TOLERANCE_SECONDS);
      return event as unknown as PaymentEvent;
    },
  };
}
