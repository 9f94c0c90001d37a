import { Link } from 'react-router';
import { paths } from '../../../config/paths';
import type { AlertView } from '../../../lib/contracts';
import { useMyAlerts } from './my-alerts';

const card = 'rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-700 dark:bg-slate-900';

/** How many alerts the overview shows. */
export const RECENT_ALERTS = 5;
export const NO_ALERTS = 'No alerts yet — we will tell you when something changes.';

const channelLabel: Record<AlertView['channel'], string> = { email: 'Email', sms: 'SMS' };

/** '22 Nov 2026, 3:04 pm' (en-AU, the viewer's time zone). */
const sentWhen = (iso: string): string =>
  new Date(iso).toLocaleString('en-AU', { day: 'numeric', month: 'short', year: 'numeric', hour: 'numeric', minute: '2-digit' });

/** Issue 9 "Dashboard: an alerts list on the overview": the latest alerts monitoring sent. */
export function AlertsList() {
  const alerts = useMyAlerts(RECENT_ALERTS);
  const recent = [...(alerts.data ?? [])].sort((a, b) => Date.parse(b.sentAt) - Date.parse(a.sentAt)).slice(0, RECENT_ALERTS);

  return (
    <section className={card} aria-labelledby="recent-alerts">
      <h2 id="recent-alerts" className="text-lg font-semibold">
        Recent alerts
      </h2>
      {alerts.isPending ? (
        <p role="status" className="mt-2 text-sm text-slate-600 dark:text-slate-400">
          Loading alerts…
        </p>
      ) : alerts.isError ? (
        <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-400">
          Your alerts could not be loaded: {alerts.error.message}
        </p>
      ) : recent.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{NO_ALERTS}</p>
      ) : (
        <ul className="mt-3 divide-y divide-slate-200 dark:divide-slate-700">
          {recent.map((alert) => (
            <li key={alert.id} className="py-3">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <p className="font-semibold">{alert.domain}</p>
                <p className="flex items-center gap-2 text-xs text-slate-600 dark:text-slate-400">
                  <time dateTime={alert.sentAt}>{sentWhen(alert.sentAt)}</time>
                  <span className="rounded-full bg-slate-100 px-2 py-0.5 font-semibold text-slate-700 dark:bg-slate-800 dark:text-slate-300">
                    {channelLabel[alert.channel]}
                  </span>
                </p>
              </div>
              <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">{alert.summary}</p>
              <Link
                to={paths.results.getHref(alert.auditId)}
                aria-label={`View report for ${alert.domain}`}
                className="mt-1 inline-block text-sm font-semibold text-blue-700 hover:underline dark:text-blue-400"
              >
                View report
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
