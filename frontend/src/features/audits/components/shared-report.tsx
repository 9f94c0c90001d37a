import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { Button, buttonClass } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { StatusPanel } from '../../../components/ui/status-panel';
import { paths } from '../../../config/paths';
import { RESULT_LIST_LIMITS, shareTokenSchema, type SharedAuditView } from '../../../lib/contracts';
import { useSharedAudit } from '../api/get-shared-audit';
import { EmailReportDialog } from './email-report-dialog';
import { ProtectionsSection } from './protections';
import { OpenPortsCard } from './report-cards';
import { Counters, RiskBanner, ScoreCard } from './report-overview';
import { SiteAccessPanel } from './site-access';
import { NotCheckedList, notRun, ScanModeNotice } from './scan-coverage';
import { ProvidersLine } from './platform-fix';
import { VulnerabilitiesList } from './vulnerabilities-list';

/** SPEC §5 "Other": a share route without a token. */
export const INVALID_SHARE_LINK = 'Invalid share link';
export const SHARED_AUDIT_LOAD_FAILED = 'Failed to load shared audit';

/** SPEC §8: why a shared link may not open. */
const INVALID_REASONS = [
  'The link has expired (shared links work for 24 hours)',
  'The link was typed or copied incorrectly',
  'The original audit has been deleted',
  'The link has reached its maximum number of uses',
];

const FREE_REPORT_HREF = `${paths.home.getHref()}#audit-form`;

/** 'Expires in 5h 12m' (hours and minutes), 'Expired' once past (SPEC §4 "Shared audit"). */
export function expiresInLabel(expiresAt: string, now: number): string {
  const left = new Date(expiresAt).getTime() - now;
  if (!Number.isFinite(left) || left <= 0) return 'Expired';
  const minutes = Math.floor(left / 60_000);
  return `Expires in ${Math.floor(minutes / 60)}h ${minutes % 60}m`;
}

function useNow(intervalMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

const expiryFormat = new Intl.DateTimeFormat('en-AU', { dateStyle: 'full', timeStyle: 'short' });

function CallsToAction() {
  return (
    <section
      aria-labelledby="shared-cta-heading"
      className="rounded-xl border border-blue-200 bg-blue-50 p-6 text-center dark:border-blue-800 dark:bg-blue-950"
    >
      <h2 id="shared-cta-heading" className="text-xl font-bold text-slate-900 dark:text-slate-100">
        How secure is your website?
      </h2>
      <p className="mt-2 text-slate-700 dark:text-slate-300">Get the same free security report for your own business website.</p>
      <div className="mt-4 flex flex-col justify-center gap-3 sm:flex-row">
        <Link to={FREE_REPORT_HREF} className={buttonClass('primary')}>
          Get Your Free Security Report
        </Link>
        <Link to={paths.home.getHref()} className={buttonClass('secondary')}>
          Learn More
        </Link>
      </div>
    </section>
  );
}

export function ShareLinkInvalid({ message }: { message: string }) {
  return (
    <StatusPanel title="Share Link Invalid" tone="error" role="alert">
      <p className="mt-3 font-medium text-slate-800 dark:text-slate-200">{message}</p>
      <p className="mt-4 text-left text-sm text-slate-700 dark:text-slate-300">This can happen when:</p>
      <ul className="mt-2 list-disc space-y-1 pl-6 text-left text-sm text-slate-700 dark:text-slate-300">
        {INVALID_REASONS.map((reason) => (
          <li key={reason}>{reason}</li>
        ))}
      </ul>
      <div className="mt-6 flex flex-col justify-center gap-3 sm:flex-row">
        <Link to={FREE_REPORT_HREF} className={buttonClass('primary')}>
          Get Your Free Security Report
        </Link>
        <Link to={paths.home.getHref()} className={buttonClass('secondary')}>
          Go to Home
        </Link>
      </div>
    </StatusPanel>
  );
}

/** What emailing through the link costs: the API counts it as one use of the link, as opening it. */
export const SHARE_EMAIL_NOTE = 'Sending it counts as one use of this share link.';

function SharedAssessment({ audit, expiresAt, shareToken, canEmail }: { audit: SharedAuditView; expiresAt?: string; shareToken: string; canEmail: boolean }) {
  const now = useNow(15_000);
  const [emailing, setEmailing] = useState(false);
  const expiry = expiresAt ? new Date(expiresAt) : undefined;
  return (
    <article className="space-y-8">
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <p className="text-sm font-semibold tracking-wide text-blue-700 uppercase dark:text-blue-400">
            Shared security assessment
          </p>
          <h1 className="text-2xl font-bold tracking-tight wrap-anywhere text-slate-900 sm:text-3xl dark:text-slate-100">{audit.host}</h1>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            {audit.business_name ? `${audit.business_name} · ` : ''}Read-only copy
            {audit.completed_at ? ` of the scan finished ${expiryFormat.format(new Date(audit.completed_at))}` : ''}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-3">
          {expiresAt && (
            <p
              data-testid="expires-in"
              className="rounded-full bg-slate-100 px-3 py-1 text-sm font-semibold text-slate-800 dark:bg-slate-800 dark:text-slate-200"
            >
              {expiresInLabel(expiresAt, now)}
            </p>
          )}
          {/* The link's holder may email the report when the report's owner made the link signed in
              (`canEmail`): the link's token is their right to (the API checks it), and the only key
              the page has: the shared view carries no audit id (issue 28 finding 11). */}
          {canEmail && !audit.sample && (
            <Button variant="secondary" onClick={() => setEmailing(true)}>
              Email Report
            </Button>
          )}
        </div>
      </header>
      {emailing && (
        <EmailReportDialog shareToken={shareToken} description={audit.host} note={SHARE_EMAIL_NOTE} onClose={() => setEmailing(false)} />
      )}

      {expiry && !Number.isNaN(expiry.getTime()) && (
        <p
          data-testid="expiry-banner"
          className="rounded-md border border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
        >
          This shared report link expires on <strong>{expiryFormat.format(expiry)}</strong>.
        </p>
      )}

      <SiteAccessPanel access={audit.site_access} />
      <ScanModeNotice coverage={audit.coverage} />
      <RiskBanner riskLevel={audit.risk_level} partial={audit.coverage.partial} />
      <ScoreCard result={audit} />
      <ProvidersLine providers={audit.providers} />
      <Counters counters={audit.counters} coverage={audit.coverage} />
      <NotCheckedList coverage={audit.coverage} groups={audit.not_checked_groups} />
      <VulnerabilitiesList
        vulnerabilities={audit.vulnerability_summary.vulnerabilities}
        groups={audit.finding_groups}
        technologies={audit.technologies}
        limit={RESULT_LIST_LIMITS.vulnerabilities}
        expandable={false}
        partial={audit.coverage.partial}
      />
      <OpenPortsCard
        ports={audit.port_scan_results}
        measured={audit.counters.openPorts !== null}
        notChecked={notRun(audit.coverage, 'ports')}
        limit={RESULT_LIST_LIMITS.openPorts}
        expandable={false}
      />
      <ProtectionsSection result={audit} />
      <CallsToAction />
    </article>
  );
}

/** SPEC §2 "Shared audit page": loading, then the read-only report, 'Share Link Invalid', or no data. */
export function SharedReport({ shareToken }: { shareToken: string }) {
  const valid = shareTokenSchema.safeParse(shareToken).success;
  const shared = useSharedAudit(shareToken, { enabled: valid });

  if (!valid) return <ShareLinkInvalid message={INVALID_SHARE_LINK} />;
  if (shared.isPending) {
    return (
      <StatusPanel title="Loading shared report" role="status">
        <Spinner className="mt-4 size-6 text-blue-700" />
      </StatusPanel>
    );
  }
  if (shared.error) {
    const body = 'body' in shared.error ? (shared.error.body as Record<string, unknown>) : {};
    return <ShareLinkInvalid message={typeof body.message === 'string' ? body.message : SHARED_AUDIT_LOAD_FAILED} />;
  }
  if (!shared.data.success || !shared.data.audit) {
    return (
      <StatusPanel title="No Audit Data">
        <p className="mt-3 text-slate-600 dark:text-slate-400">{shared.data.message ?? 'This shared link has no report.'}</p>
        <div className="mt-6">
          <Link to={paths.home.getHref()} className={buttonClass('secondary')}>
            Go to Home
          </Link>
        </div>
      </StatusPanel>
    );
  }
  return <SharedAssessment audit={shared.data.audit} expiresAt={shared.data.expiresAt} shareToken={shareToken} canEmail={shared.data.canEmail === true} />;
}
