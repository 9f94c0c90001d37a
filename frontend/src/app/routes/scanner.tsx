import { content } from '../../config/content';
import { ScannerPage } from '../../features/scanner/components/scanner-page';

export function ScannerRoute() {
  return (
    <>
      <title>{`Our scanner — ${content.productName}`}</title>
      <ScannerPage />
    </>
  );
}
