import { useSearchParams } from 'react-router';
import { content } from '../../config/content';
import { PremiumUnlock } from '../../features/payments/components/premium-unlock';

/** `/payment-success?session_id&audit_id`: the paid audit's unlocking screen (DECISIONS). */
export function PaymentSuccessRoute() {
  const [search] = useSearchParams();
  return (
    <>
      <title>{`Payment successful — ${content.productName}`}</title>
      <PremiumUnlock sessionId={search.get('session_id')} auditId={search.get('audit_id')} />
    </>
  );
}
