import Stripe from 'stripe';
import { UpstreamUnavailableError } from '../domain/errors.js';
import { paymentMessages } from '../domain/payments.contract.js';
import type { CheckoutSessionInput, PaymentEvent, PaymentEvents, PaymentProvider } from '../domain/ports.js';

/** Where the Stripe library sends its requests: Stripe's API, or (tests) a loopback stand-in. */
export interface StripeEndpoint {
  host: string;
  port: number;
  protocol: 'http' | 'https';
}

/** Stripe's own signature tolerance (seconds), as Stripe's docs recommend. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/** The Stripe client with the project's settings: a short timeout and Stripe's own retries (idempotent by key). */
export function createStripeClient(secretKey: string, endpoint?: StripeEndpoint): Stripe {
  return new Stripe(secretKey, {
    timeout: 10_000,
    maxNetworkRetries: 1,
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

  async createCustomer(user: { userId: string; email: string; name?: string }): Promise<{ customerId: string }> {
    const customer = await this.call(() =>
      this.stripe.customers.create(
        { email: user.email, ...(user.name ? { name: user.name } : {}), metadata: { userId: user.userId } },
        // One customer per user even when two checkouts race or a request is retried.
        { idempotencyKey: `customer-${user.userId}` },
      ),
    );
    return { customerId: customer.id };
  }

  async createCheckoutSession(input: CheckoutSessionInput): Promise<{ sessionId: string; url: string }> {
    const metadata: Record<string, string> = { userId: input.userId, planId: input.plan.id, ...(input.auditId ? { auditId: input.auditId } : {}) };
    const session = await this.call(() =>
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
      }),
    );
    if (!session.url) throw new UpstreamUnavailableError('checkout_failed', paymentMessages.checkoutFailed, { reason: 'Stripe answered without a checkout URL' });
    return { sessionId: session.id, url: session.url };
  }

  async createBillingPortalSession(input: { customerId: string; returnUrl: string }): Promise<{ url: string }> {
    const session = await this.call(
      () => this.stripe.billingPortal.sessions.create({ customer: input.customerId, return_url: input.returnUrl }),
      'billing_portal_failed',
      paymentMessages.portalFailed,
    );
    return { url: session.url };
  }

  /** Stripe's failure, whatever it was, is the spec's message to the customer; the reason goes to the log. */
  private async call<T>(work: () => Promise<T>, code = 'checkout_failed', message: string = paymentMessages.checkoutFailed): Promise<T> {
    try {
      return await work();
    } catch (error) {
      const stripeError = error as { type?: string; message?: string };
      throw new UpstreamUnavailableError(code, message, { reason: `${stripeError.type ?? 'error'}: ${stripeError.message ?? String(error)}` });
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
