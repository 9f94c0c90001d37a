import { useState } from 'react';
import { scanModeContent } from '../../../config/scan-modes';
import type { AuditResultView, BreachesView, CoverageView, NotCheckedItem, PortScanResultView, RecommendationView } from '../../../lib/contracts';
import { severityClass } from './format';
import { notRun, partsNotChecked } from './scan-coverage';
import { FixAdvice } from './vulnerabilities-list';

const card = 'rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-700 dark:bg-slate-900';
const cardTitle = 'text-lg font-bold text-slate-900 dark:text-slate-100';
const muted = 'text-sm text-slate-600 dark:text-slate-400';

/** "Not checked" and the backend's reason, where a card's check did not run. */
function NotCheckedNote({ item, summary }: { item: NotCheckedItem; summary: string }) {
  return (
    <div className="mt-2 space-y-1" data-testid="not-checked">
      <p className="text-sm font-semibold text-slate-700 dark:text-slate-300">
        {scanModeContent.notChecked} · {scanModeContent.cause[item.cause]}
      </p>
      <p className={muted}>{summary}</p>
      <p className={muted}>{item.reason}</p>
    </div>
  );
}

/**
 * SPEC §2: open ports, the first `limit`; `expandable` offers the rest, otherwise (the shared page)
 * an 'and N more' line counts them. `measured` false: the port scan did not finish; `notChecked`:
 * it did not run (a passive scan, an error, a timeout), which says "Not checked", never "none open".
 */
export function OpenPortsCard({
  ports,
  measured,
  notChecked,
  limit,
  expandable = true,
}: {
  ports: PortScanResultView[];
  measured: boolean;
  notChecked?: NotCheckedItem;
  limit: number;
  expandable?: boolean;
}) {
  const [showAll, setShowAll] = useState(false);
  const shown = showAll ? ports : ports.slice(0, limit);
  const hidden = ports.length - shown.length;
  return (
    <section aria-labelledby="ports-heading" className={card}>
      <h2 id="ports-heading" className={cardTitle}>
        Open Ports
      </h2>
      {notChecked ? (
        <NotCheckedNote item={notChecked} summary={scanModeContent.ports.notRun} />
      ) : !measured ? (
        <p className={`mt-2 ${muted}`}>The port scan did not finish, so open ports are not known.</p>
      ) : ports.length === 0 ? (
        <p className="mt-2 text-sm text-green-800 dark:text-green-300">No concerning open ports detected</p>
      ) : (
        <ul className="mt-3 divide-y divide-slate-100 dark:divide-slate-800">
          {shown.map((port) => (
            <li key={port.port_number} className="flex items-center justify-between gap-3 py-2 text-sm">
              <span className="min-w-0">
                <span className="font-mono font-semibold text-slate-900 dark:text-slate-100">{port.port_number}</span>{' '}
                <span className="text-slate-700 dark:text-slate-300">{port.service_name}</span>
                {port.product && (
                  <span className="block truncate text-xs text-slate-500 dark:text-slate-400">
                    {port.product}
                    {port.version ? ` ${port.version}` : ''}
                  </span>
                )}
              </span>
              <span className={`shrink-0 rounded px-2 py-0.5 text-xs font-bold uppercase ${severityClass[port.risk_level]}`}>
                {port.risk_level === 'info' ? 'open' : `${port.risk_level} risk`}
              </span>
            </li>
          ))}
        </ul>
      )}
      {hidden > 0 &&
        (expandable ? (
          <button
            type="button"
            onClick={() => setShowAll(true)}
            className="mt-2 rounded-md text-sm font-semibold text-blue-700 underline focus-visible:outline-2 focus-visible:outline-blue-700 dark:text-blue-400"
          >
            Show all {ports.length} open ports
          </button>
        ) : (
          <p className={`mt-2 ${muted}`}>and {hidden} more</p>
        ))}
    </section>
  );
}

/** SPEC §2 subdomains card: measured counts only (DECISIONS "Active subdomains"); what was not checked says so. */
export function SubdomainsCard({ dns, coverage }: { dns: AuditResultView['dns_results']; coverage: CoverageView }) {
  const measured = dns.subdomainsFound !== null;
  const notRunItem = notRun(coverage, 'subdomains');
  // A passive scan finds names but does not probe which of them answer on the web.
  const activeNotChecked = dns.activeSubdomains === null && partsNotChecked(coverage, 'subdomains').length > 0;
  return (
    <section aria-labelledby="subdomains-heading" className={card}>
      <h2 id="subdomains-heading" className={cardTitle}>
        Subdomains
      </h2>
      {notRunItem ? (
        <NotCheckedNote item={notRunItem} summary="Subdomains were not searched in this scan." />
      ) : measured ? (
        <dl className="mt-3 grid grid-cols-2 gap-3">
          <div>
            <dt className={muted}>Found</dt>
            <dd className="text-2xl font-bold text-slate-900 dark:text-slate-100">{dns.subdomainsFound}</dd>
          </div>
          <div>
            <dt className={muted}>Active</dt>
            {activeNotChecked ? (
              <dd className="text-lg font-bold text-slate-600 dark:text-slate-400">{scanModeContent.notChecked}</dd>
            ) : (
              <dd className="text-2xl font-bold text-slate-900 dark:text-slate-100">{dns.activeSubdomains ?? '—'}</dd>
            )}
          </div>
        </dl>
      ) : (
        <p className={`mt-2 ${muted}`}>
          {dns.status === 'failed' ? 'The subdomain search did not finish.' : 'Subdomains were not searched in this scan.'}
        </p>
      )}
      {measured && !notRunItem && activeNotChecked && <p className={`mt-2 ${muted}`}>{scanModeContent.subdomains.activeNotChecked}</p>}
      <p className={`mt-3 ${muted}`}>
        Active subdomains answer on the web. Every one is a door into your business: remove the ones you no longer use.
      </p>
    </section>
  );
}

/**
 * SPEC §2 password breaches card: the numbers the breach check measured, or plainly why there are
 * none (never the spec's fixed "5 checked, 2 breaches").
 */
export function BreachesCard({ breaches }: { breaches: BreachesView }) {
  let body;
  if (breaches.status === 'ok' && breaches.checked !== null) {
    const breached = breaches.breached ?? 0;
    body = (
      <>
        <dl className="mt-3 grid grid-cols-2 gap-3">
          <div>
            <dt className={muted}>Email accounts checked</dt>
            <dd className="text-2xl font-bold text-slate-900 dark:text-slate-100">{breaches.checked}</dd>
          </div>
          <div>
            <dt className={muted}>Found in breaches</dt>
            <dd className={`text-2xl font-bold ${breached > 0 ? 'text-red-700 dark:text-red-400' : 'text-green-700 dark:text-green-400'}`}>
              {breached}
            </dd>
          </div>
        </dl>
        <p className={`mt-3 ${muted}`}>
          {breached > 0
            ? 'Change the passwords of the breached accounts and turn on multi-factor authentication.'
            : 'No checked address appears in a known breach. Multi-factor authentication keeps it that way.'}
        </p>
      </>
    );
  } else {
    const reason: Record<string, string> = {
      'not-configured': 'Breach checking is not configured on this server, so no email addresses were checked.',
      error: 'The breach check could not finish, so no result is shown.',
      pending: 'The breach check has not finished yet.',
    };
    body = <p className={`mt-2 ${muted}`}>{reason[breaches.status] ?? 'Email addresses were not checked for breaches in this scan.'}</p>;
  }
  return (
    <section aria-labelledby="breaches-heading" className={card}>
      <h2 id="breaches-heading" className={cardTitle}>
        Password Breaches
      </h2>
      {body}
    </section>
  );
}

/** SPEC §2: the first 4 immediate actions (from the findings) and the 4 long-term ones. */
export function Recommendations({ recommendations, partial = false }: { recommendations: RecommendationView[]; partial?: boolean }) {
  const immediate = recommendations.filter((r) => r.priority === 'immediate').slice(0, 4);
  const longTerm = recommendations.filter((r) => r.priority === 'long-term').slice(0, 4);
  const list = (items: RecommendationView[]) => (
    <ol className="mt-3 space-y-3">
      {items.map((item, index) => (
        <li key={`${item.title}-${index}`} className="flex gap-3 text-sm">
          <span
            aria-hidden="true"
            className="flex size-6 shrink-0 items-center justify-center rounded-full bg-blue-100 text-xs font-bold text-blue-800 dark:bg-blue-900 dark:text-blue-100"
          >
            {index + 1}
          </span>
          <div className="min-w-0">
            <span className="block font-semibold text-slate-900 dark:text-slate-100">{item.title}</span>
            {item.fix ? <FixAdvice fix={item.fix} recommendation={item.action} /> : <span className="text-slate-700 dark:text-slate-300">{item.action}</span>}
          </div>
        </li>
      ))}
    </ol>
  );
  return (
    <section aria-labelledby="recommendations-heading" className="space-y-3">
      <h2 id="recommendations-heading" className="text-xl font-bold text-slate-900 dark:text-slate-100">
        Recommendations
      </h2>
      <div className="grid gap-4 md:grid-cols-2">
        <div className={card}>
          <h3 className="font-bold text-slate-900 dark:text-slate-100">Immediate actions</h3>
          {immediate.length > 0 ? list(immediate) : <p className={`mt-2 ${muted}`}>{partial ? scanModeContent.nothingToFixPartial : 'Nothing needs fixing right now.'}</p>}
        </div>
        <div className={card}>
          <h3 className="font-bold text-slate-900 dark:text-slate-100">Long-term security</h3>
          {list(longTerm)}
        </div>
      </div>
    </section>
  );
}
