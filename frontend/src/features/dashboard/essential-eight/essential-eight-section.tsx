import { useId } from 'react';
import { Link, useSearchParams } from 'react-router';
import { content } from '../../../config/content';
import {
  ESSENTIAL_EIGHT_DISCLAIMER,
  type EssentialEightEvidence,
  type EssentialEightStatus,
  type EssentialEightStrategyView,
  type EssentialEightView,
} from '../../../lib/contracts';
import { useDomains } from '../../account/api/domains';
import { ListLoadError, ListSkeleton } from '../history/list-states';
import { sectionHref } from '../sections';
import { useEssentialEight } from './api/essential-eight';

const card = 'rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-700 dark:bg-slate-900';

/** Status pills: the label is always written out, the colour only repeats it (contrast ≥ 4.5:1 both themes). */
const STATUS_STYLES: Record<EssentialEightStatus, string> = {
  'evidence-for': 'border-emerald-300 bg-emerald-50 text-emerald-900 dark:border-emerald-700 dark:bg-emerald-950 dark:text-emerald-100',
  'evidence-against': 'border-red-300 bg-red-50 text-red-900 dark:border-red-700 dark:bg-red-950 dark:text-red-100',
  'not-assessable': 'border-slate-300 bg-slate-100 text-slate-800 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100',
};

const EFFECT_LABELS: Record<EssentialEightEvidence['effect'], string> = { against: 'Against', for: 'For', neutral: 'Note' };
const EFFECT_STYLES: Record<EssentialEightEvidence['effect'], string> = {
  against: 'text-red-800 dark:text-red-300',
  for: 'text-emerald-800 dark:text-emerald-300',
  neutral: 'text-slate-700 dark:text-slate-300',
};

const dateFormat = new Intl.DateTimeFormat('en-AU', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
const formatDate = (iso: string) => dateFormat.format(new Date(iso));
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Issue 21: the Essential Eight readiness view (Maturity Level One) of one of the user's domains. */
export function EssentialEightSection() {
  const domains = useDomains();
  const [search, setSearch] = useSearchParams();
  const pickerId = useId();
  const list = domains.data ?? [];
  const asked = search.get('domain');
  const domain = list.find((d) => d.domain === asked)?.domain ?? list[0]?.domain;
  const view = useEssentialEight(domain);

  return (
    <div className="space-y-6">
      <title>{`Essential Eight — ${content.productName}`}</title>
      <h1 className="text-2xl font-bold">Essential Eight readiness</h1>
      <p className="max-w-3xl text-slate-700 dark:text-slate-300">
        How what we observed of your site and your computers lines up with the ACSC Essential Eight at Maturity Level One, strategy by strategy, and how to check what cannot
        be seen from outside.
      </p>
      <p role="note" className="max-w-3xl rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
        {ESSENTIAL_EIGHT_DISCLAIMER}
      </p>

      {domains.isPending ? (
        <ListSkeleton label="Loading your domains…" rows={2} />
      ) : domains.isError ? (
        <ListLoadError title="Your domains could not be loaded" message={domains.error.message} onRetry={() => void domains.refetch()} retrying={domains.isFetching} />
      ) : list.length === 0 ? (
        <section className={card} aria-labelledby="e8-no-domains">
          <h2 id="e8-no-domains" className="text-lg font-semibold">
            No domains yet
          </h2>
          <p className="mt-2 text-sm text-slate-700 dark:text-slate-300">
            <Link to={`${sectionHref('settings')}?tab=domains`} className="font-semibold text-blue-700 hover:underline dark:text-blue-400">
              Add and verify a domain
            </Link>{' '}
            and scan it to see its Essential Eight readiness.
          </p>
        </section>
      ) : (
        <>
          <div className="flex flex-wrap items-center gap-3">
            <label htmlFor={pickerId} className="text-sm font-semibold">
              Domain
            </label>
            <select
              id={pickerId}
              value={domain}
              onChange={(event) => setSearch({ domain: event.target.value }, { replace: true })}
              className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm dark:border-slate-600 dark:bg-slate-900"
            >
              {list.map((d) => (
                <option key={d.id} value={d.domain}>
                  {d.domain}
                </option>
              ))}
            </select>
          </div>
          {view.isPending ? (
            <ListSkeleton label="Loading the Essential Eight view…" rows={8} />
          ) : view.isError ? (
            <ListLoadError title="The Essential Eight view could not be loaded" message={view.error.message} onRetry={() => void view.refetch()} retrying={view.isFetching} />
          ) : (
            <EssentialEightReadiness view={view.data} />
          )}
        </>
      )}
    </div>
  );
}

/** The Eight with their status, what was seen and how to check; the page's data, apart so it renders from any view. */
export function EssentialEightReadiness({ view }: { view: EssentialEightView }) {
  const count = (status: EssentialEightStatus) => view.strategies.filter((s) => s.status === status).length;
  const scan = view.sources.webScan;
  const { reporting, total } = view.sources.agents;

  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-700 dark:text-slate-300" data-testid="e8-sources">
        {scan ? `Based on the web scan of ${formatDate(scan.completedAt)}` : 'No completed web scan of this domain yet'}
        {total > 0 ? ` and ${reporting} of ${plural(total, 'endpoint agent')} reporting.` : ' and no endpoint agents.'}
      </p>
      <p className="text-sm font-semibold" data-testid="e8-summary">
        {plural(count('evidence-against'), 'strategy', 'strategies')} with evidence against · {count('evidence-for')} with evidence for · {count('not-assessable')} cannot be
        assessed from outside
      </p>
      <ul className="space-y-4">
        {view.strategies.map((strategy) => (
          <StrategyCard key={strategy.id} strategy={strategy} />
        ))}
      </ul>
    </div>
  );
}

function StrategyCard({ strategy }: { strategy: EssentialEightStrategyView }) {
  const headingId = `e8-${strategy.id}`;
  return (
    <li>
      <section className={card} aria-labelledby={headingId} data-status={strategy.status}>
        <div className="flex flex-wrap items-start justify-between gap-3">
          <h2 id={headingId} className="text-lg font-semibold">
            {strategy.title}
          </h2>
          <span className={`rounded-full border px-3 py-1 text-sm font-semibold ${STATUS_STYLES[strategy.status]}`}>{strategy.statusLabel}</span>
        </div>
        <p className="mt-2 text-sm text-slate-700 dark:text-slate-300">
          <span className="font-semibold">Maturity Level One: </span>
          {strategy.requirement}
        </p>
        <h3 className="mt-4 text-sm font-semibold">What we saw</h3>
        {strategy.evidence.length === 0 ? (
          <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">Nothing our scan or agents can observe bears on this strategy.</p>
        ) : (
          <ul className="mt-1 space-y-2 text-sm" aria-label={`What we saw: ${strategy.title}`}>
            {strategy.evidence.map((item, index) => (
              <li key={`${item.findingId ?? item.source}-${index}`}>
                <span className={`font-semibold ${EFFECT_STYLES[item.effect]}`}>{EFFECT_LABELS[item.effect]}: </span>
                {item.what}
                <span className="block text-xs text-slate-600 dark:text-slate-400">{item.where}</span>
              </li>
            ))}
          </ul>
        )}
        <h3 className="mt-4 text-sm font-semibold">How to check</h3>
        <ol className="mt-1 list-decimal space-y-1 pl-5 text-sm text-slate-700 dark:text-slate-300" aria-label={`How to check: ${strategy.title}`}>
          {strategy.howToCheck.map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
      </section>
    </li>
  );
}
