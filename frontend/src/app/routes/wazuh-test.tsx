import { content } from '../../config/content';
import { WazuhTester } from '../../features/wazuh-test/components/wazuh-tester';

export function WazuhTestRoute() {
  return (
    <>
      <title>{`Wazuh API Tester — ${content.productName}`}</title>
      <WazuhTester />
    </>
  );
}
