import { Link } from 'react-router';
import { buttonClass } from '../../components/ui/button';
import { StatusPanel } from '../../components/ui/status-panel';
import { content } from '../../config/content';
import { paths } from '../../config/paths';

/** The client area's door. Sign-in itself is not built yet, and the page says so rather than pretending. */
export function AuthRoute() {
  return (
    <>
      <title>{`Client Login — ${content.productName}`}</title>
      <StatusPanel title="Client Login">
        <p className="mt-3 text-slate-600">
          Client sign-in is not available yet. It arrives with customer accounts in an upcoming release.
        </p>
        <div className="mt-6">
          <Link to={paths.home.getHref()} className={buttonClass('secondary')}>
            Back to home
          </Link>
        </div>
      </StatusPanel>
    </>
  );
}
