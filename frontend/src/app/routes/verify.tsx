import { useParams } from 'react-router';
import { VerifyStatus } from '../../features/verify/components/verify-status';

export function VerifyRoute() {
  const { domain = '' } = useParams();
  // Keyed by domain so moving between domains starts each one from its own loading state.
  return <VerifyStatus key={domain} domain={domain} />;
}
