import { getPlan, plans } from '../../../lib/catalogue';
import type { SubscriptionView } from '../../../lib/contracts';

/**
 * The plan box's name, from the plan catalogue: the trial is its own plan to the customer, whatever
 * tier it grants; a monthly subscription is the monitoring plan of its tier.
 */
export function planName(subscription: SubscriptionView): string {
  const trial = getPlan('trial');
  if (subscription.billingPeriod === 'trial') return trial.name;
  return plans.find((plan) => plan.kind === 'subscription' && plan.tier === subscription.tier)?.name ?? trial.name;
}

/** SPEC's usage colours: over 80% red, over 60% yellow. */
export function usageTone(used: number, limit: number): 'ok' | 'warn' | 'high' {
  const share = limit > 0 ? used / limit : 1;
  return share > 0.8 ? 'high' : share > 0.6 ? 'warn' : 'ok';
}

/** The plan box's second word: days left of a trial, else the subscription's status. */
export function planStatusLabel(subscription: SubscriptionView, now = Date.now()): string {
  if (subscription.billingPeriod !== 'trial' || subscription.status !== 'trial') return subscription.status;
  const days = Math.ceil((Date.parse(subscription.endDate) - now) / 86_400_000);
  return days <= 0 ? 'ends today' : `${days} ${days === 1 ? 'day' : 'days'} left`;
}
