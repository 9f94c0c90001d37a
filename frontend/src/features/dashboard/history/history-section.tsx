import { useId, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { TextField } from '../../../components/ui/text-field';
import { paths } from '../../../config/paths';
import { downloadCsv } from '../../../lib/csv';
import { reportProductName, reportProducts } from '../../../lib/catalogue';
import type { AuditHistoryEntry } from '../../../lib/contracts';
import { useMyAuditPages } from '../../account/api/audits';
import { auditStatusClass, formatDate, scoreClass } from '../../audits/components/format';
import {
  DEFAULT_SORT,
  filterAudits,
  formatSeconds,
  historyCsv,
  historyCsvFileName,
  NO_FILTERS,
  paginate,
  sortAudits,
  statusText,
  type HistoryFilters,
  type HistorySort,
  type RiskFilter,
  type SortKey,
  type StatusFilter,
  type TierFilter,
} from './audit-list';
import { FilterSelect, type FilterOption } from './filter-select';
import { ListLoadError, ListSkeleton } from './list-states';

const statusOptions: readonly FilterOption<StatusFilter>[] = [
  { value: 'all', label: 'All statuses' },
  { value: 'queued', label: 'queued' },
  { value: 'in_progress', label: 'in progress' },
  { value: 'completed', label: 'completed' },
  { value: 'failed', label: 'failed' },
];

/** The kinds of report, named from the plan catalogue ('Free report', 'Basic Audit', 'Pro Audit'). */
const tierOptions: readonly FilterOption<TierFilter>[] = [{ value: 'all', label: 'All reports' }, ...reportProducts.map((product) => ({ value: product, label: reportProductName(product) }))];

const riskOptions: readonly FilterOption<RiskFilter>[] = [
  { value: 'all', label: 'All risk levels' },
  { value: 'low', label: 'Low' },
  { value: 'medium', label: 'Medium' },
  { value: 'high', label: 'High' },
];

const sortOptions: readonly FilterOption<SortKey>[] = [
  { value: 'date', label: 'Date' },
  { value: 'domain', label: 'Domain' },
  { value: 'score', label: 'Risk Score' },
];


const isFiltered = (filters: HistoryFilters) =>
  filters.search.trim() !== '' || filters.status !== 'all' || filters.tier !== 'all' || filters.risk !== 'all';

/**
 * SPEC "Audit History page": the user's audits searched, filtered, sorted, paged by 10 and exported.
 * They come from the server a page at a time, newest first: search, filters, sort and export cover
 * the audits loaded so far, and the page says so while older ones remain to load.
 */
export function HistorySection() {
  const titleId = useId();
  const audits = useMyAuditPages();
  const [filters, setFilters] = useState<HistoryFilters>(NO_FILTERS);
  const [sort, setSort] = useState<HistorySort>(DEFAULT_SORT);
  const [page, setPage] = useState(1);

  const loaded = useMemo(() => audits.data?.pages.flatMap((serverPage) => serverPage.audits) ?? [], [audits.data]);
  const shown = useMemo(() => sortAudits(filterAudits(loaded, filters), sort), [loaded, filters, sort]);
  const view = paginate(shown, page);
  const refreshing = audits.isFetching && !audits.isPending && !audits.isFetchingNextPage;

  // Any change to what is shown starts again on page 1.
  const changeFilter = <K extends keyof HistoryFilters>(key: K, value: HistoryFilters[K]) => {
    setFilters((previous) => ({ ...previous, [key]: value }));
    setPage(1);
  };
  const changeSort = (next: HistorySort) => {
    setSort(next);
    setPage(1);
  };
  const clearFilters = () => {
    setFilters(NO_FILTERS);
    setPage(1);
  };

  return (
    <section aria-labelledby={titleId} className="space-y-6">
      <header className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <h1 id={titleId} className="text-2xl font-bold text-slate-900 dark:text-slate-100">
            Audit History
          </h1>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">Every security audit run for your domains.</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" onClick={() => void audits.refetch()} disabled={audits.isFetching}>
            {refreshing && <Spinner className="size-4" />}
            {refreshing ? 'Refreshing...' : 'Refresh'}
          </Button>
          <Button onClick={() => downloadCsv(historyCsvFileName(), historyCsv(shown))} disabled={shown.length === 0}>
            Export CSV
          </Button>
        </div>
      </header>

      <div className="grid gap-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-2 lg:grid-cols-6 dark:border-slate-700 dark:bg-slate-900">
        <TextField
          label="Search by domain"
          type="search"
          placeholder="example.com"
          value={filters.search}
          onChange={(event) => changeFilter('search', event.target.value)}
          className="sm:col-span-2"
        />
        <FilterSelect label="Status" value={filters.status} options={statusOptions} onChange={(value) => changeFilter('status', value)} />
        <FilterSelect label="Tier" value={filters.tier} options={tierOptions} onChange={(value) => changeFilter('tier', value)} />
        <FilterSelect label="Risk" value={filters.risk} options={riskOptions} onChange={(value) => changeFilter('risk', value)} />
        <div>
          <FilterSelect label="Sort by" value={sort.key} options={sortOptions} onChange={(key) => changeSort({ ...sort, key })} />
          <Button
            variant="secondary"
            className="mt-2 w-full"
            aria-label={`Sort order: ${sort.direction === 'asc' ? 'Ascending' : 'Descending'}`}
            onClick={() => changeSort({ ...sort, direction: sort.direction === 'asc' ? 'desc' : 'asc' })}
          >
            {sort.direction === 'asc' ? 'Ascending' : 'Descending'}
            <span aria-hidden="true">{sort.direction === 'asc' ? '↑' : '↓'}</span>
          </Button>
        </div>
      </div>

      {audits.isPending ? (
        <ListSkeleton label="Loading audit history…" />
      ) : audits.isError && !audits.data ? (
        <ListLoadError title="Could not load your audit history." message={audits.error.message} onRetry={() => void audits.refetch()} retrying={audits.isFetching} />
      ) : (
        <>
          {audits.isError && !audits.isFetchNextPageError && (
            <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-4 py-2 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200">
              Could not refresh the audit history: {audits.error.message}
            </p>
          )}
          {view.total === 0 ? (
            <EmptyState filtered={isFiltered(filters)} olderToLoad={audits.hasNextPage} onClear={clearFilters} />
          ) : (
            <>
              <AuditTable audits={view.rows} sort={sort} busy={refreshing} />
              <nav aria-label="Audit history pages" className="flex flex-wrap items-center justify-between gap-3 text-sm text-slate-700 dark:text-slate-300">
                <p>
                  Showing {view.first}–{view.last} of {view.total} {view.total === 1 ? 'audit' : 'audits'}
                </p>
                <div className="flex items-center gap-3">
                  <Button variant="secondary" onClick={() => setPage(view.page - 1)} disabled={view.page <= 1}>
                    Previous
                  </Button>
                  <span aria-live="polite">
                    Page {view.page} of {view.pageCount}
                  </span>
                  <Button variant="secondary" onClick={() => setPage(view.page + 1)} disabled={view.page >= view.pageCount}>
                    Next
                  </Button>
                </div>
              </nav>
            </>
          )}
          {audits.hasNextPage && (
            <OlderAudits
              loaded={loaded.length}
              loading={audits.isFetchingNextPage}
              error={audits.isFetchNextPageError ? audits.error.message : undefined}
              onLoad={() => void audits.fetchNextPage()}
            />
          )}
        </>
      )}
    </section>
  );
}

/** The way to the older audits, and why the counts above are of the loaded ones only. */
function OlderAudits({ loaded, loading, error, onLoad }: { loaded: number; loading: boolean; error: string | undefined; onLoad: () => void }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-slate-200 bg-white p-4 text-sm text-slate-700 shadow-sm dark:border-slate-700 dark:bg-slate-900 dark:text-slate-300">
      <p>
        Your {loaded} most recent audits are loaded. Search, filters, sorting and the export cover these; load older audits to include them.
      </p>
      {error !== undefined && (
        <p role="alert" className="w-full text-red-800 dark:text-red-200">
          Could not load older audits: {error}
        </p>
      )}
      <Button variant="secondary" onClick={onLoad} disabled={loading}>
        {loading && <Spinner className="size-4" />}
        {loading ? 'Loading...' : 'Load older audits'}
      </Button>
    </div>
  );
}

const sortColumn: Record<SortKey, string> = { date: 'Date', domain: 'Domain', score: 'Risk Score' };
const columns = ['Date', 'Domain', 'Tier', 'Status', 'Risk Score', 'Issues', 'Duration'] as const;

function AuditTable({ audits, sort, busy }: { audits: AuditHistoryEntry[]; sort: HistorySort; busy: boolean }) {
  const ariaSort = sort.direction === 'asc' ? 'ascending' : 'descending';
  return (
    // relative: the sr-only caption and headers are absolutely placed; without a positioned box here they
    // escape the scroll box and widen the whole page on a phone.
    <div className="relative overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm dark:border-slate-700 dark:bg-slate-900">
      <table aria-busy={busy} className={`min-w-full divide-y divide-slate-200 text-left text-sm dark:divide-slate-700 ${busy ? 'opacity-60' : ''}`}>
        <caption className="sr-only">
          Audit history, sorted by {sortColumn[sort.key].toLowerCase()}, {ariaSort}
        </caption>
        <thead className="bg-slate-50 dark:bg-slate-800">
          <tr>
            {columns.map((column) => (
              <th
                key={column}
                scope="col"
                aria-sort={sortColumn[sort.key] === column ? ariaSort : undefined}
                className="px-4 py-3 font-semibold whitespace-nowrap text-slate-700 dark:text-slate-200"
              >
                {column}
              </th>
            ))}
            <th scope="col" className="px-4 py-3 font-semibold text-slate-700 dark:text-slate-200">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200 text-slate-800 dark:divide-slate-700 dark:text-slate-200">
          {audits.map((audit) => (
            <tr key={audit.id}>
              <td className="px-4 py-3 whitespace-nowrap">
                <time dateTime={audit.scanDate}>{formatDate(audit.scanDate)}</time>
              </td>
              <th scope="row" className="px-4 py-3 font-medium break-all text-slate-900 dark:text-slate-100">
                {audit.domain}
              </th>
              <td className="px-4 py-3">{reportProductName(audit.product)}</td>
              <td className="px-4 py-3 whitespace-nowrap">
                <span className={`inline-flex rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset ${auditStatusClass[audit.status]}`}>
                  {statusText(audit.status)}
                </span>
              </td>
              <td className="px-4 py-3">
                {audit.riskScore === null ? (
                  <span className="text-slate-500 dark:text-slate-400">—</span>
                ) : (
                  <span className={`font-semibold ${scoreClass(audit.riskScore)}`}>{audit.riskScore}</span>
                )}
              </td>
              <td className="px-4 py-3 whitespace-nowrap">
                {audit.findings.totalIssues}
                {audit.findings.criticalIssues > 0 && (
                  <span className="text-red-700 dark:text-red-400"> ({audit.findings.criticalIssues} critical)</span>
                )}
              </td>
              <td className="px-4 py-3 whitespace-nowrap">{formatSeconds(audit.scanDuration)}</td>
              <td className="px-4 py-3 whitespace-nowrap">
                <div className="flex gap-3">
                  <Link
                    to={paths.results.getHref(audit.id)}
                    aria-label={`View Report for ${audit.domain}`}
                    className="font-semibold text-blue-700 hover:underline dark:text-blue-400"
                  >
                    View Report
                  </Link>
                  {audit.status === 'completed' && (
                    <a href={audit.pdfUrl} aria-label={`PDF report for ${audit.domain}`} className="font-semibold text-blue-700 hover:underline dark:text-blue-400">
                      PDF
                    </a>
                  )}
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function EmptyState({ filtered, olderToLoad, onClear }: { filtered: boolean; olderToLoad: boolean; onClear: () => void }) {
  return (
    <div className="rounded-xl border border-dashed border-slate-300 bg-white p-10 text-center dark:border-slate-600 dark:bg-slate-900">
      <p className="text-lg font-semibold text-slate-900 dark:text-slate-100">No audits found</p>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        {filtered ? `No ${olderToLoad ? 'loaded ' : ''}audit matches this search and these filters.` : 'Audits you run appear here.'}
      </p>
      {filtered && (
        <Button variant="secondary" className="mt-4" onClick={onClear}>
          Clear Filters
        </Button>
      )}
    </div>
  );
}
