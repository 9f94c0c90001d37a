import { ListLoadError, ListSkeleton } from '../history/list-states';
import { useAgentsDebug } from './api/agents';
import { cardClass, dateTime } from './format';

/** SPEC §2 Debug: the API check — reports received, the last one, the 5 most recent submissions. */
export function DebugTab() {
  const debug = useAgentsDebug();
  if (debug.isPending) return <ListSkeleton label="Checking the agent API" rows={3} />;
  if (debug.isError) {
    return <ListLoadError title="API check failed" message={debug.error.message} onRetry={() => void debug.refetch()} retrying={debug.isFetching} />;
  }
  const view = debug.data;
  return (
    <div className="space-y-6">
      <section aria-label="API check" className={cardClass}>
        <h2 className="text-lg font-semibold">API check</h2>
        <dl className="mt-3 grid gap-3 sm:grid-cols-3">
          <div>
            <dt className="text-xs text-slate-500 dark:text-slate-400">Status</dt>
            <dd className={`font-semibold ${view.success ? 'text-green-700 dark:text-green-400' : 'text-red-700 dark:text-red-400'}`}>
              {view.success ? 'API reachable' : 'API check failed'}
            </dd>
          </div>
          <div>
            <dt className="text-xs text-slate-500 dark:text-slate-400">Reports received</dt>
            <dd className="font-semibold">{view.audit_count}</dd>
          </div>
          <div>
            <dt className="text-xs text-slate-500 dark:text-slate-400">Last report</dt>
            <dd className="font-semibold">{view.last_audit ? dateTime(view.last_audit) : 'None yet'}</dd>
          </div>
        </dl>
      </section>

      <section aria-label="Recent submissions" className={cardClass}>
        <h2 className="text-lg font-semibold">Recent submissions</h2>
        {view.recent_audits.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">No report has arrived yet.</p>
        ) : (
          <table className="mt-3 w-full text-left text-sm">
            <thead className="text-xs uppercase text-slate-500 dark:text-slate-400">
              <tr>
                <th className="py-1 pr-3">Agent</th>
                <th className="py-1 pr-3">Domain</th>
                <th className="py-1">Received</th>
              </tr>
            </thead>
            <tbody>
              {view.recent_audits.map((entry) => (
                <tr key={`${entry.agent_id}-${entry.audit_timestamp}`} className="border-t border-slate-200 dark:border-slate-700">
                  <td className="py-1 pr-3 font-mono text-xs">{entry.agent_id}</td>
                  <td className="py-1 pr-3">{entry.client_domain}</td>
                  <td className="py-1">{dateTime(entry.audit_timestamp)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <section aria-label="Recent installs" className={cardClass}>
        <h2 className="text-lg font-semibold">Recent installer messages</h2>
        {view.recent_installs.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">No installer has reported yet.</p>
        ) : (
          <ul className="mt-3 space-y-2 text-sm">
            {view.recent_installs.map((event) => (
              <li key={`${event.hostname}-${event.received_at}`}>
                <span className="font-semibold">{event.hostname}</span> ({event.customer_domain}) — {event.install_status}: {event.install_message}{' '}
                <span className="text-xs text-slate-500 dark:text-slate-400">{dateTime(event.received_at)}</span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
