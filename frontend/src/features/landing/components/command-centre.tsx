import { content } from '../../../config/content';
import { cardClass, Section } from './section';
import { SecurityBadgeCard } from './security-badge-card';

export function CommandCentre() {
  const { commandCentre } = content;
  return (
    <Section id="command-centre" title={commandCentre.title} lead={commandCentre.lead} tone="raised">
      <ul className="grid gap-6 lg:grid-cols-3">
        <li className={`flex flex-col ${cardClass}`}>
          <h3 className="text-lg font-semibold text-slate-900 dark:text-white">{commandCentre.history.title}</h3>
          <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">{commandCentre.history.body}</p>
          <ol className="mt-5 space-y-2 text-sm" aria-label="Sample audit history">
            {[
              ['3 Jun', 'www.example.com', '90', 'A'],
              ['3 May', 'www.example.com', '80', 'B'],
              ['2 Apr', 'www.example.com', '60', 'D'],
            ].map(([date, domain, score, grade]) => (
              <li key={date} className="flex items-center justify-between rounded-lg bg-slate-50 px-3 py-2 dark:bg-slate-800">
                <span className="text-slate-500 dark:text-slate-400">{date}</span>
                <span className="truncate px-2 font-mono text-slate-800 dark:text-slate-200">{domain}</span>
                <span className="font-semibold text-slate-900 tabular-nums dark:text-white">
                  {score} · {grade}
                </span>
              </li>
            ))}
          </ol>
          <p className="mt-2 text-xs text-slate-500 dark:text-slate-400">Sample history.</p>
        </li>
        <SecurityBadgeCard />
        <li className={`flex flex-col ${cardClass}`}>
          <h3 className="text-lg font-semibold text-slate-900 dark:text-white">{commandCentre.monitoring.title}</h3>
          <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">{commandCentre.monitoring.body}</p>
          <ul className="mt-5 space-y-2 text-sm" aria-label="Sample alerts">
            {[
              ['New open port', 'Port 3389 (RDP) now answers on www.example.com', 'bg-red-500'],
              ['Certificate expiring', 'shop.example.com: 14 days left', 'bg-yellow-500'],
              ['Issue resolved', 'TLS 1.0 no longer accepted', 'bg-green-500'],
            ].map(([title, detail, dot]) => (
              <li key={title} className="flex gap-3 rounded-lg bg-slate-50 px-3 py-2 dark:bg-slate-800">
                <span aria-hidden="true" className={`mt-1.5 size-2 shrink-0 rounded-full ${dot}`} />
                <span>
                  <span className="block font-semibold text-slate-900 dark:text-white">{title}</span>
                  <span className="text-slate-600 dark:text-slate-300">{detail}</span>
                </span>
              </li>
            ))}
          </ul>
          <p className="mt-2 text-xs text-slate-500 dark:text-slate-400">Sample alerts.</p>
        </li>
      </ul>
    </Section>
  );
}
