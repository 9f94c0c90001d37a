import { Link } from 'react-router';
import { buttonClass } from '../../components/ui/button';
import { StatusPanel } from '../../components/ui/status-panel';
import { content } from '../../config/content';
import { paths } from '../../config/paths';

export function NotFoundRoute() {
  return (
    <>
      <title>{`Page not found — ${content.productName}`}</title>
      <StatusPanel title="Page not found">
        <p className="mt-3 text-slate-600 dark:text-slate-400">There is no page at this address.</p>
        <div className="mt-6">
          <Link to={paths.home.getHref()} className={buttonClass('primary')}>
            Go to Home
          </Link>
        </div>
      </StatusPanel>
    </>
  );
}
