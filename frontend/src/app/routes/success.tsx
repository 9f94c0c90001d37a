import { useSearchParams } from 'react-router';
import { content } from '../../config/content';
import { SubscriptionSuccess } from '../../features/payments/components/subscription-success';

/** `/success?session_id`: the subscription's success page (DECISIONS "/success vs /payment-success"). */
export function SuccessRoute() {
  const [search] = useSearchParams();
  return (
    <>
      <title>{`Subscription confirmed — ${content.productName}`}</title>
      <SubscriptionSuccess sessionId={search.get('session_id')} />
    </>
  );
}
