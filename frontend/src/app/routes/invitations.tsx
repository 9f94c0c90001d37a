import { useSearchParams } from 'react-router';
import { content } from '../../config/content';
import { AcceptInvitation } from '../../features/account/components/accept-invitation';

/** `/invitations/accept?token=`: the link of an invitation email (Teams, issue 22 item 2). */
export function AcceptInvitationRoute() {
  const [search] = useSearchParams();
  return (
    <>
      <title>{`Join an organisation — ${content.productName}`}</title>
      <AcceptInvitation token={search.get('token') ?? ''} />
    </>
  );
}
