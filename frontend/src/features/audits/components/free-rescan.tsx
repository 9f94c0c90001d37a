import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import type { Audit, AuditResultView } from '../../../lib/contracts';
import { useAuth } from '../../auth/auth-provider';
import { useBoughtProAudit, useRescanPaidAudit } from '../api/rescan-paid-audit';
import { formatDate } from './format';

/**
 * 'Re-scan to confirm fixes' (DECISIONS "What paid audits add"): the Pro Audit's one free re-scan,
 * offered to the signed-in user who bought it while its window is open. Once queued, the report
 * turns to the scan's progress by itself; once used (or past its date), the panel says so.
 */
export function FreeRescanPanel({ audit, result }: { audit: Audit; result: AuditResultView }) {
  const { status } = useAuth();
  const rescanInfo = result.free_rescan;
  const bought = useBoughtProAudit(audit.id, status === 'signed-in' && rescanInfo !== undefined);
  const rescan = useRescanPaidAudit(audit.id);
  if (!rescanInfo || bought.data !== true) return null;

  const expired = rescanInfo.availableUntil === null || Date.now() > Date.parse(rescanInfo.availableUntil);
  return (
    <section
      aria-labelledby="free-rescan-heading"
      data-testid="free-rescan"
      className="rounded-xl border border-blue-200 bg-white p-5 shadow-sm dark:border-blue-800 dark:bg-slate-900"
    >
      <h2 id="free-rescan-heading" className="text-xl font-bold text-slate-900 dark:text-slate-100">
        Re-scan to confirm fixes
      </h2>
      {rescanInfo.usedAt ? (
        <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
          You have used the free re-scan included with this Pro Audit (started {formatDate(rescanInfo.usedAt)}).
        </p>
      ) : expired ? (
        <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
          The free re-scan included with this Pro Audit was available until {formatDate(rescanInfo.availableUntil ?? undefined)}.
        </p>
      ) : (
        <>
          <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
            Your Pro Audit includes one free re-scan until {formatDate(rescanInfo.availableUntil ?? undefined)}. Fix the issues in the
            remediation plan, then scan again to confirm they are gone.
          </p>
          {rescan.error && (
            <p role="alert" className="mt-3 rounded-md border border-red-200 bg-red-50 px-4 py-2 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100">
              {rescan.error.message}
            </p>
          )}
          <Button className="mt-4 min-h-11" onClick={() => rescan.mutate()} disabled={rescan.isPending} aria-busy={rescan.isPending}>
            {rescan.isPending ? (
              <>
                <Spinner className="size-4" />
                Starting re-scan...
              </>
            ) : (
              'Re-scan to confirm fixes'
            )}
          </Button>
        </>
      )}
    </section>
  );
}
