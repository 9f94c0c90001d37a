import { content } from '../../../config/content';
import { frameClass, Section } from './section';

/** Sample data, labelled as such. Scores are ones the formula can produce (multiples of 5). */
const trend = [
  { month: 'Jan', score: 45, bar: 'h-[45%] bg-red-500' },
  { month: 'Feb', score: 60, bar: 'h-[60%] bg-yellow-500' },
  { month: 'Mar', score: 70, bar: 'h-[70%] bg-yellow-500' },
  { month: 'Apr', score: 80, bar: 'h-[80%] bg-green-500' },
  { month: 'May', score: 85, bar: 'h-[85%] bg-green-500' },
  { month: 'Jun', score: 90, bar: 'h-[90%] bg-green-500' },
] as const;

const recentAudits = [
  { domain: 'www.example.com', date: '3 Jun', score: 90, grade: 'A', tone: 'bg-green-700' },
  { domain: 'shop.example.com', date: '28 May', score: 80, grade: 'B', tone: 'bg-blue-600' },
  { domain: 'blog.example.com', date: '21 May', score: 60, grade: 'D', tone: 'bg-orange-700' },
] as const;

const sidebar = ['Dashboard', 'Audit History', 'Local Agents', 'Scans', 'Subscription', 'Security Badge', 'Settings'];

export function DashboardPreview() {
  return (
    <Section id="dashboard-preview" title={content.dashboardPreview.title} lead={content.dashboardPreview.lead}>
      <figure className={`mx-auto max-w-5xl overflow-hidden ${frameClass}`} aria-labelledby="dashboard-preview-caption">
        <div aria-hidden="true" className="flex items-center gap-1.5 border-b border-slate-200 bg-slate-100 px-4 py-2.5 dark:border-slate-800 dark:bg-slate-800">
          <span className="size-2.5 rounded-full bg-red-400" />
          <span className="size-2.5 rounded-full bg-yellow-400" />
          <span className="size-2.5 rounded-full bg-green-400" />
        </div>
        <div className="grid md:grid-cols-[12rem_1fr]">
          <ul className="hidden border-r border-slate-200 p-4 text-sm md:block dark:border-slate-800" aria-label="Dashboard sections">
            {sidebar.map((item, index) => (
              <li
                key={item}
                className={`rounded-md px-3 py-2 ${index === 0 ? 'bg-blue-50 font-semibold text-blue-800 dark:bg-blue-950 dark:text-blue-200' : 'text-slate-600 dark:text-slate-400'}`}
              >
                {item}
              </li>
            ))}
          </ul>
          <div className="grid gap-4 p-4 sm:p-6">
            <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
              {[
                ['Security score', '90'],
                ['Grade', 'A'],
                ['Risk level', 'Low'],
                ['Last scan', '3 Jun'],
              ].map(([label, value]) => (
                <div key={label} className="flex flex-col-reverse rounded-xl border border-slate-200 p-3 dark:border-slate-800">
                  <dt className="text-xs text-slate-500 dark:text-slate-400">{label}</dt>
                  <dd className="text-xl font-bold text-slate-900 dark:text-white">{value}</dd>
                </div>
              ))}
            </dl>
            <div className="grid gap-4 lg:grid-cols-2">
              <div className="rounded-xl border border-slate-200 p-4 dark:border-slate-800">
                <h3 className="text-sm font-semibold text-slate-900 dark:text-white">Score over time</h3>
                <ol className="mt-4 flex h-36 items-end gap-3" aria-label="Score by month">
                  {trend.map((point) => (
                    <li key={point.month} className="flex h-full flex-1 flex-col items-center justify-end gap-1">
                      <span className="text-xs font-semibold text-slate-700 tabular-nums dark:text-slate-300">{point.score}</span>
                      <span aria-hidden="true" className="flex w-full flex-1 items-end">
                        <span className={`w-full rounded-t-md ${point.bar}`} />
                      </span>
                      <span className="text-xs text-slate-500 dark:text-slate-400">{point.month}</span>
                    </li>
                  ))}
                </ol>
              </div>
              <div className="rounded-xl border border-slate-200 p-4 dark:border-slate-800">
                <h3 className="text-sm font-semibold text-slate-900 dark:text-white">Recent audits</h3>
                <ul className="mt-3 divide-y divide-slate-200 dark:divide-slate-800">
                  {recentAudits.map((audit) => (
                    <li key={audit.domain} className="flex items-center gap-3 py-2.5">
                      <span className={`flex size-8 shrink-0 items-center justify-center rounded-lg text-sm font-bold text-white ${audit.tone}`}>
                        {audit.grade}
                      </span>
                      <span className="min-w-0 flex-1 truncate font-mono text-sm text-slate-800 dark:text-slate-200">{audit.domain}</span>
                      <span className="text-xs text-slate-500 dark:text-slate-400">{audit.date}</span>
                      <span className="w-8 text-right text-sm font-semibold tabular-nums text-slate-900 dark:text-white">{audit.score}</span>
                    </li>
                  ))}
                </ul>
              </div>
            </div>
          </div>
        </div>
        <figcaption id="dashboard-preview-caption" className="border-t border-slate-200 px-4 py-3 sm:px-6 text-sm text-slate-600 dark:border-slate-800 dark:text-slate-400">
          Preview with sample data.
        </figcaption>
      </figure>
    </Section>
  );
}
