import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { content } from '../../../config/content';
import { ApiError } from '../../../lib/api-client';
import { paymentMessages, type BillingView } from '../../../lib/contracts';
import { useMe, useOrgRole } from '../../account/api/account';
import { planName, planStatusLabel, usageTone } from '../layout/plan';
import { useBilling, useBillingPortal } from './api/billing';
import { BillingHistory } from './billing-history';
import { MonthlyReports } from './monthly-reports';
import { UpgradeOptions } from './upgrade-options';

const card = 'rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-700 dark:bg-slate-900';
const barTones = { ok: 'bg-blue-600', warn: 'bg-yellow-500', high: 'bg-red-600' } as const;
const longDate = (iso: string) => new Date(iso).toLocaleDateString('en-AU', { day: 'numeric', month: 'long', year: 'numeric' });

/** Manage Billing opens the customer portal; without a customer record there is nothing to manage yet. */
function ManageBilling({ canManageBilling }: { canManageBilling: boolean }) {
  const portal = useBillingPortal();
  const opening = portal.isPending || portal.isSuccess;
  // 409: no customer yet, which the API explains; anything else is the contract's one message.
  const failure = !portal.error
    ? null
    : portal.error instanceof ApiError && portal.error.status === 409
      ? portal.error.message
      : paymentMessages.portalFailed;
  return (
    <div className="mt-4">
      <Button
        variant="secondary"
        onClick={() => portal.mutate()}
        disabled={!canManageBilling || opening}
        aria-busy={opening}
        aria-describedby={canManageBilling ? undefined : 'manage-billing-note'}
      >
        {opening && <Spinner className="size-4" />}
        Manage Billing
      </Button>
      {!canManageBilling && (
        <p id="manage-billing-note" className="mt-2 text-sm text-slate-600 dark:text-slate-400">
          Billing management opens once you have bought a plan: there are no payment details or invoices to manage yet.
        </p>
      )}
      {failure && (
        <p role="alert" className="mt-2 text-sm font-semibold text-red-700 dark:text-red-400">
          {failure}
        </p>
      )}
    </div>
  );
}

function CurrentPlan({ billing }: { billing: BillingView }) {
  const { subscription } = billing;
  const tone = usageTone(subscription.scansUsed, subscription.scansLimit);
  const percent = Math.min(100, Math.round((subscription.scansUsed / Math.max(1, subscription.scansLimit)) * 100));
  const subscriber = subscription.billingPeriod === 'monthly' && subscription.status === 'active';
  return (
    <section className={card} aria-labelledby="current-plan">
      <h2 id="current-plan" className="text-lg font-semibold">
        Current plan
      </h2>
      <p className="mt-2 text-2xl font-bold">{planName(subscription)}</p>
      <p data-testid="subscription-status" className="text-sm text-slate-600 capitalize dark:text-slate-400">
        {subscription.status}
      </p>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        {longDate(subscription.startDate)} – {longDate(subscription.endDate)}
      </p>
      {subscriber && billing.subscriberAuditDiscountPercent > 0 && (
        <p className="mt-2 text-sm text-blue-900 dark:text-blue-200">
          As a subscriber you get {billing.subscriberAuditDiscountPercent}% off paid audits, applied at checkout.
        </p>
      )}
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
      <ManageBilling canManageBilling={billing.canManageBilling} />
    </section>
  );
}

/** SPEC §2 "Subscription page" from `GET /api/me/billing`: plan, usage, upgrades, billing history, the portal. */
export function SubscriptionSection() {
  // Teams: billing stays with the organisation's owner; members see its plan and monthly reports.
  return useOrgRole() === 'owner' ? <OwnerSubscription /> : <MemberSubscription />;
}

function MemberSubscription() {
  const subscription = useMe().data?.subscription;
  return (
    <div className="space-y-6">
      <title>{`Subscription — ${content.productName}`}</title>
      <h1 className="text-2xl font-bold">Subscription</h1>
      <section className={card} aria-labelledby="organisation-plan">
        <h2 id="organisation-plan" className="text-lg font-semibold">
          {"The organisation's plan"}
        </h2>
        {subscription && (
          <p className="mt-2 text-sm">
            {planName(subscription)} · {planStatusLabel(subscription)} · {subscription.scansUsed} / {subscription.scansLimit} scans used
          </p>
        )}
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">Billing, upgrades and invoices stay with the organisation&apos;s owner.</p>
      </section>
      <section className={card} aria-labelledby="monthly-reports">
        <h2 id="monthly-reports" className="text-lg font-semibold">
          Monthly reports
        </h2>
        <MonthlyReports />
      </section>
    </div>
  );
}

function OwnerSubscription() {
  const billing = useBilling();
  if (billing.isPending) return <p role="status">Loading your subscription…</p>;
  if (billing.isError) return <p role="alert">Your subscription could not be loaded: {billing.error.message}</p>;

  return (
    <div className="space-y-6">
      <title>{`Subscription — ${content.productName}`}</title>
      <h1 className="text-2xl font-bold">Subscription</h1>
      <CurrentPlan billing={billing.data} />
      <section className={card} aria-labelledby="upgrade-options">
        <h2 id="upgrade-options" className="text-lg font-semibold">
          Upgrade options
        </h2>
        <UpgradeOptions subscription={billing.data.subscription} />
      </section>
      <section className={card} aria-labelledby="billing-history">
        <h2 id="billing-history" className="text-lg font-semibold">
          Billing history
        </h2>
        <BillingHistory invoices={billing.data.invoices} orders={billing.data.orders} />
      </section>
      {billing.data.subscription.billingPeriod === 'monthly' && (
        <section className={card} aria-labelledby="monthly-reports">
          <h2 id="monthly-reports" className="text-lg font-semibold">
            Monthly reports
          </h2>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            At the start of each month your plan emails a PDF of the month before: scores, scans, issues found and resolved, alerts, certificates and your badge.
          </p>
          <MonthlyReports />
        </section>
      )}
    </div>
  );
}
