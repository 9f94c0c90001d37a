import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { Spinner } from '../../../components/ui/spinner';
import { StatusPanel } from '../../../components/ui/status-panel';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import { useOrder } from '../api/get-order';
import { InvalidPaymentSession, PaymentError } from './payment-error';

/** SPEC §9 "Premium redirect wait 2 s". */
export const PREMIUM_REDIRECT_MS = 2_000;

/**
 * `/payment-success?session_id&audit_id` (DECISIONS "/success vs /payment-success"). The address
 * proves nothing: the order the payment webhook stored is the server's word that the session was
 * paid (and the audit unlocked), so the page waits for it — up to ~20 s while the webhook is on its
 * way — then after 2 s opens the report with `?premium=true`, or the dashboard without an audit.
 */
export function PremiumUnlock({ sessionId, auditId }: { sessionId: string | null; auditId: string | null }) {
  const navigate = useNavigate();
  const order = useOrder(sessionId);
  const target = auditId ?? order.data?.auditId;

  useEffect(() => {
    if (!order.isSuccess) return;
    const timer = setTimeout(() => {
      void navigate(target ? `${paths.results.getHref(target)}?premium=true` : paths.dashboard.root.getHref(), { replace: true });
    }, PREMIUM_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [order.isSuccess, target, navigate]);

  useEffect(() => {
    if (order.isError) console.error('Confirming the payment failed', order.error);
  }, [order.isError, order.error]);

  // The API says the same of an id that cannot be a checkout session.
  if (!sessionId || (order.error instanceof ApiError && order.error.code === 'invalid_session')) return <InvalidPaymentSession />;
  if (order.isError) return <PaymentError />;
  return (
    <StatusPanel title={order.isSuccess ? 'Payment successful!' : 'Confirming your payment'} role="status">
      <p className="mt-3 text-slate-700 dark:text-slate-300">
        {order.isSuccess ? 'Your premium security report is unlocked.' : 'Unlocking your premium security report…'}
      </p>
      <Spinner className="mt-6 size-8 text-blue-700 dark:text-blue-400" />
      <p className="mt-4 text-sm text-slate-600 dark:text-slate-400">
        {target ? 'Taking you to your report in a moment.' : 'Taking you to your dashboard in a moment.'}
      </p>
    </StatusPanel>
  );
}
