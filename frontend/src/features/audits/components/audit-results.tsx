import { Link } from 'react-router';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import type { Audit } from '../../../lib/contracts';
import { Button, buttonClass } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { StatusPanel } from '../../../components/ui/status-panel';
import { isAuditRunning, useAudit } from '../api/get-audit';
import { AuditSummary } from './audit-summary';
import { ChecksTable } from './checks-table';
import { FindingsList } from './findings-list';
import { auditStatusClass, formatDate, isCheckFinished, statusLabel } from './format';

function StartNewAssessment() {
  return (
    <Link to={paths.home.getHref()} className={buttonClass('secondary')}>
      Start New Assessment
    </Link>
  );
}

function ScanProgress({ audit }: { audit: Audit }) {
  const finished = audit.checks.filter((check) => isCheckFinished(check.status)).length;
  const total = audit.checks.length;
  return (
    <section
      aria-labelledby="progress-heading"
      className="rounded-xl border border-blue-200 bg-blue-50 p-5 text-blue-950"
    >
      <h2 id="progress-heading" className="flex items-center gap-2 font-semibold">
        <Spinner className="size-4" />
        Scanning {audit.host}
      </h2>
      <p role="status" className="mt-1 text-sm">
        {total === 0 ? 'Waiting for the scanner to start…' : `${finished} of ${total} checks finished.`} This page
        updates by itself.
      </p>
      {total > 0 && (
        <progress
          value={finished}
          max={total}
          aria-label="Checks finished"
          className="mt-3 h-2 w-full overflow-hidden rounded-full [&::-moz-progress-bar]:bg-blue-700 [&::-webkit-progress-bar]:bg-blue-100 [&::-webkit-progress-value]:bg-blue-700"
        />
      )}
    </section>
  );
}

function AuditReport({ audit, refreshError }: { audit: Audit; refreshError?: string }) {
  return (
    <article className="space-y-8">
      <header className="space-y-2">
        <p className="text-sm font-semibold tracking-wide text-blue-700 uppercase">Security report</p>
        <h1 className="text-3xl font-bold tracking-tight break-all">{audit.targetUrl}</h1>
        <dl className="flex flex-wrap items-center gap-x-6 gap-y-2 text-sm text-slate-700">
          <div className="flex items-center gap-2">
            <dt className="sr-only">Status</dt>
            <dd
              data-testid="audit-status"
              className={`rounded-full px-3 py-0.5 font-semibold ring-1 ring-inset ${auditStatusClass[audit.status]}`}
            >
              {statusLabel(audit.status)}
            </dd>
          </div>
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
      </header>

      {refreshError && (
        <p role="alert" className="rounded-md border border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-900">
          Could not refresh the results: {refreshError}. Showing the last results received.
        </p>
      )}
      {isAuditRunning(audit.status) && <ScanProgress audit={audit} />}
      {audit.status === 'failed' && (
        <section role="alert" className="rounded-xl border border-red-200 bg-red-50 p-5 text-red-900">
          <h2 className="font-semibold">The scan could not finish</h2>
          <p className="mt-1 text-sm">{audit.errorMessage ?? 'The scanner stopped without saying why.'}</p>
        </section>
      )}
      {audit.status === 'completed' && <AuditSummary audit={audit} />}

      <FindingsList checks={audit.checks} />
      <ChecksTable checks={audit.checks} />
    </article>
  );
}

/** The results view for one audit id: loading, not found, failed to load, running, finished. */
export function AuditResults({ auditId }: { auditId: string }) {
  const auditQuery = useAudit(auditId);

  if (auditQuery.isPending) {
    return (
      <StatusPanel title="Loading audit results" role="status">
        <Spinner className="mt-4 size-6 text-blue-700" />
      </StatusPanel>
    );
  }

  // A failed refresh keeps the last good answer on screen rather than hiding it behind an error.
  if (auditQuery.data) {
    return <AuditReport audit={auditQuery.data} refreshError={auditQuery.error?.message} />;
  }

  if (auditQuery.error instanceof ApiError && auditQuery.error.status === 404) {
    return (
      <StatusPanel title="Audit not found" role="alert">
        <p className="mt-3 text-slate-600">There is no audit with this ID. Check the link you followed.</p>
        <div className="mt-6">
          <StartNewAssessment />
        </div>
      </StatusPanel>
    );
  }

  return (
    <StatusPanel title="Failed to load audit results" tone="error" role="alert">
      <p className="mt-3 text-slate-700">{auditQuery.error?.message}</p>
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
