import { Link } from 'react-router';
import { buttonClass } from '../../../components/ui/button';
import { paths } from '../../../config/paths';
import { useAuth } from '../../auth/auth-provider';

/** The anonymous visitor's way on from a report: they have no dashboard to go back to. */
export const SCAN_ANOTHER_SITE = 'Scan another site';

/**
 * Where the report's viewer goes next: a signed-in viewer back to their dashboard or to a new
 * assessment; anyone else (an anonymous visitor, or while sign-in is still being read) home, to scan
 * another site, never to a dashboard they do not have.
 */
export function ReportWayOn() {
  const { status } = useAuth();
  if (status !== 'signed-in') {
    return (
      <Link to={paths.home.getHref()} className={buttonClass('secondary')}>
        {SCAN_ANOTHER_SITE}
      </Link>
    );
  }
  return (
    <>
      <Link to={paths.dashboard.root.getHref()} className={buttonClass('secondary')}>
        Back to Dashboard
      </Link>
      <Link to={paths.home.getHref()} className={buttonClass('secondary')}>
        Start New Assessment
      </Link>
    </>
  );
}
