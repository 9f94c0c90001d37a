import { LocalPayments } from '../adapters/local-payments.adapter.js';
import { createStripeClient, StripePayments, stripeWebhookEvents } from '../adapters/stripe-payments.adapter.js';
import { paymentsSettings, required } from '../config.js';
import { UpstreamUnavailableError } from '../domain/errors.js';
import { paymentMessages } from '../domain/payments.contract.js';
import type { PaymentProvider } from '../domain/ports.js';
import { documentClient } from './aws.js';
import type { Provider } from './core.js';

/** Stripe, or the local test checkout without a key (README "Plans and payments"), and webhook signature checks. */
export const provide: Provider = ({ config, clock }) => ({
  payments: (): PaymentProvider => {
    switch (paymentsSettings(config).mode) {
      case 'stripe':
        return new StripePayments(createStripeClient(required(config, 'STRIPE_SECRET_KEY')));
      case 'local':
        return new LocalPayments(documentClient(config), required(config, 'TABLE_NAME'), config.SITE_URL, clock);
      case 'off':
        return paymentsOff;
    }
  },
  paymentEvents: () => stripeWebhookEvents(paymentsSettings(config).webhookSecret),
});

/** A deployment without Stripe keys (PAYMENTS_MODE=off): checkout answers the spec's failure message. */
const paymentsOff: PaymentProvider = {
  kind: 'stripe',
  createCustomer: () => Promise.reject(notConfigured()),
  createCheckoutSession: () => Promise.reject(notConfigured()),
  createBillingPortalSession: () => Promise.reject(notConfigured()),
};

function notConfigured() {
  return new UpstreamUnavailableError('checkout_failed', paymentMessages.checkoutFailed, { reason: 'No Stripe keys are configured (PAYMENTS_MODE=off)' });
}
