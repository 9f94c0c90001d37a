import { Link } from 'react-router';
import { Button, buttonClass } from '../../../components/ui/button';
import { StatusPanel } from '../../../components/ui/status-panel';
import { paths } from '../../../config/paths';

/** SPEC §9 "Sharing and payment": the order ID shows the first 16 characters of the session id. */
export const orderIdOf = (sessionId: string): string => sessionId.slice(0, 16);

const NEXT_STEPS = [
  'Your subscription is active and your plan is shown in your dashboard.',
  'Add and verify your domains so monitoring can start.',
  'Monitoring alerts arrive by email as soon as something changes.',
];

/**
 * `/success?session_id` (DECISIONS "/success vs /payment-success"): the subscription success page.
 * The order's amount and date come from the payments issue; without a session id the details are
 * skipped (SPEC §5).
 */
export function SubscriptionSuccess({ sessionId }: { sessionId: string | null }) {
  return (
    <StatusPanel title="Payment Successful!">
      <p className="mt-3 text-slate-700 dark:text-slate-300">Thank you. Your subscription is confirmed.</p>
      {sessionId && (
        <section aria-labelledby="order-details-heading" className="mt-6 rounded-md border border-slate-200 p-4 text-left dark:border-slate-700">
          <h2 id="order-details-heading" className="font-semibold text-slate-900 dark:text-slate-100">
            Order details
          </h2>
          <dl className="mt-2 grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="text-slate-600 dark:text-slate-400">Order ID</dt>
            <dd data-testid="order-id" className="font-mono text-slate-900 dark:text-slate-100">
              {orderIdOf(sessionId)}
            </dd>
          </dl>
        </section>
      )}
      <section aria-labelledby="next-steps-heading" className="mt-6 text-left">
        <h2 id="next-steps-heading" className="font-semibold text-slate-900 dark:text-slate-100">
          Next steps
        </h2>
        <ol className="mt-2 list-decimal space-y-1 pl-6 text-sm text-slate-700 dark:text-slate-300">
          {NEXT_STEPS.map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
      </section>
      <div className="mt-6 flex flex-col justify-center gap-3 sm:flex-row">
        <Link to={paths.dashboard.root.getHref()} className={buttonClass('primary')}>
          Go to Dashboard
        </Link>
        {/* SPEC §2: the receipt button does nothing; receipts arrive with the payments issue. */}
        <Button variant="secondary" disabled title="Receipts are not available yet">
          Download Receipt
        </Button>
      </div>
    </StatusPanel>
  );
}
