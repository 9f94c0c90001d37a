import { useQuery } from '@tanstack/react-query';
import { Link, useLocation, useNavigate } from 'react-router';
import { Button, buttonClass } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { scanModeContent } from '../../../config/scan-modes';
import { siteKey, type Audit, type AuditResultView } from '../../../lib/contracts';
import { domainsQueryOptions, type DomainView } from '../../account/api/domains';
import { useAuth } from '../../auth/auth-provider';
import { unlockRefusal, useUnlockScan } from '../api/unlock-scan';

const text = scanModeContent.unlock;

/** Whether one of the account's verified domains covers `domain` (itself or a parent), as the API decides. */
export function coversDomain(domains: readonly DomainView[], domain: string): boolean {
  return domains.some((entry) => entry.verified && (domain === entry.domain || domain.endsWith(`.${entry.domain}`)));
}

/**
 * 'Run the full scan' (DECISIONS "Scan modes"): `POST /api/audits/{id}/unlock`, then the new
 * report the full scan makes (issue 29 item 6), where its progress shows. `reportHref` (Settings →
 * Domains): the partial report, linked from a refusal. Each refusal says why, in the
 * contract's words, with the way on that fits it.
 */
export function RunFullScanButton({ auditId, domain, reportHref, onDomainsPage = false }: { auditId: string; domain: string; reportHref?: string; onDomainsPage?: boolean }) {
  const unlock = useUnlockScan(auditId);
  const navigate = useNavigate();
  const location = useLocation();
  const refusal = unlock.error ? unlockRefusal(unlock.error, domain) : undefined;

  const run = () =>
    unlock.mutate(undefined, {
      // The full scan is a new report (issue 29 item 6): follow it, on the results page or in the dashboard.
      onSuccess: (queued) => {
        void navigate(location.pathname.startsWith('/dashboard/audits/') ? paths.dashboard.audit.getHref(queued.auditId) : paths.results.getHref(queued.auditId));
      },
      onError: (error) => {
        // The session ran out since the page loaded: sign in again and come back here.
        if (unlockRefusal(error, domain).code === 'signed_out') void navigate(paths.auth.login.getHref(`${location.pathname}${location.search}`));
      },
    });

  return (
    <div className="space-y-3">
      {refusal && refusal.code !== 'signed_out' && (
        <div role="alert" className="rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100">
          <p>{refusal.message}</p>
          {refusal.code === 'domain_not_verified' && !onDomainsPage && (
            <Link to={paths.dashboard.verifyDomain.getHref(domain, { unlock: auditId })} className="mt-1 inline-block font-semibold underline">
              {text.verify(domain)}
            </Link>
          )}
          {refusal.code === 'audit_forbidden' && (
            <Link to={paths.dashboard.root.getHref()} className="mt-1 inline-block font-semibold underline">
              {text.toDashboard}
            </Link>
          )}
          {(refusal.code === 'already_active' || refusal.code === 'audit_scan_running' || refusal.code === 'audit_superseded') && reportHref && (
            <Link to={reportHref} className="mt-1 inline-block font-semibold underline">
              {text.viewReport}
            </Link>
          )}
        </div>
      )}
      <Button className="min-h-11" onClick={run} disabled={unlock.isPending} aria-busy={unlock.isPending}>
        {unlock.isPending ? (
          <>
            <Spinner className="size-4" />
            {text.starting}
          </>
        ) : (
          text.run
        )}
      </Button>
    </div>
  );
}

/**
 * On a passive report (DECISIONS "Scan modes": its requester proved only an address, or its full
 * scan met the hourly per-target limit): what the full scan adds and how to unlock it. It needs a
 * free account, where the domain is verified; the API decides whose report it is, so anyone holding
 * the link is shown the way.
 */
export function UnlockPanel({ audit, result }: { audit: Audit; result: AuditResultView }) {
  const { status } = useAuth();
  // Also when a full scan ran passive under the hourly per-target limit: it may be unlocked again later.
  // Not once a full scan replaced it (issue 29 item 6): the report links to that one instead.
  const offered = audit.status === 'completed' && !result.sample && result.coverage.mode === 'passive' && !result.superseded_by;
  const domains = useQuery({ ...domainsQueryOptions(), enabled: offered && status === 'signed-in' });
  if (!offered) return null;

  const domain = siteKey(audit.host);
  const verifyHref = paths.dashboard.verifyDomain.getHref(domain, { unlock: audit.id });
  const verified = domains.data !== undefined && coversDomain(domains.data, domain);
  return (
    <section
      aria-labelledby="unlock-heading"
      data-testid="unlock-panel"
      className="rounded-xl border border-blue-200 bg-white p-5 shadow-sm dark:border-blue-800 dark:bg-slate-900"
    >
      <h2 id="unlock-heading" className="text-xl font-bold text-slate-900 dark:text-slate-100">
        {text.heading(domain)}
      </h2>
      <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">{text.intro}</p>
      <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-slate-700 dark:text-slate-300">
        {text.adds.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
      <p className="mt-3 text-sm text-slate-700 dark:text-slate-300">{text.account}</p>
      <div className="mt-4">
        {status === 'signed-out' ? (
          <>
            <p className="text-sm text-slate-700 dark:text-slate-300">{text.leadAccount}</p>
            <div className="mt-3 flex flex-wrap gap-3">
              <Link to={paths.auth.login.getHref(verifyHref)} className={buttonClass('primary')}>
                {text.signIn}
              </Link>
              <Link to={paths.auth.signup.getHref(verifyHref)} className={buttonClass('secondary')}>
                {text.signUp}
              </Link>
            </div>
          </>
        ) : status === 'signed-in' && verified ? (
          <>
            <p className="mb-3 text-sm text-slate-700 dark:text-slate-300">{text.verified(domain)}</p>
            <RunFullScanButton auditId={audit.id} domain={domain} />
          </>
        ) : status === 'signed-in' && !domains.isPending ? (
          <Link to={verifyHref} className={buttonClass('primary')}>
            {text.verify(domain)}
          </Link>
        ) : null}
      </div>
    </section>
  );
}
