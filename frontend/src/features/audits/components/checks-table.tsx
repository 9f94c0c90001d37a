import { scanModeContent } from '../../../config/scan-modes';
import { siteAccessContent } from '../../../config/site-access';
import type { CheckResult } from '../../../lib/contracts';
import { checkStatusClass, formatDataValue, formatDuration, statusLabel } from './format';

const MAX_DATA_KEYS = 12;

function CheckData({ data }: { data: Record<string, unknown> }) {
  const entries = Object.entries(data).slice(0, MAX_DATA_KEYS);
  if (entries.length === 0) return null;
  return (
    <dl className="mt-2 grid grid-cols-[max-content_1fr] gap-x-3 gap-y-1 text-xs">
      {entries.map(([key, value]) => (
        <div key={key} className="contents">
          <dt className="font-medium text-slate-600 dark:text-slate-400">{key}</dt>
          <dd className="font-mono break-all text-slate-800 dark:text-slate-200">{formatDataValue(value)}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * One row per check: how it went, how long it took, why it did not finish, what it measured. The
 * raw measurements are for the technically minded: folded away once the report is complete.
 */
export function ChecksTable({ checks, open }: { checks: CheckResult[]; open: boolean }) {
  return (
    <details open={open} className="group space-y-4">
      <summary className="cursor-pointer rounded-md text-xl font-bold text-slate-900 focus-visible:outline-2 focus-visible:outline-blue-700 dark:text-slate-100">
        <h2 id="checks-heading" className="inline">
          Technical details: every check
        </h2>
      </summary>
      {checks.length === 0 ? (
        <p className="mt-4 rounded-xl border border-slate-200 bg-white p-5 text-slate-600 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-400">No checks have reported yet.</p>
      ) : (
        <div className="mt-4 overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm dark:border-slate-700 dark:bg-slate-900">
          <table className="w-full text-left text-sm">
            <thead className="bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300">
              <tr>
                <th scope="col" className="px-4 py-2 font-semibold">Check</th>
                <th scope="col" className="px-4 py-2 font-semibold">Status</th>
                <th scope="col" className="px-4 py-2 font-semibold">Duration</th>
                <th scope="col" className="px-4 py-2 font-semibold">Details</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200 dark:divide-slate-700">
              {checks.map((check) => (
                <tr key={check.name} className="align-top">
                  <th scope="row" className="px-4 py-3 font-mono font-semibold text-slate-900 dark:text-slate-100">{check.name}</th>
                  <td className={`px-4 py-3 font-medium ${checkStatusClass[check.status]}`}>
                    {/* A check the site kept out says why it was not checked (DECISIONS "Blocked is a result"). */}
                    {check.status === 'skipped' && check.cause ? siteAccessContent.notChecked(scanModeContent.cause[check.cause]) : statusLabel(check.status)}
                  </td>
                  <td className="px-4 py-3 whitespace-nowrap text-slate-700 dark:text-slate-300">{formatDuration(check.durationMs)}</td>
                  <td className="px-4 py-3 text-slate-700 dark:text-slate-300">
                    {check.reason && <p>{check.reason}</p>}
                    {check.data && <CheckData data={check.data} />}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </details>
  );
}
