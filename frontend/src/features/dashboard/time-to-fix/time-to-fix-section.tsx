import type { TimeToFixIssueView, TimeToFixSummaryView } from '../../../lib/contracts';
import { useTimeToFix } from './api/time-to-fix';

const card = 'rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-700 dark:bg-slate-900';
const muted = 'text-sm text-slate-600 dark:text-slate-400';
const cell = 'px-2 py-1 text-left';

export const NO_TIME_TO_FIX = 'Nothing measured yet: time to fix starts with the first monitoring rescan of a verified domain.';
/** How many overdue issues the section names (the rest are counted). */
export const OVERDUE_LISTED = 5;

/** 12.3 days; under a day says so (a rescan the same day). */
export const daysText = (days: number | null): string => (days === null ? '—' : days < 1 ? 'under a day' : `${days.toFixed(1)} days`);
const percent = (share: number | null) => (share === null ? '—' : `${Math.round(share * 100)}%`);
const shortDate = (iso: string) => new Date(iso).toLocaleDateString('en-AU', { day: 'numeric', month: 'short', year: 'numeric' });
const SEVERITY_LABEL = { critical: 'Critical', high: 'High', medium: 'Medium', low: 'Low' } as const;

function Figures({ data }: { data: TimeToFixSummaryView }) {
  const items = [
    { label: 'Open issues', value: String(data.openTotal), note: `${data.overdueTotal} past target` },
    { label: 'Fixed on time', value: percent(data.fixedOnTimeShare), note: data.fixedTotal === 0 ? 'nothing fixed yet' : `${data.fixedOnTime} of ${data.fixedTotal} fixes` },
    { label: 'Mean time to fix', value: daysText(data.meanDaysToFix), note: 'last 12 months' },
  ];
  return (
    <dl className="mt-3 grid gap-3 sm:grid-cols-3">
      {items.map((item) => (
        <div key={item.label}>
          <dt className={muted}>{item.label}</dt>
          <dd className="text-xl font-bold">
            {item.value} <span className="text-xs font-normal text-slate-600 dark:text-slate-400">({item.note})</span>
          </dd>
        </div>
      ))}
    </dl>
  );
}

function OverdueList({ issues }: { issues: TimeToFixIssueView[] }) {
  const overdue = issues.filter((issue) => issue.overdue);
  if (overdue.length === 0) return <p className={`mt-3 ${muted}`}>No open issue is past its target.</p>;
  return (
    <>
      <h3 id="time-to-fix-overdue" className="mt-4 font-semibold">
        Past target ({overdue.length})
      </h3>
      <ul aria-labelledby="time-to-fix-overdue" className="mt-1 divide-y divide-slate-200 text-sm dark:divide-slate-700">
        {overdue.slice(0, OVERDUE_LISTED).map((issue) => (
          <li key={`${issue.domain}|${issue.findingId}`} className="py-2">
            <span className="font-semibold">{SEVERITY_LABEL[issue.severity]}</span> {issue.title}{' '}
            <span className="text-slate-600 dark:text-slate-400">
              — {issue.domain}, open {issue.ageDays} days, due <time dateTime={issue.dueAt}>{shortDate(issue.dueAt)}</time>
            </span>
          </li>
        ))}
      </ul>
      {overdue.length > OVERDUE_LISTED && <p className={muted}>and {overdue.length - OVERDUE_LISTED} more</p>}
    </>
  );
}

/** Issue 21 "Time-to-fix": open issues by age, the share fixed on time and the mean time to fix over time. */
export function TimeToFixSection() {
  const query = useTimeToFix();
  const data = query.data;
  const t = data?.targets;
  return (
    <section className={card} aria-labelledby="time-to-fix">
      <h2 id="time-to-fix" className="text-lg font-semibold">
        Time to fix
      </h2>
      {query.isPending ? (
        <p role="status" className={`mt-2 ${muted}`}>
          Loading time to fix…
        </p>
      ) : query.isError ? (
        <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-400">
          Time to fix could not be loaded: {query.error.message}
        </p>
      ) : !data || data.domains.length === 0 ? (
        <p className={`mt-2 ${muted}`}>{NO_TIME_TO_FIX}</p>
      ) : (
        <>
          <p className={`mt-1 ${muted}`}>
            Targets from when an issue is first seen: critical {t!.critical} days, high {t!.high}, medium {t!.medium}, low {t!.low}.
          </p>
          <Figures data={data} />
          <div className="mt-4 grid gap-6 lg:grid-cols-2">
            <table className="w-full text-sm">
              <caption className="mb-1 text-left font-semibold">Open issues by age</caption>
              <thead>
                <tr className="border-b border-slate-200 dark:border-slate-700">
                  <th scope="col" className={cell}>Age</th>
                  <th scope="col" className={cell}>Open</th>
                  <th scope="col" className={cell}>Past target</th>
                </tr>
              </thead>
              <tbody>
                {data.openByAge.map((bucket) => (
                  <tr key={bucket.label}>
                    <th scope="row" className={`${cell} font-normal`}>{bucket.label}</th>
                    <td className={cell}>{bucket.open}</td>
                    <td className={cell}>{bucket.overdue}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <table className="w-full text-sm">
              <caption className="mb-1 text-left font-semibold">Mean time to fix by month</caption>
              <thead>
                <tr className="border-b border-slate-200 dark:border-slate-700">
                  <th scope="col" className={cell}>Month</th>
                  <th scope="col" className={cell}>Fixed</th>
                  <th scope="col" className={cell}>On time</th>
                  <th scope="col" className={cell}>Mean</th>
                </tr>
              </thead>
              <tbody>
                {data.byMonth.map((month) => (
                  <tr key={month.month}>
                    <th scope="row" className={`${cell} font-normal`}>{month.label}</th>
                    <td className={cell}>{month.fixed}</td>
                    <td className={cell}>{month.fixedOnTime}</td>
                    <td className={cell}>{daysText(month.meanDaysToFix)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <OverdueList issues={data.open} />
        </>
      )}
    </section>
  );
}
