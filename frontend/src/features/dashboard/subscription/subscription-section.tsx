import { Link } from 'react-router';
import { buttonClass } from '../../../components/ui/button';
import { content } from '../../../config/content';
import { formatPlanPrice, getPlan } from '../../../lib/catalogue';
import { useMe } from '../../account/api/account';
import { planName, usageTone } from '../layout/plan';

const card = 'rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-700 dark:bg-slate-900';
const barTones = { ok: 'bg-blue-600', warn: 'bg-yellow-500', high: 'bg-red-600' } as const;
const longDate = (iso: string) => new Date(iso).toLocaleDateString('en-AU', { day: 'numeric', month: 'long', year: 'numeric' });

/** SPEC §2 "Subscription page" from the account's real subscription; billing arrives with payments. */
export function SubscriptionSection() {
  const me = useMe();
  if (me.isPending) return <p role="status">Loading your subscription…</p>;
  if (me.isError) return <p role="alert">Your subscription could not be loaded: {me.error.message}</p>;
  const { subscription } = me.data;
  const tone = usageTone(subscription.scansUsed, subscription.scansLimit);
  const percent = Math.min(100, Math.round((subscription.scansUsed / Math.max(1, subscription.scansLimit)) * 100));
  const upgrades = (['monitor-lite', 'monitor-plus'] as const).map((id) => getPlan(id));

  return (
    <div className="space-y-6">
      <title>{`Subscription — ${content.productName}`}</title>
      <h1 className="text-2xl font-bold">Subscription</h1>
      <section className={card} aria-labelledby="current-plan">
        <h2 id="current-plan" className="text-lg font-semibold">
          Current plan
        </h2>
        <p className="mt-2 text-2xl font-bold">{planName(subscription)}</p>
        <p className="text-sm text-slate-600 capitalize dark:text-slate-400">{subscription.status}</p>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          {longDate(subscription.startDate)} – {longDate(subscription.endDate)}
        </p>
        <div className="mt-4">
          <p className="text-sm font-semibold">
            {subscription.scansUsed} / {subscription.scansLimit} scans used
          </p>
          <div className="mt-1 h-3 rounded-full bg-slate-200 dark:bg-slate-700">
            <div className={`h-3 rounded-full ${barTones[tone]}`} style={{ width: `${percent}%` }} data-tone={tone} />
          </div>
          {tone === 'high' && (
            <p role="alert" className="mt-2 text-sm font-semibold text-red-700 dark:text-red-400">
              You are running low on scans. Upgrade your plan to keep scanning.
            </p>
          )}
        </div>
      </section>
      <section className={card} aria-labelledby="upgrade-options">
        <h2 id="upgrade-options" className="text-lg font-semibold">
          Upgrade options
        </h2>
        <ul className="mt-3 grid gap-4 sm:grid-cols-2">
          {upgrades.map((plan) => (
            <li key={plan.id} className="rounded-lg border border-slate-200 p-4 dark:border-slate-700">
              <p className="font-semibold">{plan.name}</p>
              <p className="text-xl font-bold">{formatPlanPrice(plan)}</p>
              <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{plan.summary}</p>
              <Link to="/#pricing" className={`mt-3 ${buttonClass('secondary')}`}>
                Choose {plan.name}
              </Link>
            </li>
          ))}
        </ul>
      </section>
      <section className={card} aria-labelledby="billing-history">
        <h2 id="billing-history" className="text-lg font-semibold">
          Billing history
        </h2>
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">No invoices yet. Invoices appear here once you buy a plan.</p>
      </section>
    </div>
  );
}
