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
          <dt className="font-medium text-slate-600">{key}</dt>
          <dd className="font-mono break-all text-slate-800">{formatDataValue(value)}</dd>
        </div>
      ))}
    </dl>
  );
}

/** One row per check: how it went, how long it took, why it did not finish, what it measured. */
export function ChecksTable({ checks }: { checks: CheckResult[] }) {
  return (
    <section aria-labelledby="checks-heading" className="space-y-4">
      <h2 id="checks-heading" className="text-xl font-bold">
        Checks
      </h2>
      {checks.length === 0 ? (
        <p className="rounded-xl border border-slate-200 bg-white p-5 text-slate-600">No checks have reported yet.</p>
      ) : (
        <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
          <table className="w-full text-left text-sm">
            <thead className="bg-slate-100 text-slate-700">
              <tr>
                <th scope="col" className="px-4 py-2 font-semibold">Check</th>
                <th scope="col" className="px-4 py-2 font-semibold">Status</th>
                <th scope="col" className="px-4 py-2 font-semibold">Duration</th>
                <th scope="col" className="px-4 py-2 font-semibold">Details</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200">
              {checks.map((check) => (
                <tr key={check.name} className="align-top">
                  <th scope="row" className="px-4 py-3 font-mono font-semibold">{check.name}</th>
                  <td className={`px-4 py-3 font-medium ${checkStatusClass[check.status]}`}>
                    {statusLabel(check.status)}
                  </td>
                  <td className="px-4 py-3 whitespace-nowrap text-slate-700">{formatDuration(check.durationMs)}</td>
                  <td className="px-4 py-3 text-slate-700">
                    {check.reason && <p>{check.reason}</p>}
                    {check.data && <CheckData data={check.data} />}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
