import { Navigate, Link, useLocation } from 'react-router';
import { buttonClass } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { StatusPanel } from '../../../components/ui/status-panel';
import { paths } from '../../../config/paths';
import { formatMoney, plans } from '../../../lib/catalogue';
import type { OrderView } from '../../../lib/contracts';
import { useAuth } from '../../auth/auth-provider';
import { useOrder } from '../api/get-order';
import { receiptHref } from '../receipt-url';

const orderDate = (iso: string) => new Date(iso).toLocaleDateString('en-AU', { day: 'numeric', month: 'long', year: 'numeric' });

/** What to do next; monitoring's alerts only when the order was a monitoring plan. */
function nextSteps(order: OrderView | undefined): string[] {
  const monitoring = !order || plans.find((plan) => plan.id === order.planId)?.kind === 'subscription';
  return [
    'Your plan and its scans are shown in your dashboard.',
    'Add and verify your domains so scans can start.',
    ...(monitoring ? ['Monitoring alerts arrive by email as soon as something changes.'] : []),
  ];
}

function OrderDetails({ order }: { order: OrderView }) {
  return (
    <dl className="mt-2 grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
      <dt className="text-slate-600 dark:text-slate-400">Order ID</dt>
      <dd data-testid="order-id" className="font-mono text-slate-900 dark:text-slate-100">
        {order.orderId}
      </dd>
      <dt className="text-slate-600 dark:text-slate-400">Plan</dt>
      <dd className="text-slate-900 dark:text-slate-100">{order.planName}</dd>
      <dt className="text-slate-600 dark:text-slate-400">Amount</dt>
      <dd data-testid="order-amount" className="text-slate-900 dark:text-slate-100">
        {/* SPEC §9 "Money format": minor units, the order's currency (default aud), en-AU. */}
        {formatMoney(order.amountTotal, order.currency || 'aud')}
      </dd>
      <dt className="text-slate-600 dark:text-slate-400">Date</dt>
      <dd className="text-slate-900 dark:text-slate-100">{orderDate(order.orderDate)}</dd>
    </dl>
  );
}

function SuccessPage({ sessionId }: { sessionId: string | null }) {
  const order = useOrder(sessionId);
  return (
    <StatusPanel title="Payment Successful!">
      <p className="mt-3 text-slate-700 dark:text-slate-300">Thank you for your purchase.</p>
      {sessionId && (
        <section aria-labelledby="order-details-heading" className="mt-6 rounded-md border border-slate-200 p-4 text-left dark:border-slate-700">
          <h2 id="order-details-heading" className="font-semibold text-slate-900 dark:text-slate-100">
            Order details
          </h2>
          {order.isPending && (
            <p role="status" className="mt-2 flex items-center gap-2 text-sm text-slate-700 dark:text-slate-300">
              <Spinner className="size-4" />
              Confirming your payment…
            </p>
          )}
          {order.isError && (
            <p role="alert" className="mt-2 text-sm text-red-800 dark:text-red-300">
              The order details could not be loaded: {order.error.message}
            </p>
          )}
          {order.data && <OrderDetails order={order.data} />}
        </section>
      )}
      <section aria-labelledby="next-steps-heading" className="mt-6 text-left">
        <h2 id="next-steps-heading" className="font-semibold text-slate-900 dark:text-slate-100">
          Next steps
        </h2>
        <ol className="mt-2 list-decimal space-y-1 pl-6 text-sm text-slate-700 dark:text-slate-300">
          {nextSteps(order.data).map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
      </section>
      <div className="mt-6 flex flex-col justify-center gap-3 sm:flex-row">
        <Link to={paths.dashboard.root.getHref()} className={buttonClass('primary')}>
          Go to Dashboard
        </Link>
        {order.data && (
          <a href={receiptHref(order.data.receiptUrl)} download className={buttonClass('secondary')}>
            Download Receipt
          </a>
        )}
      </div>
    </StatusPanel>
  );
}

/**
 * `/success?session_id` (DECISIONS "/success vs /payment-success"): the subscription success page,
 * for the signed-in buyer (else login, coming back here). The order comes from the server, waiting
 * while the payment webhook is on its way; without a session id the details are skipped (SPEC §5).
 */
export function SubscriptionSuccess({ sessionId }: { sessionId: string | null }) {
  const { status } = useAuth();
  const location = useLocation();
  if (status === 'loading') {
    return (
      <StatusPanel title="Checking your session" role="status">
        <Spinner className="mt-4 size-6 text-blue-700" />
      </StatusPanel>
    );
  }
  if (status !== 'signed-in') {
    return <Navigate to={paths.auth.login.getHref(`${location.pathname}${location.search}`)} replace />;
  }
  return <SuccessPage sessionId={sessionId} />;
}
