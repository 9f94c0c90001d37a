import { useCallback, useId, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { Button, buttonClass } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';
import { paths } from '../../../config/paths';
import { reportProductName, reportProducts } from '../../../lib/catalogue';
import type { AuditHistoryEntry } from '../../../lib/contracts';
import { useMyAudits } from '../../account/api/audits';
import { auditStatusClass, formatDate, scoreClass } from '../../audits/components/format';
import { filterAudits, NO_FILTERS, statusText, type TierFilter } from '../history/audit-list';
import { FilterSelect, type FilterOption } from '../history/filter-select';
import { ListLoadError, ListSkeleton } from '../history/list-states';
import { EmailModal } from './email-modal';
import { summariseScans } from './scan-summary';
import { ShareModal } from './share-modal';

/** The kinds of report, named from the plan catalogue ('Free report', 'Basic Audit', 'Pro Audit'). */
const scanTypeOptions: readonly FilterOption<TierFilter>[] = [{ value: 'all', label: 'All scans' }, ...reportProducts.map((product) => ({ value: product, label: reportProductName(product) }))];

type OpenDialog = { kind: 'share' | 'email'; audit: AuditHistoryEntry };

/** SPEC "Scans page": summary cards, search, the scan-type filter and a row per scan with View Report, Share and Email. */
export function ScansSection() {
  const titleId = useId();
  const audits = useMyAudits();
  const [search, setSearch] = useState('');
  const [tier, setTier] = useState<TierFilter>('all');
  const [dialog, setDialog] = useState<OpenDialog | undefined>();
  const closeDialog = useCallback(() => setDialog(undefined), []);

  const all = useMemo(() => audits.data ?? [], [audits.data]);
  const summary = useMemo(() => summariseScans(all), [all]);
  const shown = useMemo(() => filterAudits(all, { ...NO_FILTERS, search, tier }), [all, search, tier]);

  return (
    <section aria-labelledby={titleId} className="space-y-6">
      <header className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <h1 id={titleId} className="text-2xl font-bold text-slate-900 dark:text-slate-100">
            Security Scans
          </h1>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">Your scans, their reports, and links to share them.</p>
        </div>
        <Link to={paths.dashboard.root.getHref()} className={buttonClass()}>
          New Scan
        </Link>
      </header>

      {audits.isPending ? (
        <ListSkeleton label="Loading scans…" />
      ) : audits.isError && !audits.data ? (
        <ListLoadError title="Could not load your scans." message={audits.error.message} onRetry={() => void audits.refetch()} retrying={audits.isFetching} />
      ) : (
        <>
          <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            <SummaryCard label="Total Scans" value={String(summary.total)} />
            <SummaryCard label="Completed" value={String(summary.completed)} />
            <SummaryCard
              label="Average Score"
              value={summary.averageScore === null ? '—' : String(summary.averageScore)}
              valueClass={summary.averageScore === null ? undefined : scoreClass(summary.averageScore)}
            />
            <SummaryCard
              label="Critical Issues"
              value={String(summary.criticalIssues)}
              valueClass={summary.criticalIssues > 0 ? 'text-red-700 dark:text-red-400' : undefined}
            />
          </dl>

          <div className="grid gap-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-3 dark:border-slate-700 dark:bg-slate-900">
            <TextField
              label="Search scans"
              type="search"
              placeholder="example.com"
              value={search}
              onChange={(event) => setSearch(event.target.value)}
              className="sm:col-span-2"
            />
            <FilterSelect label="Scan type" value={tier} options={scanTypeOptions} onChange={setTier} />
          </div>

          {shown.length === 0 ? (
            <div className="rounded-xl border border-dashed border-slate-300 bg-white p-10 text-center dark:border-slate-600 dark:bg-slate-900">
              {all.length === 0 ? (
                <>
                  <p className="text-lg font-semibold text-slate-900 dark:text-slate-100">No scans yet</p>
                  <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">Start one with New Scan; it appears here with its report.</p>
                </>
              ) : (
                <>
                  <p className="text-lg font-semibold text-slate-900 dark:text-slate-100">No scans found</p>
                  <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">No scan matches this search and scan type.</p>
                </>
              )}
            </div>
          ) : (
            <ul aria-label="Scans" className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white shadow-sm dark:divide-slate-700 dark:border-slate-700 dark:bg-slate-900">
              {shown.map((audit) => (
                <ScanRow key={audit.id} audit={audit} onShare={() => setDialog({ kind: 'share', audit })} onEmail={() => setDialog({ kind: 'email', audit })} />
              ))}
            </ul>
          )}
        </>
      )}

      {dialog?.kind === 'share' && <ShareModal key={dialog.audit.id} audit={dialog.audit} onClose={closeDialog} />}
      {dialog?.kind === 'email' && <EmailModal key={dialog.audit.id} audit={dialog.audit} onClose={closeDialog} />}
    </section>
  );
}

function SummaryCard({ label, value, valueClass = 'text-slate-900 dark:text-slate-100' }: { label: string; value: string; valueClass?: string }) {
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-700 dark:bg-slate-900">
      <dt className="text-sm font-medium text-slate-600 dark:text-slate-400">{label}</dt>
      <dd className={`mt-1 text-3xl font-bold ${valueClass}`}>{value}</dd>
    </div>
  );
}

function ScanRow({ audit, onShare, onEmail }: { audit: AuditHistoryEntry; onShare: () => void; onEmail: () => void }) {
  const hintId = useId();
  const completed = audit.status === 'completed';
  return (
    <li className="flex flex-col gap-3 p-4 md:flex-row md:items-center md:justify-between">
      <div className="min-w-0">
        <p className="font-semibold break-all text-slate-900 dark:text-slate-100">{audit.domain}</p>
        <p className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-600 dark:text-slate-400">
          <time dateTime={audit.scanDate}>{formatDate(audit.scanDate)}</time>
          <span>{reportProductName(audit.product)}</span>
          <span className={`inline-flex rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset ${auditStatusClass[audit.status]}`}>
            {statusText(audit.status)}
          </span>
          <span>
            Score{' '}
            {audit.riskScore === null ? (
              '—'
            ) : (
              <span className={`font-semibold ${scoreClass(audit.riskScore)}`}>{audit.riskScore}</span>
            )}
          </span>
          {audit.badgeEligible && (
            <Link
              to={paths.dashboard.section.getHref('badge')}
              className="inline-flex rounded-full bg-green-50 px-2 py-0.5 text-xs font-semibold text-green-800 ring-1 ring-green-600/30 ring-inset dark:bg-green-950 dark:text-green-300"
            >
              Badge eligible
            </Link>
          )}
        </p>
        {!completed && (
          <p id={hintId} className="mt-1 text-xs text-slate-500 dark:text-slate-400">
            Share and Email open once the scan has completed.
          </p>
        )}
      </div>
      <div className="flex flex-wrap gap-2">
        <Link to={paths.results.getHref(audit.id)} aria-label={`View Report for ${audit.domain}`} className={buttonClass('secondary')}>
          View Report
        </Link>
        <Button variant="secondary" onClick={onShare} disabled={!completed} aria-label={`Share report for ${audit.domain}`}
          aria-describedby={completed ? undefined : hintId}
        >
          Share
        </Button>
        <Button variant="secondary" onClick={onEmail} disabled={!completed} aria-label={`Email report for ${audit.domain}`}
          aria-describedby={completed ? undefined : hintId}
        >
          Email
        </Button>
      </div>
    </li>
  );
}
