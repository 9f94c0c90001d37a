import { content } from '../../config/content';
import { PrivacyPolicy } from '../../features/legal/components/privacy-policy';

export function PrivacyRoute() {
  return (
    <>
      <title>{`Privacy Policy — ${content.productName}`}</title>
      <PrivacyPolicy />
    </>
  );
}
