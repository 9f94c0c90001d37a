import { lazy, Suspense, useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Button, buttonClass } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { StatusPanel } from '../../../components/ui/status-panel';
import { paths } from '../../../config/paths';
import { scanModeContent } from '../../../config/scan-modes';
import { ApiError } from '../../../lib/api-client';
import type { Audit, AuditResultView } from '../../../lib/contracts';
import { useCreateShare } from '../api/create-share';
import { isAuditRunning, useAudit } from '../api/get-audit';
import { ChecksTable } from './checks-table';
import { auditStatusClass, formatDate, isCheckFinished, statusLabel } from './format';
import { PremiumBanner } from './premium-banner';
import { Counters, RiskBanner, ScoreCard } from './report-overview';
import { NotCheckedList, ScanModeNotice } from './scan-coverage';
import { ShareButton, ShareLinkPanel } from './share-report';
import { SiteAccessPanel } from './site-access';
import { SupersedeLinks } from './supersede-links';
import { ProvidersLine } from './platform-fix';

/*
 * The score first (issue 29 item 15): this module carries what a finished report shows down to its
 * score and counters, and no schema; the rest of the report (report-details.tsx) and the email
 * dialog are their own chunks, with the contracts (zod, libphonenumber) their forms use.
 */
const ReportDetails = lazy(() => import('./report-details').then((module) => ({ default: module.ReportDetails })));
const EmailReportDialog = lazy(() => import('./email-report-dialog').then((module) => ({ default: module.EmailReportDialog })));

/** While the rest of a finished report loads, below its score. */
function DetailsLoading() {
  return (
    <div role="status" className="flex items-center justify-center gap-2 py-8 text-sm text-slate-600 dark:text-slate-400">
      <Spinner className="size-5" />
      Loading the findings…
    </div>
  );
}

/**
 * Where the report is shown: `public` at /results/{id}; `dashboard` inside the signed-in area;
 * `shared` (?shared=true) read-only, without the share and dashboard controls (DECISIONS "Sharing").
 */
export type ResultsMode = 'public' | 'dashboard' | 'shared';

/** SPEC §8 "Results": the API answered with a failure; the detail under it is the server's message or 'HTTP {status}'. */
export const FETCH_FAILED = 'Failed to fetch audit results';

function StartNewAssessment() {
  return (
    <Link to={paths.home.getHref()} className={buttonClass('secondary')}>
      Start New Assessment
    </Link>
  );
}

function ScanProgress({ audit, result }: { audit: Audit; result?: AuditResultView }) {
  const finished = audit.checks.filter((check) => isCheckFinished(check.status));
  const mode = result?.scan_mode ?? audit.mode;
  return (
    <section
      aria-labelledby="progress-heading"
      className="rounded-xl border border-blue-200 bg-blue-50 p-5 text-blue-950 dark:border-blue-800 dark:bg-blue-950 dark:text-blue-100"
    >
      <h2 id="progress-heading" className="flex items-center gap-2 font-semibold">
        <Spinner className="size-4" />
        Scanning {audit.host}
      </h2>
      {mode && <p className="mt-1 text-sm font-semibold">{scanModeContent.scanning[mode]}</p>}
      <p role="status" className="mt-1 text-sm">
        {finished.length === 0
          ? 'Waiting for the first check to finish…'
          : `${finished.length} ${finished.length === 1 ? 'check' : 'checks'} finished.`}{' '}
        This page updates by itself.
      </p>
      {finished.length > 0 && (
        <ul className="mt-3 flex flex-wrap gap-2" aria-label="Finished checks">
          {finished.map((check) => (
            <li key={check.name} className="rounded-full bg-white px-3 py-0.5 font-mono text-xs text-blue-900 ring-1 ring-blue-200 dark:bg-blue-900 dark:text-blue-100 dark:ring-blue-700">
              {check.name} {check.status === 'ok' ? '✓' : `· ${statusLabel(check.status)}`}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function ReportHeader({ audit, result }: { audit: Audit; result?: AuditResultView }) {
  return (
    <header className="space-y-2">
      <p className="text-sm font-semibold tracking-wide text-blue-700 uppercase dark:text-blue-400">Security report</p>
      <h1 className="text-2xl font-bold tracking-tight wrap-anywhere text-slate-900 sm:text-3xl dark:text-slate-100">{audit.targetUrl}</h1>
      <dl className="flex flex-wrap items-center gap-x-6 gap-y-2 text-sm text-slate-700 dark:text-slate-300">
        <div className="flex items-center gap-2">
          <dt className="sr-only">Status</dt>
          <dd
            data-testid="audit-status"
            className={`rounded-full px-3 py-0.5 font-semibold ring-1 ring-inset ${auditStatusClass[audit.status]}`}
          >
            {statusLabel(audit.status)}
          </dd>
        </div>
        {result?.business_name && (
          <div className="flex gap-1">
            <dt>Business:</dt>
            <dd>{result.business_name}</dd>
          </div>
        )}
        {/* The API adds `leads` only for the signed-in owner (DECISIONS "Public audit view"). */}
        {result?.leads && (
          <div className="flex gap-1" data-testid="audit-requested-by">
            <dt>Requested by</dt>
            <dd className="wrap-anywhere">{`${result.leads.first_name} ${result.leads.last_name} (${result.leads.email})`}</dd>
          </div>
        )}
        <div className="flex gap-1">
          <dt>Host:</dt>
          <dd className="font-mono">{audit.host}</dd>
        </div>
        <div className="flex gap-1">
          <dt>Started:</dt>
          <dd>{formatDate(audit.createdAt)}</dd>
        </div>
        {audit.completedAt && !isAuditRunning(audit.status) && (
          <div className="flex gap-1">
            <dt>Finished:</dt>
            <dd>{formatDate(audit.completedAt)}</dd>
          </div>
        )}
      </dl>
      {result?.sample && (
        <p className="rounded-md border border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100">
          This is a sample report with made-up data for an example site. It is not a scan of anyone&apos;s website.
        </p>
      )}
    </header>
  );
}

function CompletedReport({ audit, result, mode }: { audit: Audit; result: AuditResultView; mode: ResultsMode }) {
  const share = useCreateShare(audit.id);
  const [emailing, setEmailing] = useState(false);
  // The details' chunk is asked for once the score is on screen, so it never holds the score back.
  const [scoreShown, setScoreShown] = useState(false);
  useEffect(() => setScoreShown(true), []);
  const readOnly = mode === 'shared';
  // The API sends a report only for its signed-in owner (or a share link's holder, on the shared
  // page); the owner is who it gives the `leads` block to. Anyone else is not offered the button.
  const mayEmail = !readOnly && result.leads !== undefined && !result.sample;
  return (
    <>
      <div className="flex flex-wrap gap-3">
        {!readOnly && <ShareButton share={share} label="Share Report" />}
        {mayEmail && (
          <Button variant="secondary" onClick={() => setEmailing(true)}>
            Email Report
          </Button>
        )}
        <a
          href={paths.reports.pdfHref(audit.id)}
          target="_blank"
          rel="noopener"
          className={buttonClass('primary')}
        >
          Download PDF Report
        </a>
      </div>
      {emailing && (
        <Suspense fallback={null}>
          <EmailReportDialog auditId={audit.id} description={audit.host} onClose={() => setEmailing(false)} />
        </Suspense>
      )}
      {!readOnly && <ShareLinkPanel share={share} />}

      <SiteAccessPanel access={result.site_access} />
      <ScanModeNotice coverage={result.coverage} />
      <RiskBanner riskLevel={result.risk_level} partial={result.coverage.partial} />
      <ScoreCard result={result} />
      <ProvidersLine providers={result.providers} />
      <Counters counters={result.counters} coverage={result.coverage} />
      <NotCheckedList coverage={result.coverage} groups={result.not_checked_groups} />
      {scoreShown ? (
        <Suspense fallback={<DetailsLoading />}>
          <ReportDetails audit={audit} result={result} mode={mode} share={share} />
        </Suspense>
      ) : (
        <DetailsLoading />
      )}
    </>
  );
}

function AuditReport({
  audit,
  result,
  mode,
  refreshError,
}: {
  audit: Audit;
  result?: AuditResultView;
  mode: ResultsMode;
  refreshError?: string;
}) {
  return (
    <article className="space-y-8">
      <ReportHeader audit={audit} result={result} />
      {mode !== 'shared' && <SupersedeLinks audit={audit} result={result} mode={mode} />}
      <PremiumBanner audit={audit} result={result} />

      {refreshError && (
        <p role="alert" className="rounded-md border border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100">
          Could not refresh the results: {refreshError}. Showing the last results received.
        </p>
      )}
      {isAuditRunning(audit.status) && <ScanProgress audit={audit} result={result} />}
      {audit.status === 'failed' && (
        <section role="alert" className="rounded-xl border border-red-200 bg-red-50 p-5 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100">
          <h2 className="font-semibold">The scan could not finish</h2>
          <p className="mt-1 text-sm">{audit.errorMessage ?? 'The scanner stopped without saying why.'}</p>
          <div className="mt-4">
            <StartNewAssessment />
          </div>
        </section>
      )}
      {audit.status === 'completed' &&
        (result ? (
          <CompletedReport audit={audit} result={result} mode={mode} />
        ) : (
          <StatusPanel title="No Audit Data">
            <p className="mt-3 text-slate-600 dark:text-slate-400">This audit finished, but its report is not available.</p>
          </StatusPanel>
        ))}

      <ChecksTable checks={audit.checks} open={audit.status !== 'completed'} />
    </article>
  );
}

/** The results view for one audit id: loading, not found, failed to load, running, finished. */
export function AuditResults({ auditId, mode = 'public' }: { auditId: string; mode?: ResultsMode }) {
  const [search] = useSearchParams();
  // The payment's redirect (DECISIONS "/success vs /payment-success"): read the audit again until its
  // stored state says premium. The flag itself shows nothing: the banner and the offer follow the stored state.
  const auditQuery = useAudit(auditId, { awaitPremium: search.get('premium') === 'true' });

  if (auditQuery.isPending) {
    return (
      <StatusPanel title="Loading audit results" role="status">
        <Spinner className="mt-4 size-6 text-blue-700" />
      </StatusPanel>
    );
  }

  // A failed refresh keeps the last good answer on screen rather than hiding it behind an error.
  if (auditQuery.data) {
    return (
      <AuditReport
        audit={auditQuery.data.audit}
        result={auditQuery.data.result}
        mode={mode}
        refreshError={auditQuery.error?.message}
      />
    );
  }

  if (auditQuery.error instanceof ApiError && auditQuery.error.status === 404) {
    return (
      <StatusPanel title="Audit not found" role="alert">
        <p className="mt-3 text-slate-600 dark:text-slate-400">There is no audit with this ID. Check the link you followed.</p>
        <div className="mt-6">
          <StartNewAssessment />
        </div>
      </StatusPanel>
    );
  }

  return (
    <StatusPanel title="Failed to load audit results" tone="error" role="alert">
      {auditQuery.error instanceof ApiError && (
        <p className="mt-3 font-medium text-slate-800 dark:text-slate-200">{FETCH_FAILED}</p>
      )}
      <p className="mt-3 text-slate-700 dark:text-slate-300">{auditQuery.error?.message}</p>
      <div className="mt-6 flex flex-wrap justify-center gap-3">
        <Button onClick={() => void auditQuery.refetch()} disabled={auditQuery.isFetching}>
          {auditQuery.isFetching && <Spinner className="size-4" />}
          Try Again
        </Button>
        <StartNewAssessment />
      </div>
    </StatusPanel>
  );
}
