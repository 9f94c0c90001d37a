import { buttonClass } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { content } from '../../../config/content';
import { formatPlanPrice, getPlan, type Plan } from '../../../lib/catalogue';
import type { SubscriptionView } from '../../../lib/contracts';
import { CheckoutAlert } from '../../payments/components/checkout-alert';
import { useCheckout } from '../../payments/hooks/use-checkout';

/** SPEC §9 "Subscription page": the two monitoring plans and the two scan packs. */
const UPGRADE_PLAN_IDS = ['monitor-lite', 'monitor-plus', 'basic-scan', 'pro-scan'] as const;

const scansLine = (plan: Plan) =>
  plan.scansLimit === null ? null : plan.billing === 'monthly' ? `${plan.scansLimit} scans a month` : `${plan.scansLimit} scans`;

/** The monitoring plan the account pays for now, which is not offered again. */
function isCurrent(plan: Plan, subscription: SubscriptionView): boolean {
  return plan.kind === 'subscription' && subscription.billingPeriod === 'monthly' && subscription.status === 'active' && plan.tier === subscription.tier;
}

export function UpgradeOptions({ subscription }: { subscription: SubscriptionView }) {
  const { processingPlanId, error, startCheckout } = useCheckout();
  return (
    <>
      <CheckoutAlert message={error} className="mt-3" />
      <ul className="mt-3 grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        {UPGRADE_PLAN_IDS.map((planId) => {
          const plan = getPlan(planId);
          const current = isCurrent(plan, subscription);
          const processing = processingPlanId === planId;
          return (
            <li key={plan.id} data-testid={`upgrade-${plan.id}`} className="flex flex-col rounded-lg border border-slate-200 p-4 dark:border-slate-700">
              <h3 className="font-semibold">{plan.name}</h3>
              <p className="text-xl font-bold">{formatPlanPrice(plan)}</p>
              {scansLine(plan) && <p className="text-sm font-semibold text-slate-700 dark:text-slate-300">{scansLine(plan)}</p>}
              <p className="mt-1 flex-1 text-sm text-slate-600 dark:text-slate-400">{plan.summary}</p>
              <button
                type="button"
                onClick={() => startCheckout({ planId })}
                disabled={current || processingPlanId !== null}
                aria-busy={processing}
                className={`mt-3 ${buttonClass(current ? 'secondary' : 'primary')}`}
              >
                {processing ? (
                  <>
                    <Spinner className="size-4" />
                    {content.pricing.processing}
                  </>
                ) : current ? (
                  'Current plan'
                ) : (
                  `Choose ${plan.name}`
                )}
              </button>
            </li>
          );
        })}
      </ul>
    </>
  );
}
