import { useParams } from 'react-router';
import { content } from '../../config/content';
import { INVALID_SHARE_LINK, ShareLinkInvalid, SharedReport } from '../../features/audits/components/shared-report';

export function ShareRoute() {
  const { shareToken } = useParams();
  return (
    <>
      <title>{`Shared security report — ${content.productName}`}</title>
      {shareToken ? <SharedReport key={shareToken} shareToken={shareToken} /> : <ShareLinkInvalid message={INVALID_SHARE_LINK} />}
    </>
  );
}
