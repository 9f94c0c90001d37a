import { CheckIcon } from '../../../components/ui/check-icon';
import { Spinner } from '../../../components/ui/spinner';
import { content } from '../../../config/content';
import { formatMoney, type Plan } from '../../../lib/catalogue';

export function PlanCard({
  plan,
  processing,
  disabled,
  onChoose,
}: {
  plan: Plan;
  processing: boolean;
  disabled: boolean;
  onChoose: () => void;
}) {
  const headingId = `plan-${plan.id}-name`;
  return (
    <article
      aria-labelledby={headingId}
      data-testid={`plan-${plan.id}`}
      className="flex flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900"
    >
      <h3 id={headingId} className="text-xl font-semibold text-slate-900 dark:text-white">
        {plan.name}
      </h3>
      <p className="mt-2 text-sm text-slate-600 sm:min-h-10 dark:text-slate-300">{plan.summary}</p>
      <p className="mt-6 flex items-baseline gap-1.5">
        <span className="text-4xl font-extrabold tracking-tight text-slate-900 dark:text-white">{formatMoney(plan.amountCents, plan.currency)}</span>
        <span className="text-sm text-slate-500 dark:text-slate-400">{plan.billing === 'monthly' ? '/month' : 'one-off'}</span>
      </p>
      <ul className="mt-6 flex-1 space-y-3 text-sm text-slate-700 dark:text-slate-300">
        {plan.features.map((feature) => (
          <li key={feature} className="flex gap-2">
            <CheckIcon />
            <span>{feature}</span>
          </li>
        ))}
      </ul>
      <button
        type="button"
        onClick={onChoose}
        disabled={disabled}
        aria-busy={processing}
        className="mt-8 inline-flex min-h-11 w-full items-center justify-center gap-2 rounded-lg bg-blue-700 px-4 py-2.5 text-sm font-semibold text-white shadow-sm transition-colors hover:bg-blue-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 disabled:cursor-not-allowed disabled:opacity-70 dark:bg-blue-600 dark:hover:bg-blue-500 dark:focus-visible:outline-blue-400"
      >
        {processing ? (
          <>
            <Spinner className="size-4" />
            {content.pricing.processing}
          </>
        ) : (
          `Choose ${plan.name}`
        )}
      </button>
    </article>
  );
}
