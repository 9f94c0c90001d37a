import { Link } from 'react-router';
import { buttonClass } from '../../../components/ui/button';
import { StatusPanel } from '../../../components/ui/status-panel';
import { paths } from '../../../config/paths';

/** SPEC §8 / DECISIONS "Checkout UI": the payment failure screen. */
export function PaymentError() {
  return (
    <StatusPanel title="Payment Processing Error" tone="error" role="alert">
      <p className="mt-3 text-slate-700 dark:text-slate-300">Failed to process payment. Please contact support.</p>
      <div className="mt-6">
        <Link to={paths.home.getHref()} className={buttonClass('primary')}>
          Return to Home
        </Link>
      </div>
    </StatusPanel>
  );
}

/** SPEC §4 "Payment unlock": no session id in the address. */
export function InvalidPaymentSession() {
  return (
    <StatusPanel title="Invalid payment session" tone="error" role="alert">
      <p className="mt-3 text-slate-700 dark:text-slate-300">
        This page needs the payment session from the checkout. Open it from the link the checkout sent you back with.
      </p>
      <div className="mt-6">
        <Link to={paths.home.getHref()} className={buttonClass('primary')}>
          Return to Home
        </Link>
      </div>
    </StatusPanel>
  );
}
