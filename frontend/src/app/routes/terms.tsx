import { content } from '../../config/content';
import { TermsOfService } from '../../features/legal/components/terms-of-service';

export function TermsRoute() {
  return (
    <>
      <title>{`Terms of Service — ${content.productName}`}</title>
      <TermsOfService />
    </>
  );
}
